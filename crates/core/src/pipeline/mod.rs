//! The stages run end to end, one entry point per command that has a pipeline: [`record`]
//! (describe, mine, generate, rerun, classify, write the suite), [`replay`] (check the
//! suite, replay it on each target, group, minimize, build and write the reports),
//! [`compare`] (two replay reports read from A to B), [`explain`] (a report's group, run
//! again), [`export`] (the reference's model
//! for an export's declared types) and [`accept`] (a cause or group of the reports added to
//! the suite's accepted list). Each is driven by a plan and tells its progress to a
//! trait the caller implements; nothing here prints. `commands/` turns flags into plans and
//! prints what comes back.

pub mod accept;
pub mod compare;
pub mod coverage;
pub mod explain;
pub mod export;
pub mod folder;
pub(crate) mod header;
pub mod memory;
pub mod record;
pub mod replay;
pub mod replay_suite;
pub mod report;
pub mod suite_stats;
pub mod target_check;

use crate::explain::ExplainError;
use crate::flakes::RerunError;
use crate::generate::spool::SpoolError;
use crate::pool::PoolError;
use crate::report::ReportError;
use crate::suite::SuiteError;
use crate::targets::TargetError;
use crate::triage::accepted::AcceptedError;
use std::path::PathBuf;

/// Why a pipeline stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Something the user gave (a scope, a suite, a flag's value) is wrong: exit code 2.
    #[error("{0}")]
    BadInput(String),
    /// A target could not be loaded or provisioned.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The workers failed (start, describe, a batch).
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The suite could not be read or written.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The kept tests' scratch file could not be written or read back whole: exit code 3.
    #[error(transparent)]
    Spool(#[from] SpoolError),
    /// A report could not be read or written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The accepted list could not be read or written.
    #[error(transparent)]
    Accepted(#[from] AcceptedError),
    /// `explain` could not find its group's test or rerun it.
    #[error(transparent)]
    Explain(ExplainError),
    /// `compare-A-to-B.{json,md}` could not be written.
    #[error(transparent)]
    WriteComparison(std::io::Error),
    /// A lock file could not be taken.
    #[error("{}: cannot lock: {source}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The Ctrl-C handler could not be installed.
    #[error("cannot handle Ctrl-C: {0}")]
    Signals(std::io::Error),
    /// `--coverage` could not measure (its jars, JaCoCo's report): exit code 3.
    #[error("coverage: {0}")]
    Coverage(String),
    /// The reference's class path lacks a class the code in scope needs: exit code 3.
    #[error(
        "{needer} needs {missing}, which is missing from the class path of {reference}: \
         add the jar that has it to the target, or pass --allow-missing-classes to leave \
         what needs it out of scope"
    )]
    MissingClasses {
        /// The reference target.
        reference: String,
        /// The class the class path lacks.
        missing: String,
        /// The class path code that needed it, or the callee.
        needer: String,
    },
}

impl From<RerunError> for Error {
    fn from(e: RerunError) -> Error {
        match e {
            RerunError::Pool(e) => Error::Pool(e),
            RerunError::Spool(e) => Error::Spool(e),
        }
    }
}

impl Error {
    /// The error as the command line reports it, keeping the inner error for its exit code.
    pub fn into_anyhow(self) -> anyhow::Error {
        match self {
            Error::BadInput(m) => crate::exit::bad_input(m),
            Error::Target(e) => e.into(),
            Error::Pool(e) => e.into(),
            Error::Suite(e) => e.into(),
            Error::Report(e) => e.into(),
            Error::Accepted(e) => e.into(),
            Error::Explain(e) => e.into(),
            Error::WriteComparison(e) => e.into(),
            e @ (Error::Lock { .. }
            | Error::MissingClasses { .. }
            | Error::Coverage(_)
            | Error::Spool(_)) => {
                anyhow::anyhow!(e)
            }
            Error::Signals(e) => anyhow::anyhow!("cannot handle Ctrl-C: {e}"),
        }
    }
}
