//! The replay commands' contract for bad input: one line on stderr naming the file, line or
//! flag, and exit code 2 — before any JVM starts; and exit code 3 when the target's JVM will
//! not start.

mod common;
use common::support;

use difftest::replay::samples::{double_test, time_format_test};
use difftest::suite::{FORMAT_VERSION, Header, Suite};
use std::path::Path;
use support::{assert_bad, difftest, difftest_env, stderr};

/// A small valid suite file (two hand-built tests) written with `Suite::save`.
fn valid_suite(dir: &Path, name: &str) -> String {
    let fingerprint = serde_yaml::from_str(
        "{java_version: 17.0.9, java_vendor: v, vm_name: vm, runtime_version: 17.0.9+9}",
    )
    .unwrap();
    let tests = vec![
        time_format_test(1),
        double_test(2, "2.0E23", "1.9999999999999998E23"),
    ];
    let suite = Suite {
        header: Header {
            format: FORMAT_VERSION,
            tool: "test".into(),
            reference: "temurin17".into(),
            fingerprint,
            seed: 1,
            classes: vec![],
            packages: vec![],
            options: Default::default(),
            counts: [("tests".to_string(), 2)].into_iter().collect(),
            partial: false,
        },
        tests,
        error_revealing: vec![],
        exceptions: Default::default(),
    };
    let path = dir.join(name);
    suite.save(&path).unwrap();
    path.display().to_string()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn replay_args<'a>(suite: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["replay", "--impl", "temurin21", "--suite", suite];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_missing_suite_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    assert_bad(dir.path(), &replay_args("nope.yaml", &[]), &["nope.yaml"]);
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
fn invalid_or_truncated_suites_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.yaml", "header: [unclosed\n  tests: {\n");
    assert_bad(dir.path(), &replay_args(&bad, &[]), &["bad.yaml"]);
    let whole = std::fs::read_to_string(valid_suite(dir.path(), "whole.yaml")).unwrap();
    let cut: String = whole
        .lines()
        .take_while(|l| !l.contains("id: 2"))
        .map(|l| format!("{l}\n"))
        .collect();
    let cut = write(dir.path(), "cut.yaml", &cut);
    assert_bad(
        dir.path(),
        &replay_args(&cut, &[]),
        &["cut.yaml", "truncated"],
    );
}

#[test]
fn a_newer_suite_format_asks_for_an_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(valid_suite(dir.path(), "s.yaml")).unwrap();
    let newer = text.replacen(&format!("format: {FORMAT_VERSION}"), "format: 99", 1);
    let newer = write(dir.path(), "newer.yaml", &newer);
    assert_bad(
        dir.path(),
        &replay_args(&newer, &[]),
        &["newer.yaml", "99", "upgrade"],
    );
}

#[test]
fn an_unknown_target_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let ok = valid_suite(dir.path(), "ok.yaml");
    let args = ["replay", "--impl", "temurin99", "--suite", &ok];
    assert_bad(dir.path(), &args, &["temurin99"]);
}

#[test]
fn an_invalid_shard_names_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let ok = valid_suite(dir.path(), "ok.yaml");
    for shard in ["3/2", "0/2", "x", "1/0"] {
        let out = difftest(dir.path(), &replay_args(&ok, &["--shard", shard]));
        assert_eq!(out.status.code(), Some(2), "{shard}");
        assert!(stderr(&out).contains("--shard"), "{}", stderr(&out));
    }
}

#[test]
fn a_broken_accepted_list_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let ok = valid_suite(dir.path(), "s.yaml");
    write(
        dir.path(),
        "s.accepted.yaml",
        "format: 1\naccepted: [{group: 1}]\n",
    );
    assert_bad(dir.path(), &replay_args(&ok, &[]), &["s.accepted.yaml"]);
}

#[test]
fn accept_refuses_in_ci_and_needs_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["accept", "g-123456", "--reason", "r"];
    let out = difftest_env(dir.path(), &args, &[("CI", "1")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("CI"), "{}", stderr(&out));
    assert_bad(dir.path(), &args, &["reports", "replay"]);
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
    let yaml = format!(
        "name: broken\ndescription: x\njdk:\n  path: {}\njvm_options: [\"-Xmx1m\"]\n",
        common::jdk17().display()
    );
    std::fs::write(targets.join("broken.yaml"), yaml).unwrap();
    let suite = valid_suite(dir.path(), "s.yaml");
    let t = targets.display().to_string();
    let args = [
        "--targets-dir",
        &t,
        "replay",
        "--impl",
        "broken",
        "--suite",
        &suite,
    ];
    let out = difftest(dir.path(), &args);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("broken"), "{}", stderr(&out));
}
