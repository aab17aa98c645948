use super::*;
use crate::suite::Suite;
use crate::suite::share::tests::tests;
use std::path::Path;

/// The sample suite with the shared tests, written with chunks closed at `runs` runs.
fn write(path: &Path, runs: usize) -> Suite {
    let mut suite = crate::suite::tests::sample();
    suite.tests = tests();
    let n = suite.tests.len();
    suite.header.counts.insert("tests".into(), n as u64);
    let mut w = Writer::create(path, &suite.header, &suite.exceptions).unwrap();
    write_in_chunks(&mut w, n, |i| Ok::<_, SuiteError>(&suite.tests[i]), runs).unwrap();
    for e in &suite.error_revealing {
        w.error_test(e).unwrap();
    }
    w.finish().unwrap();
    suite
}

fn definitions(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("- shared: ")).count()
}

#[test]
fn chunks_share_within_themselves_and_read_back_whole_and_identical() {
    let dir = tempfile::tempdir().unwrap();
    let (one, small, again) = (
        dir.path().join("one.yaml"),
        dir.path().join("small.yaml"),
        dir.path().join("again.yaml"),
    );
    write(&one, CHUNK_RUNS);
    let suite = write(&small, 12);
    write(&again, 12);
    let (one, small_text) = (
        std::fs::read_to_string(&one).unwrap(),
        std::fs::read_to_string(&small).unwrap(),
    );
    assert_eq!(small_text, std::fs::read_to_string(&again).unwrap());
    assert_eq!(Suite::load(&small).unwrap(), suite);
    // Each chunk defines the blocks it uses again, and uses none of an earlier chunk's.
    assert!(definitions(&one) > 0, "{one}");
    assert!(definitions(&small_text) > definitions(&one), "{small_text}");
}

#[test]
fn a_new_plan_before_the_last_one_is_written_whole_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let suite = crate::suite::tests::sample();
    let tests = tests();
    let mut w =
        Writer::create(&dir.path().join("s.yaml"), &suite.header, &suite.exceptions).unwrap();
    w.share(crate::suite::share::plan(|| tests.iter())).unwrap();
    w.test(&tests[0]).unwrap();
    let err = w
        .share(crate::suite::share::plan(|| tests.iter()))
        .unwrap_err();
    assert!(err.to_string().contains("not written whole"), "{err}");
}
