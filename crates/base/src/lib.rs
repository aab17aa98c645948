//! What every layer of difftest uses, below them all (so the worker and the supervisor
//! share one copy without importing each other): [`atomic`] file writes, sets and locks,
//! resource [`usage`] from `/proc`, and [`line`]: error text that quotes input, cut short
//! and kept on one line.

pub mod atomic;
pub mod line;
pub mod usage;
