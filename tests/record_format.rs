//! The suite format at scale: a large suite written by `record` loads in seconds.
//! `DIFFTEST_SUITE=path cargo test --release --test record_format -- --ignored` measures it.

use difftest::suite::Suite;
use std::time::Instant;

#[test]
#[ignore = "needs a suite file in DIFFTEST_SUITE"]
fn a_large_suite_loads_and_saves_quickly() {
    let Some(path) = std::env::var_os("DIFFTEST_SUITE") else {
        return;
    };
    let path = std::path::PathBuf::from(path);
    let began = Instant::now();
    let suite = Suite::load(&path).expect("loads");
    let load = began.elapsed();
    let statements: usize = suite.tests.iter().map(|t| t.statements.len()).sum();
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.yaml");
    let began = Instant::now();
    suite.save(&copy).expect("saves");
    let save = began.elapsed();
    eprintln!(
        "{} tests, {statements} statements: load {load:?}, save {save:?}",
        suite.tests.len()
    );
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&copy).unwrap());
}
