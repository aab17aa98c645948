//! Replay on real JDKs: a suite recorded on Temurin 17 replayed on itself finds nothing
//! (several seeds); on Temurin 21 it finds the known 17→21 changes, exits 1 and writes valid
//! Markdown, JSON and JUnit XML with both JDKs' data versions; shards merge into the same report; several targets make a
//! matrix that names the odd one out.

mod common;
use common::support;

use difftest::message::SeqRequest;
use difftest::replay::samples;
use serde_json::Value;
use std::path::Path;
use support::{difftest, report_json, stderr, stdout};

/// The hand-built 17→21 examples first (lowest ids), then `count` seeded sequences.
fn sequences(seed: u64, count: usize) -> Vec<SeqRequest> {
    let time = SeqRequest {
        statements: samples::time_format_statements(),
        observers: vec![],
    };
    let double = SeqRequest {
        statements: samples::double_test(0, "2.0E23", "").statements,
        observers: vec![],
    };
    let mut seqs = vec![time, double];
    seqs.extend(samples::generate(seed, count));
    seqs
}

fn recorded(dir: &Path, seed: u64, count: usize) {
    let suite = support::record("temurin17", None, &sequences(seed, count), seed);
    assert!(
        suite.tests.len() > count * 9 / 10,
        "most sequences are stable"
    );
    support::write_suite(dir, &suite);
}

fn group<'a>(report: &'a Value, callee: &str) -> Option<&'a Value> {
    report["groups"]
        .as_array()?
        .iter()
        .find(|g| g["callee"] == callee)
}

#[test]
fn replay_on_the_reference_itself_finds_no_difference_for_several_seeds() {
    for seed in [1, 2, 3] {
        let dir = tempfile::tempdir().unwrap();
        recorded(dir.path(), seed, 300);
        let out = difftest(dir.path(), &["replay", "--impl", "temurin17", "-j", "2"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "seed {seed}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        let report = report_json(dir.path(), "temurin17-vs-temurin17");
        assert_eq!(report["summary"]["differing"], 0, "seed {seed}");
        assert_eq!(report["summary"]["groups"], 0, "seed {seed}");
        assert_eq!(report["gate"], "pass");
    }
}

#[test]
fn a_temurin17_suite_on_temurin21_finds_the_known_changes_and_writes_valid_reports() {
    let dir = tempfile::tempdir().unwrap();
    recorded(dir.path(), 7, 400);
    let out = difftest(dir.path(), &["replay", "--impl", "temurin21", "-j", "2"]);
    support::assert_exit(&out, 1);
    let table = stdout(&out);
    assert!(table.contains("'\\u202F' added or removed"), "{table}");
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with('│')).collect();
    assert!(rows.len() > 2, "{table}");
    for line in table
        .lines()
        .filter(|l| l.starts_with(['┌', '│', '╞', '└']))
    {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
    }
    let report = report_json(dir.path(), "temurin21-vs-temurin17");
    explain_lists_every_group_of_a_cause(dir.path(), &report);
    assert_eq!(report["schema_version"], 2);
    assert_eq!(report["checksum"].as_str().map(str::len), Some(16));
    let format =
        group(&report, "java.text.DateFormat.format(java.util.Date)").expect("DateFormat group");
    assert_eq!(format["kind"], "value");
    assert_eq!(
        format["example"], 1,
        "the hand-built example is the shortest with the lowest id"
    );
    assert_eq!(format["ref_value"], "\"12:00 AM\"");
    assert_eq!(format["tgt_value"], "\"12:00\\u202FAM\"");
    // The agent renders values with String.valueOf: 2e23 differs already as a literal.
    let double = group(&report, "java.lang.String.valueOf(double)")
        .unwrap_or_else(|| panic!("String.valueOf(double) group: {table}"));
    assert_eq!(double["ref_value"], "1.9999999999999998E23");
    assert_eq!(double["tgt_value"], "2.0E23");
    let emoji = group(&report, "java.lang.Character.isEmoji(int)").expect("isEmoji is new in 21");
    assert_eq!(emoji["kind"], "missing");
    // The data versions each JDK reports: Unicode 13.0 in JDK 17, 15.0 in JDK 21.
    assert_eq!(report["reference"]["data_versions"]["unicode"], "13.0");
    assert_eq!(report["target"]["data_versions"]["unicode"], "15.0");
    assert!(report["target"]["data_versions"]["tzdata"].is_string());
    let md = std::fs::read_to_string(dir.path().join("reports/temurin21-vs-temurin17.md")).unwrap();
    assert!(md.contains("unicode 13.0 → 15.0"), "{md}");
    assert!(md.contains("12:00[- -]{+\\u202F+}AM"), "{md}");
    assert!(
        md.contains("java.text.DateFormat.getTimeInstance(v0, (java.util.Locale) v1);"),
        "{md}"
    );
    let xml = std::fs::read_to_string(dir.path().join("reports/temurin21-vs-temurin17.junit.xml"))
        .unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed JUnit XML");
    let cases = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    assert_eq!(cases as u64, report["summary"]["tests"].as_u64().unwrap());
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(
        failures as u64,
        report["summary"]["differing"].as_u64().unwrap()
    );
}

/// `explain c-…` of a cause of several groups names each of them.
fn explain_lists_every_group_of_a_cause(dir: &Path, report: &Value) {
    let causes = report["causes"].as_array().expect("causes");
    let cause = causes
        .iter()
        .find(|c| c["callees"].as_array().is_some_and(|m| m.len() > 1))
        .unwrap_or_else(|| panic!("no cause of several groups: {causes:?}"));
    let id = cause["id"].as_str().unwrap();
    let out = difftest(dir, &["explain", id, "--no-rerun"]);
    support::assert_exit(&out, 0);
    let text = stdout(&out);
    for member in cause["callees"].as_array().unwrap() {
        let group = member["group"].as_str().unwrap();
        assert!(
            text.contains(group),
            "{group} missing from explain {id}:\n{text}"
        );
    }
}

#[test]
fn shards_merge_into_the_report_of_the_whole_suite() {
    let dir = tempfile::tempdir().unwrap();
    recorded(dir.path(), 11, 200);
    let args = |extra: &[&'static str]| {
        let mut a = vec!["replay", "--impl", "temurin21", "-j", "1", "--no-minimize"];
        a.extend_from_slice(extra);
        a
    };
    let out = difftest(dir.path(), &args(&["--report-dir", "whole"]));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for (k, out_dir) in [("1/2", "part1"), ("2/2", "part2")] {
        let out = difftest(dir.path(), &args(&["--shard", k, "--report-dir", out_dir]));
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    }
    let parts = [
        "part1/temurin21-vs-temurin17.json",
        "part2/temurin21-vs-temurin17.json",
    ];
    let out = difftest(
        dir.path(),
        &[
            "report",
            "--merge",
            parts[0],
            parts[1],
            "--report-dir",
            "merged",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let read = |d: &str| -> Value {
        let text = std::fs::read_to_string(dir.path().join(d).join("temurin21-vs-temurin17.json"))
            .unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let (whole, merged) = (read("whole"), read("merged"));
    for key in [
        "tests",
        "passed",
        "differing",
        "groups",
        "message_only",
        "unstable",
    ] {
        assert_eq!(whole["summary"][key], merged["summary"][key], "{key}");
    }
    assert_eq!(whole["tests"], merged["tests"]);
    assert_eq!(merged["shards"], serde_json::json!(["1/2", "2/2"]));
}

#[test]
fn several_targets_make_one_matrix_that_names_the_odd_one_out() {
    let dir = tempfile::tempdir().unwrap();
    recorded(dir.path(), 5, 150);
    let out = difftest(
        dir.path(),
        &[
            "replay",
            "--impl",
            "temurin21,temurin25",
            "-j",
            "2",
            "--no-minimize",
            "--wide",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.contains("odd one out"), "{table}");
    let line = table
        .lines()
        .find(|l| l.contains("DateFormat.format"))
        .expect("DateFormat row");
    assert!(line.contains("temurin17"), "17 is the odd one out: {line}");
    for stem in ["temurin21-vs-temurin17", "temurin25-vs-temurin17"] {
        assert!(
            dir.path()
                .join("reports")
                .join(format!("{stem}.json"))
                .exists()
        );
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    recorded(dir.path(), 13, 300);
    let mut seen = Vec::new();
    for jobs in ["1", "2"] {
        let report_dir = format!("j{jobs}");
        let args = [
            "replay",
            "--impl",
            "temurin21",
            "-j",
            jobs,
            "--report-dir",
            &report_dir,
        ];
        let out = difftest(dir.path(), &args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let path = dir
            .path()
            .join(&report_dir)
            .join("temurin21-vs-temurin17.json");
        let report: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let groups: Vec<(Value, Value, Value)> = report["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["id"].clone(),
                    g["test_ids"].clone(),
                    g["minimized"]["java"].clone(),
                )
            })
            .collect();
        seen.push((report["tests"].clone(), groups));
    }
    assert_eq!(seen[0], seen[1]);
}
