//! The worker process: a hidden subcommand of the `difftest` binary that embeds one
//! target's JVM and answers the supervisor's [`protocol`] requests on its stdin/stdout.
//!
//! One JVM per process, ever: a worker serves exactly one implementation. Anything the code
//! under test prints goes to stderr, never into the protocol channel.

mod answers;
pub mod encode;
pub mod jvm;
mod message_wire;
pub mod protocol;
pub mod sandbox;
pub mod serve;
