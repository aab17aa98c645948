//! difftest: differential testing of Java API implementations.
//!
//! The pipeline, one module per stage: a [`target`] names an implementation and provisions
//! its JDK; [`worker`] processes embed that JVM and run method-call [`sequence`]s against the
//! API [`model`] it describes; the [`pool`] supervises workers, enforcing timeouts and
//! surviving crashes. [`pipeline`] runs the stages end to end for record, replay, compare
//! and export; `commands` only turns flags into its plans and prints what comes back.

pub mod atomic;
pub mod cli;
pub mod color;
pub mod commands;
pub mod compare;
pub mod contracts;
pub mod detection;
pub mod exit;
pub mod explain;
pub mod export;
pub mod flakes;
pub mod generate;
pub mod hash;
pub mod interrupt;
pub mod model;
pub mod observe;
pub mod pipeline;
pub mod pool;
pub mod progress;
pub mod replay;
pub mod report;
pub mod scope;
pub mod sequence;
pub mod suite;
pub mod targets;
pub mod triage;
pub mod usage;
pub mod worker;
