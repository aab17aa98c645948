//! afl target: `surfaces::report_merge` (see `src/surfaces.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        difftest_fuzz::surfaces::report_merge(data);
    });
}
