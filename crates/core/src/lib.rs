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
//! The public surface is what the command line, the worker and the end-to-end tests use:
//! the pipeline's entry points and plans, and the data they pass between stages (suites,
//! sequences, reports, targets, the pool). Everything else is `pub(crate)`; the
//! `unreachable_pub` lint keeps a `pub` item from hiding in a private module.

#![warn(missing_docs, unreachable_pub)]

pub use difftest_base::atomic;
use difftest_worker::agent;
pub mod compare;
mod contracts;
#[cfg(any(test, feature = "bench"))]
pub mod detection;
pub mod exit;
mod explain;
pub mod export;
pub mod flakes;
pub mod generate;
mod hash;
mod in_order;
pub mod interrupt;
pub mod observe;
pub mod pipeline;
mod plural;
pub use plural::plural;
pub mod pool;
pub mod replay;
pub mod report;
pub mod scope;
pub mod suite;
pub mod targets;
pub mod text;
pub mod triage;
pub use difftest_base::usage;
pub use difftest_worker as worker;

pub use difftest_protocol::{message, model, sequence};
