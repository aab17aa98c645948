//! A reproducer keeps the value a difference needs, not the calls that computed it.
//! `tests/fixtures/chained`'s `Gauge.level` changes only below -4, a number the literal pool
//! lacks, so every example computes it (`Calc.neg(10)`, `Calc.twice(…)`). Removing the
//! computation removes the argument with it, so delta debugging kept the chain; minimization
//! now tries such a call as a literal of the value the reference gave (`int v1 = -10;`) and
//! the chain goes.

mod common;
use common::support;

use support::{stderr, stdout};

#[test]
fn a_computed_argument_becomes_a_literal_in_the_reproducer() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "chained", 2, "gauge");
    let extra = ["--seed", "0", "--output-limit", "1000", "--reruns", "1"];
    let record = support::record_fixture(work.path(), &targets, "gauge1", "gauge.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));

    let replay = support::replay_fixture(
        work.path(),
        &targets,
        "gauge.yaml",
        "gauge2",
        &["--jobs", "1"],
    );
    assert_eq!(replay.status.code(), Some(1), "{}", stderr(&replay));
    let report = support::report_json(work.path(), "gauge2-vs-gauge1");
    let levels: Vec<&serde_json::Value> = (report["groups"].as_array().unwrap().iter())
        .filter(|g| g["status"] == "new" && g["callee"] == "fixture.Gauge.level(int)")
        .collect();
    assert_eq!(levels.len(), 1, "{}", stdout(&replay));
    let java: Vec<&str> = (levels[0]["minimized"]["java"].as_array())
        .expect("minimized")
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(java.len(), 2, "{java:#?}");
    assert!(java.iter().all(|l| !l.contains("Calc.")), "{java:#?}");

    // explain reruns the 2-statement reproducer and reads each side at its own site, not at
    // the 4-statement example's.
    let group = levels[0]["id"].as_str().unwrap();
    let args = ["explain", group, "--targets-dir", targets.to_str().unwrap()];
    let explained = support::difftest(work.path(), &args);
    let text = stdout(&explained);
    assert_eq!(
        explained.status.code(),
        Some(0),
        "{text}\n{}",
        stderr(&explained)
    );
    assert!(!text.contains("not reached"), "{text}");
    assert!(text.contains("(as recorded on the reference)"), "{text}");
    assert!(text.contains("(differs from the recording)"), "{text}");
}
