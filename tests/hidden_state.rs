//! State no observer shows (a fixture library in two releases, `tests/fixtures/closing`):
//! release 2's `Tape.read()` throws once the tape is closed, release 1's reads on, and a
//! closed tape looks like a fresh one to every observer. Only when an object passed to a
//! call that returns nothing joins the pool again (the default; `--no-hidden-state` turns it
//! off) does a record read a closed tape, and so the replay on release 2 finds the change.
//! A hostile variant (`tests/fixtures/leak`): one object for the whole JVM that release 2
//! keeps closed once any test closed it, so later tests of a worker see state an earlier one
//! left; the change is still one new group, shown by a test that closes the object itself.

mod common;
use common::support;

use std::path::Path;
use support::{difftest, report_json, stderr};

/// Records release 1 of `class` (target `{prefix}1`, with `extra` flags), replays on release
/// 2; the exit code of the replay.
fn record_and_replay(
    work: &Path,
    targets: &str,
    (prefix, class): (&str, &str),
    extra: &[&str],
) -> Option<i32> {
    let (reference, target) = (format!("{prefix}1"), format!("{prefix}2"));
    let mut args = vec![
        "record",
        "--impl",
        &reference,
        "--targets-dir",
        targets,
        "--classes",
        class,
        "--seed",
        "5",
        "--round-size",
        "20",
        "--output-limit",
        "300",
        "--reruns",
        "1",
        "--quiet",
        "--jobs",
        "1",
        "-o",
        "tape.yaml.zst",
    ];
    args.extend_from_slice(extra);
    let record = difftest(work, &args);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    let args = [
        "replay",
        "--suite",
        "tape.yaml.zst",
        "--impl",
        &target,
        "--targets-dir",
        targets,
        "--quiet",
        "--jobs",
        "1",
    ];
    let replay = difftest(work, &args);
    assert_ne!(replay.status.code(), Some(2), "{}", stderr(&replay));
    replay.status.code()
}

#[test]
fn a_closed_object_is_extended_by_default_and_its_change_found_but_not_with_no_hidden_state() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "closing", 2, "tape");
    let targets = targets.display().to_string();

    let tape = ("tape", "fixture.Tape");
    let without = record_and_replay(work.path(), &targets, tape, &["--no-hidden-state"]);
    assert_eq!(
        without,
        Some(0),
        "a closed tape was read with --no-hidden-state"
    );

    let with = record_and_replay(work.path(), &targets, tape, &[]);
    assert_eq!(with, Some(1), "a closed tape was never read by default");
    let report = report_json(work.path(), "tape2-vs-tape1");
    let groups = report["groups"].as_array().expect("groups");
    let read = groups.iter().find(|g| {
        g["callee"].as_str() == Some("fixture.Tape.read()")
            && g["tgt_value"]
                .as_str()
                .is_some_and(|v| v.contains("IllegalStateException"))
    });
    assert!(read.is_some(), "{groups:#?}");
}

#[test]
fn a_shared_object_a_release_keeps_closed_is_one_reproduced_change_not_an_artefact() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "leak", 2, "reel");
    let targets = targets.display().to_string();
    let code = record_and_replay(work.path(), &targets, ("reel", "fixture.Reel"), &[]);
    assert_eq!(
        code,
        Some(1),
        "the closed reel was never read, or the change was hidden"
    );
    let report = report_json(work.path(), "reel2-vs-reel1");
    let groups = report["groups"].as_array().expect("groups");
    let closes = |g: &serde_json::Value| {
        g["example_java"].as_array().is_some_and(|lines| {
            lines
                .iter()
                .any(|l| l.as_str().unwrap_or("").contains(".close()"))
        })
    };
    let read = groups
        .iter()
        .find(|g| g["callee"].as_str() == Some("fixture.Reel.read()"))
        .unwrap_or_else(|| panic!("{groups:#?}"));
    assert_eq!(read["status"], "new", "{read:#?}");
    assert_eq!(read["reproduced"], true, "{read:#?}");
    assert!(
        closes(read),
        "the example must close the reel itself: {read:#?}"
    );
}
