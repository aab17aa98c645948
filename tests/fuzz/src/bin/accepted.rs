//! afl target: `surfaces::accepted` (see `src/surfaces.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        difftest_fuzz::surfaces::accepted(data);
    });
}
