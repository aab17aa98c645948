//! The `difftest` command line: clap definitions ([`cli`]) and one module per subcommand
//! ([`commands`]) that parses flags, calls the library ([`difftest_core`], re-exported here
//! whole so the tests and the binary name it `difftest::…`) and prints what comes back;
//! progress on stderr and `--color` are the command line's own.

pub use difftest_core::*;

#[doc(hidden)]
pub mod cli;
mod color;
#[macro_use]
mod out;
#[doc(hidden)]
pub mod commands;
mod progress;
