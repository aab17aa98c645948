//! Replay on a fixture library in three versions (compiled here with javac): v2 injects one
//! change of each kind, and the replay must find exactly those, with the expected kinds and
//! minimized sequences; hangs and crashes are reported while every other test still runs;
//! `accept` makes the gate pass and a new difference (v3) makes it fail again.

mod common;
use common::support;

use difftest::message::SeqRequest;
use difftest::sequence::{ObserverCall, Statement};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use support::{difftest, difftest_env, report_json, stderr, stdout};

/// Compiles `tests/fixtures/replay/vN` for N in 1..=3 and writes targets lib1..lib3.
fn setup(work: &Path) -> PathBuf {
    support::fixture_targets(work, "replay", 3, "lib")
}

/// Independent statements that do not matter (and behave the same on every version).
fn noise(s: &mut Vec<Statement>, n: usize, salt: usize) {
    for k in 0..n {
        let v = (salt * 7 + k * 3) % 50 + 10;
        s.push(Statement::literal("int", &v.to_string()));
        s.push(Statement::literal("int", &(v + 1).to_string()));
        let (a, b) = (s.len() - 2, s.len() - 1);
        s.push(Statement::call(
            "fixture.Calc",
            "add",
            &["int", "int"],
            None,
            &[a, b],
        ));
    }
}

fn seq(statements: Vec<Statement>, observers: Vec<ObserverCall>) -> SeqRequest {
    SeqRequest {
        statements,
        observers,
    }
}

/// `noise; Statement::literal(args…); Class.method(args)`.
fn static_call(
    class: &str,
    method: &str,
    args: &[(&str, &str)],
    noisy: usize,
    salt: usize,
) -> SeqRequest {
    let mut s = Vec::new();
    noise(&mut s, noisy, salt);
    let mut idx = Vec::new();
    for (ty, v) in args {
        s.push(Statement::literal(ty, v));
        idx.push(s.len() - 1);
        noise(&mut s, noisy / 2, salt + idx.len());
    }
    let params: Vec<&str> = args.iter().map(|(t, _)| *t).collect();
    s.push(Statement::call(class, method, &params, None, &idx));
    seq(s, vec![])
}

/// A counter fed `values` (with noise between), then `total()` as a call or an observer.
fn counter(values: &[i32], noisy: usize, as_observer: bool) -> SeqRequest {
    let mut s = vec![Statement::new("fixture.Counter", &[], &[])];
    for (k, v) in values.iter().enumerate() {
        noise(&mut s, noisy, k);
        s.push(Statement::literal("int", &v.to_string()));
        let l = s.len() - 1;
        s.push(Statement::call(
            "fixture.Counter",
            "add",
            &["int"],
            Some(0),
            &[l],
        ));
    }
    if as_observer {
        return seq(s, vec![ObserverCall::new(0, "fixture.Counter", "total")]);
    }
    s.push(Statement::call(
        "fixture.Counter",
        "total",
        &[],
        Some(0),
        &[],
    ));
    seq(s, vec![])
}

fn sequences() -> Vec<SeqRequest> {
    let c = "fixture.Calc";
    let mut seqs = vec![
        counter(&[1, 7, 2], 2, false),
        counter(&[7], 0, false),
        counter(&[3, 7], 3, true),
        counter(&[1, 2, 3], 2, false), // passes
        static_call(
            "fixture.Text",
            "suffix",
            &[("java.lang.String", "12:00")],
            2,
            1,
        ),
        static_call(
            "fixture.Text",
            "suffix",
            &[("java.lang.String", "9:30")],
            0,
            2,
        ),
        static_call(c, "div", &[("int", "5"), ("int", "0")], 2, 3),
        static_call(c, "div", &[("int", "6"), ("int", "3")], 1, 4), // passes
        static_call(c, "check", &[("int", "-1")], 3, 5),
        static_call(c, "check", &[("int", "-9")], 0, 6),
        static_call(c, "check", &[("int", "4")], 1, 7), // passes
        static_call(c, "name", &[("java.lang.String", "x")], 1, 8), // passes
        seq(
            vec![
                Statement::Null {
                    ty: "java.lang.String".into(),
                },
                Statement::call(c, "name", &["java.lang.String"], None, &[0]),
            ],
            vec![],
        ),
        static_call(c, "square", &[("int", "3")], 2, 9),
        static_call("fixture.Legacy", "version", &[], 2, 10),
        static_call(c, "slow", &[("int", "3")], 1, 11),
        static_call(c, "slow", &[("int", "2")], 0, 12), // passes
        static_call(c, "halt", &[("int", "4")], 1, 13),
        static_call(c, "halt", &[("int", "5")], 0, 14), // passes
        static_call(c, "add", &[("int", "2"), ("int", "2")], 1, 15), // passes on v2, not on v3
    ];
    seqs.extend((0..20).map(|k| {
        static_call(
            c,
            "add",
            &[("int", "1"), ("int", &(k + 2).to_string())],
            k % 3,
            k,
        )
    }));
    seqs
}

fn groups(report: &Value) -> BTreeMap<(String, String), Value> {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                (
                    g["callee"].as_str().unwrap().to_string(),
                    g["kind"].as_str().unwrap().to_string(),
                ),
                g.clone(),
            )
        })
        .collect()
}

fn key(callee: &str, kind: &str) -> (String, String) {
    (callee.to_string(), kind.to_string())
}

/// Replay on v2: exactly the injected changes, with the expected kinds and minimized sizes.
fn check_v2(work: &Path, out: &std::process::Output) -> BTreeMap<(String, String), Value> {
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}\n{}",
        stdout(out),
        stderr(out)
    );
    let report = report_json(work, "lib2-vs-lib1");
    let found = groups(&report);
    let expected: BTreeMap<(String, String), usize> = [
        (key("fixture.Counter.total()", "value"), 4),
        (key("fixture.Text.suffix(java.lang.String)", "value"), 2),
        (key("fixture.Calc.div(int,int)", "exception_class"), 3),
        (key("fixture.Calc.check(int)", "normal_vs_exception"), 2),
        (
            key("fixture.Calc.name(java.lang.String)", "exception_message"),
            2,
        ),
        (key("fixture.Calc.square(int)", "missing"), 2),
        (key("fixture.Legacy.version()", "missing"), 1),
        (key("fixture.Calc.slow(int)", "timeout"), 2),
        (key("fixture.Calc.halt(int)", "crash"), 2),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "{}",
        stdout(out)
    );
    for (k, len) in &expected {
        let m = &found[k]["minimized"];
        assert_eq!(m["statements"].as_u64(), Some(*len as u64), "{k:?}: {m}");
    }
    check_details(work, out, &report, &found);
    found
}

/// The stateful group keeps `add(7)`; message-only is shown; every other test passed.
fn check_details(
    work: &Path,
    out: &std::process::Output,
    report: &Value,
    found: &BTreeMap<(String, String), Value>,
) {
    let counter = &found[&key("fixture.Counter.total()", "value")];
    assert_eq!(counter["tests"], 3);
    let java: Vec<&str> = counter["minimized"]["java"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(java.iter().any(|l| l.contains("= 7;")), "{java:?}");
    let message = &found[&key("fixture.Calc.name(java.lang.String)", "exception_message")];
    assert_eq!(message["status"], "shown");
    let summary = &report["summary"];
    assert_eq!(summary["tests"], 40);
    assert_eq!(summary["unstable"], 0);
    assert_eq!(summary["differing"], 12, "{summary}");
    assert_eq!(summary["message_only"], 1, "{summary}");
    assert_eq!(
        summary["passed"], 28,
        "every other test still replayed: {summary}"
    );
    let table = stdout(out);
    assert!(
        table.contains("\\u202F"),
        "the invisible change is visible: {table}"
    );
    let md = std::fs::read_to_string(work.join("reports/lib2-vs-lib1.md")).unwrap();
    assert!(
        md.contains("fixture.Counter v0 = new fixture.Counter();"),
        "{md}"
    );
}

/// Accepting in CI is refused; locally every group is accepted for every target.
fn accept_all(work: &Path, found: &BTreeMap<(String, String), Value>) {
    let ids: Vec<String> = found
        .values()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    let refused = difftest_env(
        work,
        &["accept", &ids[0], "--reason", "x"],
        &[("CI", "true")],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("CI"), "{}", stderr(&refused));
    for id in &ids {
        let out = difftest(
            work,
            &[
                "accept",
                id,
                "--reason",
                "known change in v2",
                "--by",
                "test",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let accepted = std::fs::read_to_string(work.join("oracles/lib1.accepted.yaml")).unwrap();
    assert!(
        accepted.contains("known change in v2") && accepted.contains("target: '*'"),
        "{accepted}"
    );
}

#[test]
fn the_injected_changes_are_found_minimized_accepted_and_a_new_one_fails_again() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    support::record_stable(work.path(), "lib1", &targets, &sequences());
    let tdir = targets.to_str().unwrap();
    let replay = |target: &str| {
        difftest(
            work.path(),
            &[
                "--targets-dir",
                tdir,
                "replay",
                "--impl",
                target,
                "--timeout",
                "1",
                "-j",
                "2",
            ],
        )
    };

    let found = check_v2(work.path(), &replay("lib2"));
    accept_all(work.path(), &found);
    let out = replay("lib2");
    assert_eq!(
        out.status.code(),
        Some(0),
        "accepted: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
    let out = replay("lib3");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let report = report_json(work.path(), "lib3-vs-lib1");
    let new: Vec<&Value> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["status"] == "new")
        .collect();
    assert_eq!(new.len(), 1, "{report}");
    assert_eq!(new[0]["callee"], "fixture.Calc.add(int,int)");
    assert_eq!(new[0]["minimized"]["statements"], 3);
    if std::env::var_os("DIFFTEST_KEEP_WORK").is_some() {
        eprintln!("kept {}", work.keep().display());
    }
}
