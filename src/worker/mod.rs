//! The worker process: a hidden subcommand of the `difftest` binary that embeds one
//! target's JVM and answers the supervisor's requests (`crate::message`) on its stdin/stdout.
//!
//! One JVM per process, ever: a worker serves exactly one implementation. Anything the code
//! under test prints goes to stderr, never into the protocol channel.

mod answers;
pub mod encode;
pub mod jvm;
pub mod sandbox;
pub mod serve;
