//! The `difftest` binary: parses the command line and dispatches to the library.

fn main() {
    println!("difftest {}", env!("CARGO_PKG_VERSION"));
}
