//! The replay commands' contract for bad input: one line on stderr naming the file, line or
//! flag, and exit code 2 — before any JVM starts.

#[path = "replay_support.rs"]
mod support;

use std::path::Path;
use support::{difftest, difftest_env, stderr};

fn assert_bad(dir: &Path, args: &[&str], needles: &[&str]) {
    let out = difftest(dir, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err} lacks {n}");
    }
}

const HEADER: &str = "header:\n  format: 1\n  tool: t\n  reference: temurin17\n  fingerprint: {java_version: '17', java_vendor: v, vm_name: vm, runtime_version: '17'}\n  seed: 1\n  classes: []\n  packages: []\n  options: {}\n  counts: {}\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn a_missing_suite_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    assert_bad(
        dir.path(),
        &["replay", "--impl", "temurin21", "--suite", "nope.yaml"],
        &["nope.yaml"],
    );
}

#[test]
fn no_suite_and_no_oracles_folder_names_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    assert_bad(
        dir.path(),
        &["replay", "--impl", "temurin21"],
        &["--suite", "oracles"],
    );
}

#[test]
fn invalid_or_truncated_yaml_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.yaml", "header: [unclosed\n  tests: {\n");
    assert_bad(
        dir.path(),
        &["replay", "--impl", "temurin21", "--suite", &bad],
        &["bad.yaml", "line"],
    );
    let cut = format!(
        "{HEADER}tests:\n  - id: 1\n    statements:\n      - op: literal\n        ty: int\n"
    );
    let cut = write(dir.path(), "cut.yaml", &cut);
    assert_bad(
        dir.path(),
        &["replay", "--impl", "temurin21", "--suite", &cut],
        &["cut.yaml"],
    );
}

#[test]
fn a_newer_suite_format_asks_for_an_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let text = HEADER.replace("format: 1", "format: 99")
        + "tests: []\nerror_revealing: []\nfuture_field: 1\n";
    let newer = write(dir.path(), "newer.yaml", &text);
    assert_bad(
        dir.path(),
        &["replay", "--impl", "temurin21", "--suite", &newer],
        &["newer.yaml", "99", "upgrade"],
    );
}

#[test]
fn an_unknown_target_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let ok = write(
        dir.path(),
        "ok.yaml",
        &format!("{HEADER}tests: []\nerror_revealing: []\n"),
    );
    assert_bad(
        dir.path(),
        &["replay", "--impl", "temurin99", "--suite", &ok],
        &["temurin99"],
    );
}

#[test]
fn an_invalid_shard_names_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let ok = write(
        dir.path(),
        "ok.yaml",
        &format!("{HEADER}tests: []\nerror_revealing: []\n"),
    );
    for shard in ["3/2", "0/2", "x", "1/0"] {
        let out = difftest(
            dir.path(),
            &[
                "replay",
                "--impl",
                "temurin21",
                "--suite",
                &ok,
                "--shard",
                shard,
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{shard}");
        assert!(stderr(&out).contains("--shard"), "{}", stderr(&out));
    }
}

#[test]
fn a_broken_accepted_list_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let ok = write(
        dir.path(),
        "s.yaml",
        &format!("{HEADER}tests: []\nerror_revealing: []\n"),
    );
    write(
        dir.path(),
        "s.accepted.yaml",
        "format: 1\naccepted: [{group: 1}]\n",
    );
    assert_bad(
        dir.path(),
        &["replay", "--impl", "temurin21", "--suite", &ok],
        &["s.accepted.yaml"],
    );
}

#[test]
fn accept_refuses_in_ci_and_needs_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = difftest_env(
        dir.path(),
        &["accept", "g-123456", "--reason", "r"],
        &[("CI", "1")],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("CI"), "{}", stderr(&out));
    assert_bad(
        dir.path(),
        &["accept", "g-123456", "--reason", "r"],
        &["reports", "replay"],
    );
}

#[test]
fn merging_garbage_or_nothing_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let junk = write(dir.path(), "junk.json", "{\"not\": \"a report\"}");
    assert_bad(dir.path(), &["report", "--merge", &junk], &["junk.json"]);
    assert_bad(
        dir.path(),
        &["report", "--merge", "missing.json"],
        &["missing.json"],
    );
}

#[test]
fn a_target_whose_jvm_will_not_start_is_an_infrastructure_failure() {
    let dir = tempfile::tempdir().unwrap();
    let targets = dir.path().join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    let yaml = "name: broken\ndescription: x\njdk:\n  path: /usr/lib/jvm/java-17-openjdk-amd64\njvm_options: [\"-Xmx1m\"]\n";
    std::fs::write(targets.join("broken.yaml"), yaml).unwrap();
    let test = "tests:\n- id: 1\n  statements: [{op: literal, ty: int, value: '1'}]\n  observers: []\n  expected_steps: [null]\n  expected_observations: []\nerror_revealing: []\n";
    let suite = write(dir.path(), "s.yaml", &format!("{HEADER}{test}"));
    let t = targets.display().to_string();
    let out = difftest(
        dir.path(),
        &[
            "--targets-dir",
            &t,
            "replay",
            "--impl",
            "broken",
            "--suite",
            &suite,
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("broken"), "{}", stderr(&out));
}
