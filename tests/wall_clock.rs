//! Record's reruns move the JVM's wall clock (`JvmSpec::clock_shift_ms`) and run it faster
//! (`JvmSpec::clock_rate`), on real Temurin 17: what Java reads moves by the shift, a
//! millisecond of real time reads as a second, and a library's answers that depend on the
//! date, the hour or an object's age (`tests/fixtures/dated`) are dropped from the suite,
//! while the ones that do not stay checked. A wait until a wall-clock deadline still waits
//! in a moved worker (Temurin 17, 21 and 25), so an idle pool thread does not spin.

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

/// A `dated.Stopwatch` made, paused for a millisecond of real time, then asked its age by
/// `elapsedMillis()` and `age()`, in a worker of `target` whose clock runs `rate` times
/// faster than real time.
fn stopwatch_ages(target: &str, rate: u32) -> (i64, i64) {
    let classes = common::compile_fixtures("dated");
    let mut jvm = common::provision(target).jvm;
    jvm.clock_shift_ms = -400 * DAY_MS;
    jvm.clock_rate = rate;
    jvm.classpath.push(classes.path().into());
    let pool =
        difftest::pool::Pool::start(target, jvm, common::config(1, 5000)).expect("pool starts");
    let on_watch = |method| Statement::call("dated.Stopwatch", method, &[], Some(0), &[]);
    let run = SeqRequest {
        statements: vec![
            Statement::new("dated.Stopwatch", &[], &[]),
            on_watch("pause"),
            on_watch("elapsedMillis"),
            on_watch("age"),
        ],
        observers: vec![],
    };
    let results = pool.run(&[run], false).expect("run");
    let SeqResult::Done { steps, .. } = &results[0] else {
        panic!("{target}: {results:?}")
    };
    let number = |i: usize| -> i64 {
        let text = steps[i].render();
        (text.trim_start_matches("(long) ").parse())
            .unwrap_or_else(|_| panic!("{target}: a number: {text}"))
    };
    (number(2), number(3))
}

#[test]
fn a_faster_clock_makes_a_millisecond_of_real_time_read_as_a_second() {
    for target in ["temurin17", "temurin21", "temurin25"] {
        let (millis, age) = stopwatch_ages(target, 1000);
        assert!(
            millis >= 1000 && age >= 1000,
            "{target}: {millis} and {age} ms"
        );
        let (millis, age) = stopwatch_ages(target, 1);
        assert!(
            millis < 500 && age < 500,
            "{target}: real time: {millis} and {age} ms"
        );
    }
}

/// The values of `dated.Waits.METHOD()`, one call each, in a worker of `target` whose clock
/// is moved by `shift_ms` and runs `rate` times faster than real time.
fn waits(target: &str, shift_ms: i64, rate: u32, methods: &[&str]) -> Vec<i64> {
    let classes = common::compile_fixtures("dated");
    let mut jvm = common::provision(target).jvm;
    jvm.clock_shift_ms = shift_ms;
    jvm.clock_rate = rate;
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
        for rate in [1, 1000] {
            let shift = -800 * DAY_MS - 14_000;
            let got = waits(
                target,
                shift,
                rate,
                &["parksUntilLater", "idleCommonPoolCpuMillis"],
            );
            let (parks, idle_cpu) = (got[0], got[1]);
            assert!(
                parks < 10,
                "{target} at {rate}×: {parks} parks for one wait"
            );
            // An idle worker spinning on a deadline already past uses the whole half second.
            assert!(
                idle_cpu < 150,
                "{target} at {rate}×: idle pool threads used {idle_cpu} ms of CPU"
            );
        }
    }
}

/// The callees a record of `classes` of the `dated` fixture (5 s, one rerun) checks.
fn checked_callees(classes: &str) -> Vec<String> {
    let compiled = common::compile_fixtures("dated");
    let targets = tempfile::tempdir().unwrap();
    let yaml = common::jdk17_target("dated", "date-dependent fixture", compiled.path());
    std::fs::write(targets.path().join("dated.yaml"), yaml).unwrap();
    let suite = targets.path().join("dated.yaml.zst");
    let out = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .arg("--targets-dir")
        .arg(targets.path())
        .args(["record", "--impl", "dated", "--classes", classes])
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
    checked
}

/// Records `class` of the `dated` fixture and asserts that `kept` stays checked while no
/// method named in `dropped` is, for it depends on `what`.
fn assert_reruns_drop(class: &str, kept: &str, dropped: &[&str], what: &str) {
    let checked = checked_callees(class);
    let kept = format!("{class}.{kept}(");
    assert!(checked.iter().any(|c| c.starts_with(&kept)), "{checked:?}");
    let named = |c: &&String| {
        dropped
            .iter()
            .any(|m| c.starts_with(&format!("{class}.{m}(")))
    };
    let wrong: Vec<&String> = checked.iter().filter(named).collect();
    assert!(
        wrong.is_empty(),
        "checked though they depend on {what}: {wrong:?}"
    );
}

#[test]
fn a_library_answer_that_depends_on_the_date_is_dropped_by_the_reruns() {
    assert_reruns_drop(
        "dated.Calendar",
        "twice",
        &["year", "hourLabel"],
        "the date",
    );
}

#[test]
fn an_age_at_millisecond_grain_is_dropped_by_the_reruns() {
    let ages = ["elapsedMillis", "age"];
    assert_reruns_drop("dated.Stopwatch", "hands", &ages, "time passing");
}
