//! Objects whose class keeps `Object.toString()` (a fixture library in two releases,
//! `tests/fixtures/plain`): a record answers their `toString()` observer as `Class@0`
//! without calling the class's `hashCode()`, and replay does the same, so a release that
//! drops its own `toString()` shows as a difference, never as a value that varies.

mod common;
use common::support;

use std::path::Path;
use support::{difftest, report_json, stderr};

fn replay_on(work: &Path, targets: &str, target: &str) -> std::process::Output {
    let args = [
        "replay",
        "--suite",
        "shape.yaml.zst",
        "--impl",
        target,
        "--targets-dir",
        targets,
        "--quiet",
        "--jobs",
        "1",
    ];
    difftest(work, &args)
}

#[test]
fn a_release_that_drops_its_own_to_string_differs_and_is_not_unstable() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "plain", 2, "plain");
    let targets = targets.display().to_string();
    let record = difftest(
        work.path(),
        &[
            "record",
            "--impl",
            "plain1",
            "--targets-dir",
            &targets,
            "--classes",
            "fixture.Shape",
            "--seed",
            "3",
            "--round-size",
            "10",
            "--output-limit",
            "20",
            "--quiet",
            "--jobs",
            "1",
            "-o",
            "shape.yaml.zst",
        ],
    );
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));

    let same = replay_on(work.path(), &targets, "plain1");
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));

    let dropped = replay_on(work.path(), &targets, "plain2");
    assert_eq!(dropped.status.code(), Some(1), "{}", stderr(&dropped));
    let report = report_json(work.path(), "plain2-vs-plain1");
    assert_eq!(report["summary"]["unstable"], 0, "{}", report["summary"]);
    let groups = report["groups"].as_array().expect("groups");
    let dropped_text = groups
        .iter()
        .find(|g| {
            g["callee"]
                .as_str()
                .is_some_and(|c| c.ends_with(".toString()"))
                && g["tgt_value"].as_str() == Some("\"fixture.Shape@0\"")
        })
        .unwrap_or_else(|| panic!("{groups:#?}"));

    // explain reruns the example as the replay ran it: the target's value is the report's.
    let cause = dropped_text["cause"]
        .as_str()
        .expect("a cause id")
        .to_string();
    let explained = difftest(work.path(), &["explain", &cause, "--targets-dir", &targets]);
    let text = support::stdout(&explained);
    assert_eq!(
        explained.status.code(),
        Some(0),
        "{text}\n{}",
        stderr(&explained)
    );
    assert!(text.contains("  plain2: \"fixture.Shape@0\""), "{text}");
}
