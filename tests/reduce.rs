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
    let output = dir.join(name);
    let output = output.to_str().unwrap();
    let mut args = vec!["record", "--impl", "temurin17", "--classes", CLASSES];
    args.extend([
        "--output-limit",
        "1500",
        "--time-limit",
        "60",
        "--seed",
        "4",
    ]);
    args.extend(["--reruns", "1", "--no-progress", "-j", "2", "-o", output]);
    args.extend(extra);
    let out = difftest(dir, &args);
    assert_eq!(out.status.code(), Some(0), "record: {}", stderr(&out));
    Suite::load(Path::new(output)).expect("the suite loads")
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
