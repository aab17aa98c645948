//! A reader that stops early (`difftest replay … | head -3`) closes stdout. `println!`
//! panicked then (exit 101 and a backtrace after the work was done); now the rest of the
//! output is dropped and the command returns its own exit code, so a failing gate still fails
//! under `set -o pipefail`.

mod common;
use common::support;

use std::process::{Command, Output};
use support::stderr;

/// `difftest ARGS` in `cwd` with stdout a pipe whose reading end is already closed: every
/// write to it fails with `EPIPE`.
fn with_closed_stdout(cwd: &std::path::Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_difftest"))
        .current_dir(cwd)
        .args(args)
        .env_remove("CI")
        .stdout(writer)
        .output()
        .expect("difftest runs")
}

#[test]
fn a_closed_stdout_neither_panics_nor_hides_the_exit_code() {
    let work = tempfile::tempdir().unwrap();
    let listed = with_closed_stdout(work.path(), &["targets", "list"]);
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
    assert!(!stderr(&listed).contains("panicked"), "{}", stderr(&listed));

    let targets = support::fixture_targets(work.path(), "chained", 2, "gauge");
    let extra = ["--seed", "0", "--output-limit", "1000", "--reruns", "1"];
    let record = support::record_fixture(work.path(), &targets, "gauge1", "gauge.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    let targets_dir = targets.display().to_string();
    let replay = with_closed_stdout(
        work.path(),
        &[
            "replay",
            "--suite",
            "gauge.yaml",
            "--impl",
            "gauge2",
            "--targets-dir",
            &targets_dir,
            "--report-dir",
            "reports",
            "--no-minimize",
            "--quiet",
        ],
    );
    assert_eq!(replay.status.code(), Some(1), "{}", stderr(&replay));
    assert!(!stderr(&replay).contains("panicked"), "{}", stderr(&replay));
    assert!(work.path().join("reports/gauge2-vs-gauge1.json").exists());
}
