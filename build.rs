//! Build script of the `difftest` binary: exports its own `clock_gettime` and
//! `pthread_cond_timedwait` (defined in the worker crate, `wall_clock.rs`) so that the
//! libjvm a worker loads at run time calls them rather than the C library's, and record's
//! reruns can move the JVM's wall clock without breaking its waits until a deadline.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        for symbol in ["clock_gettime", "pthread_cond_timedwait"] {
            println!("cargo:rustc-link-arg-bins=-Wl,--export-dynamic-symbol={symbol}");
        }
    }
}
