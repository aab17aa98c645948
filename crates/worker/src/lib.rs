//! The worker process: a hidden subcommand of the `difftest` binary ([`serve::main`]) that
//! embeds one target's JVM and answers the supervisor's requests ([`message`]) on its
//! stdin/stdout, and the Java [`agent`] it runs them with (compiled from `java/` by
//! `build.rs` and embedded).
//!
//! One JVM per process, ever: a worker serves exactly one implementation. Anything the code
//! under test prints goes to stderr, never into the protocol channel.

pub mod agent;
mod answers;
mod clock;
mod encode;
mod jvm;
mod sandbox;
pub mod serve;
mod stop;
mod wall_clock;

use difftest_base::{atomic, usage};
use difftest_protocol::{message, model, sequence};
