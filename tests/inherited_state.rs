//! A row whose shortest test differs only because of state an earlier test left in the same
//! JVM (`tests/fixtures/leak`: release 2's one `Reel` for the whole JVM stays closed once any
//! test closed it). Replay runs the tests in order in one worker, so the test that only reads
//! the reel differs after the one that closes it, in the first pass and in the confirmation
//! alike, and it is the row's example. Run alone side by side it does not differ; the row
//! must not then be called a tool artefact and kept out of the gate (a false pass): the
//! group's other tests are tried in turn, and the one that closes the reel itself becomes
//! the example.

mod common;
use common::support;

use difftest::message::SeqRequest;
use difftest::sequence::Statement;
use support::{difftest, report_json, stderr, stdout};

const REEL: &str = "fixture.Reel";

/// `Reel.INSTANCE`, then `calls` on it (each nullary), then `read()`.
fn reel_test(calls: &[&str]) -> SeqRequest {
    let mut s = vec![Statement::field(REEL, "INSTANCE", None)];
    for call in calls.iter().chain(&["read"]) {
        s.push(Statement::call(REEL, call, &[], Some(0), &[]));
    }
    SeqRequest {
        statements: s,
        observers: vec![],
    }
}

#[test]
fn a_row_whose_example_only_inherited_state_is_reproduced_by_a_test_that_makes_it() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "leak", 2, "reel");
    let tests = [
        reel_test(&["close"]),
        reel_test(&[]),
        reel_test(&["getLength"]),
        reel_test(&["getLength", "getLength"]),
    ];
    support::record_stable(work.path(), "reel1", &targets, &tests);
    let tdir = targets.to_str().unwrap();
    let args = [
        "--targets-dir",
        tdir,
        "replay",
        "--impl",
        "reel2",
        "-j",
        "1",
    ];
    let out = difftest(work.path(), &args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the gate passed on a change no test was blamed for\n{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    let report = report_json(work.path(), "reel2-vs-reel1");
    let groups = report["groups"].as_array().expect("groups");
    let read = groups
        .iter()
        .find(|g| g["callee"].as_str() == Some("fixture.Reel.read()"))
        .unwrap_or_else(|| panic!("{groups:#?}"));
    assert_eq!(
        read["tests"], 4,
        "every read after the close differs: {read:#?}"
    );
    assert_eq!(read["status"], "new", "{read:#?}");
    assert_eq!(read["reproduced"], true, "{read:#?}");
    let java = read["example_java"].as_array().expect("example_java");
    assert!(
        java.iter()
            .any(|l| l.as_str().unwrap_or("").contains(".close()")),
        "the example closes the reel itself: {java:#?}"
    );
}
