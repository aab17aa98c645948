//! The afl corpus as a regression test: every file committed under `tests/fuzz/corpus/`
//! goes through the same entry points the afl targets drive (`tests/fuzz/src/surfaces.rs`):
//! none may panic, every refusal must be one line naming its input, and each surface's
//! corpus must still hold real files that read (so a format change that makes every seed
//! stale fails here rather than leaving the fuzzer on garbage). No fuzzer is needed.

#[path = "fuzz/src/surfaces.rs"]
mod surfaces;

use std::path::{Path, PathBuf};
use surfaces::Outcome;

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: empty corpus", dir.display());
    files
}

/// Feeds every corpus file of `target` to `surface`; returns the values read and the
/// refusals, in all.
fn replay(target: &str, surface: fn(&[u8]) -> Outcome) -> Outcome {
    let mut all = Outcome::default();
    for path in corpus(target) {
        let bytes = std::fs::read(&path).unwrap();
        let out = std::panic::catch_unwind(|| surface(&bytes))
            .unwrap_or_else(|_| panic!("{} panics", path.display()));
        all.values += out.values;
        all.errors += out.errors;
    }
    all
}

#[test]
fn the_suite_corpus_reads_without_panic() {
    let all = replay("suite", surfaces::suite);
    assert!(all.values > 0, "no suite of the corpus reads: {all:?}");
}

#[test]
fn the_accepted_corpus_reads_without_panic() {
    let all = replay("accepted", surfaces::accepted);
    assert!(all.values > 0, "no accepted list reads: {all:?}");
}

#[test]
fn the_report_merge_corpus_merges_without_panic() {
    let all = replay("report_merge", surfaces::report_merge);
    assert!(all.values > 0, "no shard reads: {all:?}");
}

#[test]
fn the_wire_corpus_decodes_without_panic() {
    let all = replay("wire", surfaces::wire);
    assert!(all.values > 0, "no wire message decodes: {all:?}");
}

#[test]
fn the_cli_corpus_parses_without_panic() {
    let all = replay("cli", surfaces::cli);
    assert!(all.values > 0, "no command line parses: {all:?}");
}
