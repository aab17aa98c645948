//! Record's reruns move the JVM's wall clock (`JvmSpec::clock_shift_ms`), on real
//! Temurin 17: what Java reads moves by the shift, and a library's answers that depend on
//! the date or the hour (`tests/fixtures/dated`) are dropped from the suite, while the
//! ones that do not stay checked. A wait until a wall-clock deadline still waits in a
//! shifted worker (Temurin 17, 21 and 25), so an idle pool thread does not spin.

mod common;

use difftest::message::SeqRequest;
use difftest::sequence::{SeqResult, Statement};
use difftest::suite::Suite;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

const DAY_MS: i64 = 86_400_000;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// `System.currentTimeMillis()` in a worker whose clock is moved by `shift_ms`.
fn java_millis(shift_ms: i64) -> i64 {
    let mut jvm = common::provision("temurin17").jvm;
    jvm.clock_shift_ms = shift_ms;
    let pool = difftest::pool::Pool::start("temurin17", jvm, common::config(1, 5000))
        .expect("pool starts");
    let read = SeqRequest {
        statements: vec![Statement::call(
            "java.lang.System",
            "currentTimeMillis",
            &[],
            None,
            &[],
        )],
        observers: vec![],
    };
    let results = pool.run(&[read], false).expect("run");
    let SeqResult::Done { steps, .. } = &results[0] else {
        panic!("{results:?}")
    };
    let text = steps[0].render();
    let digits: String = text.chars().filter(|c| c.is_ascii_digit()).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("a number: {text}"))
}

#[test]
fn a_shifted_worker_reads_the_wall_clock_moved_by_the_shift() {
    let shift = -400 * DAY_MS - 7_000;
    let (before, moved, after) = (now_ms(), java_millis(shift), now_ms());
    assert!(
        (before + shift..=after + shift).contains(&moved),
        "{moved} not in {}..={}",
        before + shift,
        after + shift
    );
    let (before, plain, after) = (now_ms(), java_millis(0), now_ms());
    assert!((before..=after).contains(&plain), "unshifted: {plain}");
}

/// The values of `dated.Waits.METHOD()`, one call each, in a worker of `target` whose clock
/// is moved by `shift_ms`.
fn waits(target: &str, shift_ms: i64, methods: &[&str]) -> Vec<i64> {
    let classes = common::compile_fixtures("dated");
    let mut jvm = common::provision(target).jvm;
    jvm.clock_shift_ms = shift_ms;
    jvm.classpath.push(classes.path().into());
    let pool =
        difftest::pool::Pool::start(target, jvm, common::config(1, 5000)).expect("pool starts");
    let calls: Vec<SeqRequest> = (methods.iter())
        .map(|m| SeqRequest {
            statements: vec![Statement::call("dated.Waits", m, &[], None, &[])],
            observers: vec![],
        })
        .collect();
    let results = pool.run(&calls, false).expect("run");
    let number = |r: &SeqResult| match r {
        SeqResult::Done { steps, .. } => steps[0].render().parse::<i64>().ok(),
        _ => None,
    };
    (results.iter())
        .map(|r| number(r).unwrap_or_else(|| panic!("{target}: a number: {r:?}")))
        .collect()
}

#[test]
fn a_wait_until_a_wall_clock_deadline_waits_in_a_shifted_worker() {
    for target in ["temurin17", "temurin21", "temurin25"] {
        let shift = -800 * DAY_MS - 14_000;
        let got = waits(
            target,
            shift,
            &["parksUntilLater", "idleCommonPoolCpuMillis"],
        );
        let (parks, idle_cpu) = (got[0], got[1]);
        assert!(parks < 10, "{target}: {parks} parks for one wait");
        // An idle worker spinning on a deadline already past uses the whole half second.
        assert!(
            idle_cpu < 150,
            "{target}: idle pool threads used {idle_cpu} ms of CPU"
        );
    }
}

#[test]
fn a_library_answer_that_depends_on_the_date_is_dropped_by_the_reruns() {
    let classes = common::compile_fixtures("dated");
    let targets = tempfile::tempdir().unwrap();
    let yaml = common::jdk17_target("dated", "date-dependent fixture", classes.path());
    std::fs::write(targets.path().join("dated.yaml"), yaml).unwrap();
    let suite = targets.path().join("dated.yaml.zst");
    let out = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .arg("--targets-dir")
        .arg(targets.path())
        .args(["record", "--impl", "dated", "--classes", "dated.Calendar"])
        .args(["--time-limit", "5", "--reruns", "1", "--no-progress"])
        .arg("--output")
        .arg(&suite)
        .output()
        .expect("difftest runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("wall clock"), "{err}");
    let suite = Suite::load(&suite).unwrap();
    let mut checked = Vec::new();
    for t in &suite.tests {
        for (s, e) in t.statements.iter().zip(&t.expected_steps) {
            if e.is_some() {
                checked.push(s.callee());
            }
        }
    }
    assert!(
        checked
            .iter()
            .any(|c| c.starts_with("dated.Calendar.twice")),
        "{checked:?}"
    );
    let dated: Vec<&String> = (checked.iter())
        .filter(|c| c.contains(".year") || c.contains(".hourLabel"))
        .collect();
    assert!(
        dated.is_empty(),
        "checked though they depend on the date: {dated:?}"
    );
}
