//! afl target: `surfaces::wire` (see `src/surfaces.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        difftest_fuzz::surfaces::wire(data);
    });
}
