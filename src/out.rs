//! Standard output for every command: a reader that stops early (`difftest replay … | head`)
//! closes the pipe, and Rust's `println!` panics then. Here the rest of the output is dropped
//! and the command still returns its own exit code (a failing gate stays a failure under
//! `set -o pipefail`).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout refused a write: nothing more is tried.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `args` to stdout; a closed pipe is not an error. Other write errors are dropped
/// too: what goes to stdout is a summary of files already written.
pub fn write(args: std::fmt::Arguments) {
    attempt(|out| out.write_fmt(args));
}

/// `print!` that survives a closed stdout ([`write`]).
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `println!` that survives a closed stdout ([`write`]).
macro_rules! outln {
    () => { $crate::out::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Writes `bytes` to stdout, as [`write`] does.
pub fn bytes(bytes: &[u8]) {
    attempt(|out| out.write_all(bytes));
}

fn attempt(f: impl FnOnce(&mut std::io::StdoutLock) -> std::io::Result<()>) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if f(&mut out).and_then(|()| out.flush()).is_err() {
        CLOSED.store(true, Ordering::Relaxed);
    }
}
