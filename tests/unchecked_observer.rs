//! An observer that varied on the reference runs on, unchecked, on real Temurin 17: a
//! buffer's relative `getInt()` moves its position, so the `toString()` recorded after it
//! holds only if replay calls it too. The same suite without the call differs on the JDK
//! it was recorded on, which is what removing a varied observer used to do.

mod common;
use common::support;

use difftest::message::SeqRequest;
use difftest::sequence::{ObserverCall, Statement};
use support::{difftest, stderr, stdout};

fn buffer_observed() -> SeqRequest {
    let observer = |method: &str| ObserverCall {
        stmt: 1,
        class: "java.nio.ByteBuffer".into(),
        method: method.into(),
    };
    SeqRequest {
        statements: vec![
            Statement::literal("int", "16"),
            Statement::call("java.nio.ByteBuffer", "allocate", &["int"], None, &[0]),
        ],
        observers: vec![observer("getInt"), observer("toString")],
    }
}

#[test]
fn an_unchecked_observer_still_runs_before_the_checked_one_it_changes() {
    let mut suite = support::record("temurin17", None, &[buffer_observed()], 0);
    assert_eq!(suite.tests.len(), 1, "stable on temurin17");
    let recorded = format!("{:?}", suite.tests[0].expected_observations[1]);
    assert!(recorded.contains("pos=4"), "{recorded}");
    suite.tests[0].expected_observations[0] = None;

    let dir = tempfile::tempdir().unwrap();
    let path = support::write_suite(dir.path(), &suite);
    let suite_arg = path.to_str().unwrap();
    let replay = [
        "replay",
        "--impl",
        "temurin17",
        "--suite",
        suite_arg,
        "--no-minimize",
        "-j",
        "1",
    ];
    let out = difftest(dir.path(), &replay);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );

    let t = &mut suite.tests[0];
    t.observers.remove(0);
    t.expected_observations.remove(0);
    support::write_suite(dir.path(), &suite);
    let out = difftest(dir.path(), &replay);
    assert_eq!(
        out.status.code(),
        Some(1),
        "without the getInt() the position differs: {}",
        stdout(&out)
    );
}
