//! Exit codes, the contract difftest keeps with CI, and how errors map onto them:
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success; for `replay`, no difference outside the accepted list |
//! | 1 | `replay` found new differences |
//! | 2 | bad input: a flag, target file, suite file or scope that is wrong |
//! | 3 | infrastructure failure: a JDK could not be provisioned or a JVM would not start |
//! | 130 | interrupted (Ctrl-C or SIGTERM); what was done so far is written, marked partial |

use crate::pool::PoolError;
use crate::targets::TargetError;
use std::process::ExitCode;

/// What the process tells its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Done, nothing to report.
    Success = 0,
    /// The gate failed: new differences.
    Differences = 1,
    /// Bad input: a flag, file or name.
    BadInput = 2,
    /// The JDK, a worker or the machine failed.
    Infrastructure = 3,
    /// Stopped by Ctrl-C or SIGTERM.
    Interrupted = 130,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// An error in what the user gave us (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BadInput(pub String);

/// Shorthand for a [`BadInput`] error.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    BadInput(message.into()).into()
}

/// The exit code for an error that reached the top.
pub fn code_of(err: &anyhow::Error) -> Exit {
    for cause in err.chain() {
        if cause.is::<BadInput>() {
            return Exit::BadInput;
        }
        if let Some(t) = cause.downcast_ref::<TargetError>() {
            return if t.is_bad_input() {
                Exit::BadInput
            } else {
                Exit::Infrastructure
            };
        }
        if cause.is::<PoolError>() {
            return Exit::Infrastructure;
        }
    }
    Exit::Infrastructure
}

/// The error and its causes on one line.
pub fn one_line(err: &anyhow::Error) -> String {
    let parts: Vec<String> = err
        .chain()
        .map(|c| {
            c.to_string()
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .collect();
    let mut line = String::new();
    for p in parts {
        if !p.is_empty() && !line.contains(&p) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&p);
        }
    }
    line
}
