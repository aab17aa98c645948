//! A library object that names itself by its identity hash (`tests/fixtures/selfnamed`):
//! `Registry` answers `"Registry:" + System.identityHashCode(this)` as snakeyaml's `Yaml`
//! does, `Pool` its hash in hexadecimal without Object's `@`. Their text differs in every
//! JVM, so it read as random content and every call on them was dropped as unstable: the
//! record checked nothing they compute, and a release that changed `lookup` and `capacity`
//! passed the gate. The worker masks an identity hash of one of the test's values in returned
//! text, so those calls are checked and the replay on release 2 reports both. A `Ticket`,
//! whose text is random content, still checks nothing it computes. The digest of an array
//! (`Registry.pair()`) masks its elements' own identity hashes too, so a call that reads such
//! an array (`Registry.count`) stays checked.

mod common;
use common::support;

use difftest::suite::Suite;
use support::{stderr, stdout};

#[test]
fn calls_on_an_object_named_by_its_identity_hash_are_checked_and_their_change_reported() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "selfnamed", 2, "named");
    let extra = ["--seed", "0", "--output-limit", "600", "--reruns", "2"];
    let record = support::record_fixture(work.path(), &targets, "named1", "named.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));

    let suite = Suite::load(&work.path().join("named.yaml")).expect("the suite loads");
    let checked = |callee: &str| {
        suite
            .tests
            .iter()
            .flat_map(|t| t.statements.iter().zip(&t.expected_steps))
            .filter(|(s, e)| s.callee().starts_with(callee) && e.is_some())
            .count()
    };
    assert!(
        checked("fixture.Registry.lookup(") > 0,
        "{}",
        stdout(&record)
    );
    assert!(checked("fixture.Pool.capacity(") > 0, "{}", stdout(&record));
    assert_eq!(
        checked("fixture.Ticket.stamp("),
        0,
        "random content checked"
    );
    assert!(
        checked_from("fixture.Registry.pair(", "fixture.Registry.count(", &suite) > 0,
        "no count of an array of registries is checked: {}",
        stdout(&record)
    );

    let targets_dir = targets.display().to_string();
    let replay = support::difftest(
        work.path(),
        &[
            "replay",
            "--suite",
            "named.yaml",
            "--impl",
            "named2",
            "--targets-dir",
            &targets_dir,
            "--report-dir",
            "reports",
            "--no-minimize",
        ],
    );
    assert_eq!(replay.status.code(), Some(1), "{}", stderr(&replay));
    let report = support::report_json(work.path(), "named2-vs-named1");
    let callees: Vec<&str> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["status"] == "new")
        .map(|g| g["callee"].as_str().unwrap())
        .collect();
    assert!(
        callees.contains(&"fixture.Registry.lookup(java.lang.String)")
            && callees.contains(&"fixture.Pool.capacity(int)"),
        "{callees:?}"
    );
    assert!(
        callees.iter().all(|c| !c.starts_with("fixture.Ticket")),
        "{callees:?}"
    );
}

/// Checked calls to `callee` that read, directly or through other statements, what a call to
/// `source` returned.
fn checked_from(source: &str, callee: &str, suite: &Suite) -> usize {
    let mut n = 0;
    for t in &suite.tests {
        let mut derived = vec![false; t.statements.len()];
        for (i, s) in t.statements.iter().enumerate() {
            derived[i] = s.callee().starts_with(source) || s.inputs().iter().any(|&j| derived[j]);
            let checked = t.expected_steps.get(i).is_some_and(Option::is_some);
            if derived[i] && checked && s.callee().starts_with(callee) {
                n += 1;
            }
        }
    }
    n
}
