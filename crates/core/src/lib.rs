//! difftest's library (crate `difftest-core`): differential testing of Java API
//! implementations, every stage of the pipeline, below the command line.
//!
//! The pipeline, one module per stage: a [`targets`] entry names an implementation and provisions
//! its JDK; [`worker`] processes embed that JVM and run method-call [`sequence`]s against the
//! API [`model`] it describes; the [`pool`] supervises workers, enforcing timeouts and
//! surviving crashes. [`pipeline`] runs the stages end to end for record, replay, compare
//! and export; the `difftest` binary (the root package) only turns flags into its plans and
//! prints what comes back.
//!
//! The public surface is the pipeline and the data it passes between stages (suites,
//! sequences, reports, targets, the pool and its workers). The helpers hidden from the docs
//! (atomic files, flake removal, explain, interrupts, plurals, text) are public only for the
//! command line, which still reaches into them.

#[doc(hidden)]
pub use difftest_base::atomic;
use difftest_worker::agent;
pub mod compare;
mod contracts;
pub mod detection;
pub mod exit;
#[doc(hidden)]
pub mod explain;
pub mod export;
#[doc(hidden)]
pub mod flakes;
pub mod generate;
mod hash;
#[doc(hidden)]
pub mod interrupt;
pub mod observe;
pub mod pipeline;
#[doc(hidden)]
pub mod plural;
pub mod pool;
pub mod replay;
pub mod report;
pub mod scope;
pub mod suite;
pub mod targets;
#[doc(hidden)]
pub mod text;
pub mod triage;
pub use difftest_base::usage;
pub use difftest_worker as worker;

pub use difftest_protocol::{message, model, sequence};
