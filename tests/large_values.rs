//! Values too large to store whole (`record --max-value-bytes`): a fixture library whose
//! methods return strings of millions of characters, recorded on a real JVM. The record
//! keeps tests and a small suite; a replay against a release whose 10 MB string differs in
//! its last character reports it, with small reports and exit 1; the same release passes.

mod common;
use common::support;

use std::path::Path;
use std::time::{Duration, Instant};
use support::{assert_exit, difftest, stderr};

/// Records `fixture.Big` of release 1 (`huge1`) into `work/big.yaml.zst`.
fn record_big(work: &Path, targets: &Path) -> (std::process::Output, Duration) {
    let limits = ["--round-size", "10", "--output-limit", "3"];
    record_class(work, targets, "fixture.Big", "60", &limits)
}

/// Records `class` of release 1 (`huge1`) into `work/big.yaml.zst` with `extra` flags.
fn record_class(
    work: &Path,
    targets: &Path,
    class: &str,
    time_limit: &str,
    extra: &[&str],
) -> (std::process::Output, Duration) {
    let (targets, out) = (
        targets.display().to_string(),
        work.join("big.yaml.zst").display().to_string(),
    );
    let mut args = vec![
        "record",
        "--impl",
        "huge1",
        "--targets-dir",
        &targets,
        "--classes",
        class,
        "--time-limit",
        time_limit,
        "--quiet",
        "--jobs",
        "1",
        "-o",
        &out,
    ];
    args.extend_from_slice(extra);
    let began = Instant::now();
    let run = difftest(work, &args);
    (run, began.elapsed())
}

/// `suite stats` of `work/big.yaml.zst`.
fn stats(work: &Path) -> String {
    let suite = work.join("big.yaml.zst").display().to_string();
    support::stdout(&difftest(work, &["suite", "stats", &suite]))
}

fn replay_on(work: &Path, targets: &Path, target: &str) -> std::process::Output {
    let targets = targets.display().to_string();
    let args = [
        "replay",
        "--suite",
        "big.yaml.zst",
        "--impl",
        target,
        "--targets-dir",
        &targets,
        "--quiet",
        "--jobs",
        "1",
    ];
    difftest(work, &args)
}

/// Total size of the files under `dir`.
fn bytes_under(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() {
                bytes_under(&p)
            } else {
                p.metadata().unwrap().len()
            }
        })
        .sum()
}

#[test]
fn huge_values_are_recorded_compared_and_reported_by_length_and_digest() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "huge", 2, "huge");
    let (run, took) = record_big(work.path(), &targets);
    assert_exit(&run, 0);
    assert!(took < Duration::from_secs(60), "record took {took:?}");
    let suite = work.path().join("big.yaml.zst");
    let size = suite.metadata().unwrap().len();
    assert!(
        size < 100_000,
        "a suite of 3 tests of huge values is {size} bytes"
    );
    let stats = support::stdout(&difftest(
        work.path(),
        &["suite", "stats", &suite.display().to_string()],
    ));
    assert!(
        stats.contains("3 tests") || stats.contains("tests: 3"),
        "{stats}"
    );

    let same = replay_on(work.path(), &targets, "huge1");
    assert_exit(&same, 0);

    let changed = replay_on(work.path(), &targets, "huge2");
    assert_exit(&changed, 1);
    let reports = work.path().join("reports");
    let total = bytes_under(&reports);
    assert!(
        total < 2_000_000,
        "reports of one huge difference: {total} bytes"
    );
    let json = std::fs::read_to_string(reports.join("huge2-vs-huge1.json")).unwrap();
    let shown = json.matches("(10000000 chars, digest ").count();
    assert!(
        shown >= 2,
        "both sides by length and digest: {}",
        stderr(&changed)
    );
}

/// A scope whose only method returns a 10 MB string, at the default round size: a sequence
/// ends at the first repeat of the call (a hundred repeats of it outlast any timeout, and a
/// first round of such sequences once kept no test within the time limit), so the record
/// keeps its test and ends well before the limit.
#[test]
fn one_method_returning_a_huge_string_is_recorded_at_the_default_round_size() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "huge", 1, "huge");
    let (run, took) = record_class(work.path(), &targets, "fixture.Lone", "40", &[]);
    assert_exit(&run, 0);
    assert!(took < Duration::from_secs(40), "record took {took:?}");
    let stats = stats(work.path());
    assert!(stats.contains("tests: 1 regression"), "{stats}");
}

/// An exception message is capped like a value: a 10 MB message is stored as its prefix,
/// length and digest, so the suite stays small, and a release whose message differs only
/// in its last character shows a message-only difference (which the gate does not count)
/// with both messages by length and digest.
#[test]
fn huge_exception_messages_are_stored_capped_and_compared_by_digest() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "huge", 2, "huge");
    let limits = [
        "--round-size",
        "10",
        "--output-limit",
        "1",
        "--timeout",
        "10",
    ];
    let (run, _) = record_class(work.path(), &targets, "fixture.Loud", "60", &limits);
    assert_exit(&run, 0);
    let size = work.path().join("big.yaml.zst").metadata().unwrap().len();
    assert!(
        size < 100_000,
        "a suite of one huge message is {size} bytes"
    );
    assert_exit(&replay_on(work.path(), &targets, "huge1"), 0);
    let changed = replay_on(work.path(), &targets, "huge2");
    assert_exit(&changed, 0);
    let json = std::fs::read_to_string(work.path().join("reports/huge2-vs-huge1.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["summary"]["message_only"], 1, "{}", stderr(&changed));
    let shown = json.matches("(10000000 chars, digest ").count();
    assert!(shown >= 2, "both messages by length and digest: {json}");
}
