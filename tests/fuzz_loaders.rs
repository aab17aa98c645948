//! Fuzzing every loader of user-supplied files (suite, accepted list, report part, target
//! file, class list, literals, observers, omit list) with mutations of valid files: byte
//! flips, truncations, duplicated, deleted and swapped ranges, inserted bytes. Each case
//! asserts that the loader does not panic and either loads or fails with one line naming the
//! file; for checksummed files (suite, accepted list) any change at all must fail, and a
//! report part that still loads must say what the original said.
//!
//! Seeds are the files in `tests/fuzz/seeds/` plus an accepted list and a report written by
//! this difftest; failures proptest finds are kept in `tests/fuzz_loaders.regressions` and
//! replayed first on every run. `DIFFTEST_FUZZ_CASES` sets the cases per loader (default 64,
//! so `cargo test` stays quick; set it to millions for a campaign).

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One edit of a file's bytes; positions are taken modulo the length.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Truncate(usize),
    Duplicate(usize, usize, usize),
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    SwapLines(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        4 => (at, 1..=255u8).prop_map(|(i, x)| Mutation::Flip(i, x)),
        1 => at.prop_map(Mutation::Truncate),
        2 => (at, 0..200usize, at).prop_map(|(i, n, j)| Mutation::Duplicate(i, n, j)),
        2 => (at, 0..64usize).prop_map(|(i, n)| Mutation::Delete(i, n)),
        2 => (at, prop::collection::vec(prop_oneof![
            any::<u8>(),
            prop::sample::select(b"\n :-#'\"\\.*{}[]0123456789abcdefxyz\t".to_vec()),
        ], 1..12)).prop_map(|(i, b)| Mutation::Insert(i, b)),
        1 => (at, at).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len();
    let pos = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
    match m {
        Mutation::Flip(i, x) if len > 0 => bytes[i % len] ^= x,
        Mutation::Flip(..) => {}
        Mutation::Truncate(i) => bytes.truncate(pos(*i)),
        Mutation::Duplicate(i, n, j) => {
            let start = pos(*i);
            let end = (start + n).min(len);
            let copy = bytes[start..end].to_vec();
            let at = pos(*j);
            bytes.splice(at..at, copy);
        }
        Mutation::Delete(i, n) => {
            let start = pos(*i);
            let end = (start + n).min(len);
            bytes.drain(start..end);
        }
        Mutation::Insert(i, b) => {
            let at = pos(*i);
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::SwapLines(i, j) => {
            let mut lines: Vec<Vec<u8>> =
                bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let n = lines.len();
            lines.swap(i % n, j % n);
            *bytes = lines.join(&b'\n');
        }
    }
}

fn cases() -> u32 {
    std::env::var("DIFFTEST_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

fn config() -> Config {
    Config {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        max_shrink_iters: 2000,
        ..Config::default()
    }
}

fn seed(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz/seeds")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Seeds written by this difftest: an accepted list and a report part.
fn generated() -> &'static (Vec<u8>, Vec<u8>) {
    static SEEDS: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let report = common::report::report_with_groups(3, "oracles/ref.yaml");
        let json = report.write_all(dir.path()).unwrap().remove(0);
        let mut list = difftest::triage::accepted::AcceptedList::default();
        for g in &report.groups[..2] {
            list.add(difftest::triage::accepted::AcceptedEntry {
                group: g.id.clone(),
                callee: g.callee.clone(),
                kind: g.kind,
                cause: None,
                callees: vec![],
                target: "*".into(),
                reason: "reviewed: it's \"fine\"".into(),
                by: Some("fuzz".into()),
                date: Some("2026-11-26".into()),
            });
        }
        let accepted = dir.path().join("ref.accepted.yaml");
        list.save(&accepted).unwrap();
        (
            std::fs::read(accepted).unwrap(),
            std::fs::read(json).unwrap(),
        )
    })
}

/// Writes the mutated bytes to a fresh file named `name` and returns its path.
fn mutated(dir: &Path, name: &str, original: &[u8], edits: &[Mutation]) -> (PathBuf, Vec<u8>) {
    let mut bytes = original.to_vec();
    for m in edits {
        apply(&mut bytes, m);
    }
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

/// Whether `bytes` is the suite `original`, or it without the newline after its end line:
/// the reader takes an end line that lacks its newline (nothing is missing after it), so a
/// cut that removes only that byte loads the same suite.
fn same_suite(bytes: &[u8], original: &[u8]) -> bool {
    bytes == original || original.strip_suffix(b"\n") == Some(bytes)
}

/// An error message must be one non-empty line naming the file.
fn one_line(message: &str, file: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "empty error");
    prop_assert!(!message.contains('\n'), "more than one line: {message:?}");
    prop_assert!(message.contains(file), "does not name {file}: {message}");
    prop_assert!(message.len() < 2000, "{} bytes of error", message.len());
    Ok(())
}

fn edits() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..4)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn suite_loader(edits in edits()) {
        let original = seed("suite.yaml");
        let dir = tempfile::tempdir().unwrap();
        let (path, bytes) = mutated(dir.path(), "s.yaml", &original, &edits);
        match difftest::suite::Suite::load(&path) {
            Ok(_) => prop_assert!(same_suite(&bytes, &original), "a changed suite loaded"),
            Err(e) => one_line(&e.to_string(), "s.yaml")?,
        }
    }

    #[test]
    fn accepted_list_loader(edits in edits()) {
        let original = &generated().0;
        let dir = tempfile::tempdir().unwrap();
        let (path, bytes) = mutated(dir.path(), "r.accepted.yaml", original, &edits);
        match difftest::triage::accepted::AcceptedList::load(&path) {
            Ok(_) if bytes.iter().all(u8::is_ascii_whitespace) => {}
            Ok(_) => prop_assert_eq!(&bytes, original, "a changed accepted list loaded"),
            Err(e) => one_line(&e.to_string(), "r.accepted.yaml")?,
        }
        if let Err(e) = difftest::triage::accepted::AcceptedList::load_unverified(&path) {
            one_line(&e.to_string(), "r.accepted.yaml")?;
        }
    }

    #[test]
    fn report_part_loader(edits in edits()) {
        let original = &generated().1;
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = mutated(dir.path(), "part.json", original, &edits);
        let first = dir.path().join("first.json");
        std::fs::write(&first, original).unwrap();
        match difftest::report::Report::read(&path) {
            Ok(r) => prop_assert_eq!(r, difftest::report::Report::read(&first).unwrap()),
            Err(e) => one_line(&e.to_string(), "part.json")?,
        }
    }

    #[test]
    fn target_file_loader(edits in edits()) {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = mutated(dir.path(), "temurin17.yaml", &seed("target.yaml"), &edits);
        if let Err(e) = difftest::targets::spec::load_file(&path, "temurin17") {
            prop_assert!(e.is_bad_input(), "not bad input: {e}");
            one_line(&e.to_string(), "temurin17.yaml")?;
        }
    }

    #[test]
    fn class_list_loader(edits in edits()) {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = mutated(dir.path(), "classes.txt", &seed("classlist.txt"), &edits);
        if let Err(e) = difftest::scope::read_class_list(&path) {
            prop_assert_eq!(difftest::exit::code_of(&e), difftest::exit::Exit::BadInput);
            one_line(&difftest::exit::one_line(&e), "classes.txt")?;
        }
        if let Err(e) = difftest::scope::OmitList::read(&path) {
            one_line(&difftest::exit::one_line(&e), "classes.txt")?;
        }
    }

    #[test]
    fn literals_loader(edits in edits()) {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = mutated(dir.path(), "lits.txt", &seed("literals.txt"), &edits);
        if let Err(e) = difftest::generate::literals::read(&path) {
            let m = e.to_string();
            one_line(&m, "lits.txt")?;
            prop_assert!(!m.contains("lits.txt:0"), "{}", m);
        }
    }

    #[test]
    fn observers_loader(edits in edits()) {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = mutated(dir.path(), "obs.txt", &seed("observers.txt"), &edits);
        if let Err(e) = difftest::observe::read_patterns(&path) {
            one_line(&e.to_string(), "obs.txt")?;
        }
    }
}
