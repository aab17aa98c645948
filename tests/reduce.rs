//! Suite reduction end to end on Temurin 17: the default record keeps fewer tests than
//! `--keep-all`, says so in its header, and still checks every (call, value) the full
//! suite checks.

mod common;

use common::support::{difftest, stderr};
use difftest::suite::Suite;
use std::collections::BTreeSet;
use std::path::Path;

/// Classes whose values are the same in every run (see `tests/replay_recorded.rs`), so both
/// records drop the same unstable values and their checks can be compared.
const CLASSES: &str = "java.lang.Integer,java.lang.Long,java.lang.Character,java.util.BitSet,\
java.lang.Boolean,java.lang.String";

fn record(dir: &Path, name: &str, extra: &[&str]) -> Suite {
    record_with(dir, name, CLASSES, "1", extra).0
}

/// Records `classes` with `reruns` reruns: the suite and what the record printed.
fn record_with(
    dir: &Path,
    name: &str,
    classes: &str,
    reruns: &str,
    extra: &[&str],
) -> (Suite, String) {
    let output = dir.join(name);
    let output = output.to_str().unwrap();
    let mut args = vec!["record", "--impl", "temurin17", "--classes", classes];
    args.extend([
        "--output-limit",
        "1500",
        "--time-limit",
        "60",
        "--seed",
        "4",
    ]);
    args.extend(["--reruns", reruns, "--no-progress", "-j", "2", "-o", output]);
    args.extend(extra);
    let out = difftest(dir, &args);
    assert_eq!(out.status.code(), Some(0), "record: {}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let suite = Suite::load(Path::new(output)).expect("the suite loads");
    (suite, stdout)
}

/// Every checked (call with its literals, expected value) and (observer, value) of a suite.
fn checks(suite: &Suite) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for t in &suite.tests {
        for (s, e) in t.statements.iter().zip(&t.expected_steps) {
            if let Some(e) = e {
                out.insert(format!("{} {e:?}", s.callee()));
            }
        }
        for (o, e) in t.observers.iter().zip(&t.expected_observations) {
            out.insert(format!("{}.{} {e:?}", o.class, o.method));
        }
    }
    out
}

#[test]
fn the_default_record_keeps_fewer_tests_that_check_every_value_keep_all_checks() {
    let dir = tempfile::tempdir().unwrap();
    let reduced = record(dir.path(), "reduced.yaml.zst", &[]);
    let all = record(dir.path(), "all.yaml", &["--keep-all"]);
    let counts = &reduced.header.counts;
    assert_eq!(counts.get("reduced-from"), Some(&1500), "{counts:?}");
    assert!(!all.header.counts.contains_key("reduced-from"));
    assert!(
        reduced.tests.len() < all.tests.len(),
        "{} of {}",
        reduced.tests.len(),
        all.tests.len()
    );
    let (kept, full) = (checks(&reduced), checks(&all));
    let lost: Vec<&String> = full.difference(&kept).take(5).collect();
    assert!(lost.is_empty(), "checks lost by reduction: {lost:?}");
    assert_eq!(kept, full);
}

/// `tests run by rerun 1, 2, …: N in T s, M in U s (…)`: the tests each rerun ran.
fn tests_per_rerun(stdout: &str) -> Vec<usize> {
    let prefix = "tests run by rerun 1, 2, …: ";
    let line = stdout.lines().find(|l| l.starts_with(prefix)).unwrap();
    let counts = line[prefix.len()..].split(" (").next().unwrap();
    let count = |ran: &str| ran.split(" in ").next().unwrap().parse().unwrap();
    counts.split(", ").map(count).collect()
}

#[test]
fn a_later_rerun_runs_only_the_tests_left_after_reducing_what_the_first_found_unstable() {
    let dir = tempfile::tempdir().unwrap();
    // Random numbers feed many tests: once rerun 1 drops them, most tests have nothing left
    // that another test does not check.
    let classes = "java.util.Random,java.lang.Integer";
    let (suite, stdout) = record_with(dir.path(), "random.yaml.zst", classes, "2", &[]);
    let ran = tests_per_rerun(&stdout);
    assert_eq!(ran.len(), 2, "{stdout}");
    assert!(
        ran[1] < ran[0],
        "rerun 2 ran {} of {}: {stdout}",
        ran[1],
        ran[0]
    );
    assert!(suite.tests.len() < ran[0], "{stdout}");
    assert_eq!(suite.header.counts.get("reruns-done"), Some(&2));
    // What the smaller second rerun left in still holds on the recording JDK.
    let output = dir.path().join("random.yaml.zst");
    let args = [
        "replay",
        "--impl",
        "temurin17",
        "--suite",
        output.to_str().unwrap(),
    ];
    let replay = difftest(dir.path(), &args);
    assert_eq!(replay.status.code(), Some(0), "replay: {}", stderr(&replay));
}
