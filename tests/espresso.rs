//! End to end on Espresso (GraalVM's Java on Truffle from Maven Central, `.ci/run` installs
//! `espresso25`): sequences run inside the guest, not on the host; a guest that calls
//! `System.exit` is a crash and the pool goes on; a suite recorded on Temurin 25 replays on
//! Espresso through the CLI, every test run, the report naming the Espresso VM.
//!
//! Espresso needs 10–30 s to start on a loaded 2-core machine, and its interpreter runs cold
//! code slowly, so these tests give each call a generous timeout.

mod common;

use common::support;
use difftest::message::SeqRequest;
use difftest::replay::samples;
use difftest::sequence::{SeqResult, Statement};

fn call(class: &str, method: &str, params: &[&str], args: &[usize]) -> SeqRequest {
    let mut statements: Vec<Statement> = args
        .iter()
        .map(|_| Statement::literal("java.lang.String", "java.vm.name"))
        .collect();
    statements.push(Statement::call(class, method, params, None, args));
    SeqRequest {
        statements,
        observers: vec![],
    }
}

fn last_value(result: &SeqResult) -> String {
    match result {
        SeqResult::Done { steps, .. } => steps.last().expect("a step").render(),
        other => panic!("expected a finished sequence, got {other:?}"),
    }
}

#[test]
fn sequences_run_in_the_guest_and_an_exiting_guest_is_a_crash() {
    let provisioned = common::provision("espresso25");
    assert_eq!(provisioned.fingerprint.vm_name, "Espresso 64-Bit VM");
    let fixtures = common::compile_fixtures("worker");
    let pool = common::pool(
        "espresso25",
        &[fixtures.path().into()],
        common::config(1, 120_000),
    );
    let vm_name = call(
        "java.lang.System",
        "getProperty",
        &["java.lang.String"],
        &[0],
    );
    let misbehave = |m: &str| call("fixture.Misbehave", m, &[], &[]);
    let batch = [
        vm_name,
        misbehave("answer"),
        misbehave("exit"),
        misbehave("answer"),
    ];
    let results = pool.run(&batch, false).expect("run");
    assert_eq!(last_value(&results[0]), "\"Espresso 64-Bit VM\"");
    assert_eq!(last_value(&results[1]), "42");
    match &results[2] {
        SeqResult::Crash { exit, .. } => assert_eq!(exit, "exit code 7"),
        other => panic!("expected a crash, got {other:?}"),
    }
    assert_eq!(last_value(&results[3]), "42");
    assert!(
        pool.stats().workers_started >= 2,
        "a fresh worker after the exit"
    );
}

#[test]
fn a_temurin25_suite_replays_on_espresso_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let mut seqs = vec![SeqRequest {
        statements: samples::time_format_statements(),
        observers: vec![],
    }];
    seqs.extend(samples::generate(11, 120));
    let suite = support::record("temurin25", None, &seqs, 11);
    assert!(suite.tests.len() > 100, "most sequences are stable");
    support::write_suite(dir.path(), &suite);
    let out = support::difftest(
        dir.path(),
        &[
            "replay",
            "--impl",
            "espresso25",
            "--suite",
            "oracles/temurin25.yaml",
        ]
        .into_iter()
        .chain(["-j", "1", "--timeout", "120", "--no-minimize"])
        .collect::<Vec<_>>(),
    );
    let code = out.status.code();
    let text = format!("{}{}", support::stdout(&out), support::stderr(&out));
    assert!(matches!(code, Some(0) | Some(1)), "{code:?}: {text}");
    let report = support::report_json(dir.path(), "espresso25-vs-temurin25");
    assert_eq!(report["summary"]["tests"], suite.tests.len(), "{text}");
    let json = report.to_string();
    assert!(json.contains("Espresso 64-Bit VM"), "{json}");
    // Same class library: the date format, at least, must come out as on HotSpot.
    let passed = report["summary"]["passed"].as_u64().unwrap_or(0) as usize;
    assert!(passed * 10 >= suite.tests.len() * 9, "{text}");
}
