//! afl target: `surfaces::cli` (see `src/surfaces.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        difftest_fuzz::surfaces::cli(data);
    });
}
