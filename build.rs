//! Build script of the `difftest` binary: exports its own `clock_gettime` (defined in the
//! worker crate, `wall_clock.rs`) so that the libjvm a worker loads at run time calls it
//! rather than the C library's, and record's reruns can move the JVM's wall clock.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-Wl,--export-dynamic-symbol=clock_gettime");
    }
}
