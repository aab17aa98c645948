//! difftest: differential testing of Java API implementations.
//!
//! The pipeline, one module per stage: a [`targets`] entry names an implementation and provisions
//! its JDK; [`worker`] processes embed that JVM and run method-call [`sequence`]s against the
//! API [`model`] it describes; the [`pool`] supervises workers, enforcing timeouts and
//! surviving crashes. [`pipeline`] runs the stages end to end for record, replay, compare
//! and export; `commands` only turns flags into its plans and prints what comes back.
//!
//! The public surface is the pipeline and the data it passes between stages (suites,
//! sequences, reports, targets, the pool and its workers); the helpers inside a stage
//! (atomic files, flake removal, contracts, hashing, progress, resource usage) are private.
//! `cli` and `commands` are public only for the `difftest` binary and hidden from the docs.

use difftest_base::atomic;
use difftest_worker::agent;
#[doc(hidden)]
pub mod cli;
mod color;
#[doc(hidden)]
pub mod commands;
pub mod compare;
mod contracts;
pub mod detection;
pub mod exit;
mod explain;
pub mod export;
mod flakes;
pub mod generate;
mod hash;
mod interrupt;
pub mod observe;
pub mod pipeline;
mod plural;
pub mod pool;
mod progress;
pub mod replay;
pub mod report;
pub mod scope;
pub mod suite;
pub mod targets;
mod text;
pub mod triage;
pub use difftest_base::usage;
pub use difftest_worker as worker;

pub use difftest_protocol::{message, model, sequence};
