//! Views (`scope::as_views`): a library that hands out its own object behind a `java.util.Set`
//! (the fixture `tests/fixtures/views`, in two releases whose view's `remove` differs) is
//! exercised through that `Set`'s instance methods, so the replay finds the change; no
//! static method of the view (`Set.of`) is called.

mod common;
use common::support;

use support::{difftest, report_json, stderr};

#[test]
fn a_change_behind_a_java_util_set_the_library_returns_is_found() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "views", 2, "views");
    let targets = targets.display().to_string();
    let common = ["--targets-dir", &targets, "--quiet", "--jobs", "1"];
    let mut record = vec!["record", "--impl", "views1", "--seed", "1"];
    record.extend(["--time-limit", "8", "-o", "views.yaml"]);
    record.extend(common);
    let out = difftest(work.path(), &record);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let suite = std::fs::read_to_string(work.path().join("views.yaml")).unwrap();
    let through_view = |l: &&str| l.contains("((java.util.Set) v") && l.contains(").remove(");
    assert!(
        suite.lines().any(|l| through_view(&l)),
        "no call through the view"
    );
    assert!(
        !suite.contains("java.util.Set.of("),
        "a static method of a view"
    );

    let mut replay = vec!["replay", "--suite", "views.yaml", "--impl", "views2"];
    replay.extend(common);
    let out = difftest(work.path(), &replay);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = report_json(work.path(), "views2-vs-views1");
    let groups = report["groups"].as_array().expect("groups");
    assert!(
        groups
            .iter()
            .any(|g| g["status"] == "new"
                && g["callee"].as_str().is_some_and(|c| c.contains("remove("))),
        "{groups:#?}"
    );
}
