//! afl target: `surfaces::suite` (see `src/surfaces.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        difftest_fuzz::surfaces::suite(data);
    });
}
