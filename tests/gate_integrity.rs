//! A gate that cannot be fooled by its suite file: a suite replaced or written over while a
//! replay reads it, a suite without tests, a header whose counts disagree with the file, a
//! device or a sparse file given as the suite. Suites are recorded on a real JDK
//! (temurin17) from hand-built sequences.

mod common;
use common::support;

use difftest::sequence::{Observed, Statement};
use difftest::suite::Suite;
use difftest::worker::protocol::SeqRequest;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{assert_bad, assert_exit, difftest, stderr, stdout};

const REF: &str = "temurin17";

/// `Thread.sleep(ms)`: a test that passes, slowly.
fn sleep(ms: u64) -> SeqRequest {
    SeqRequest {
        statements: vec![
            Statement::literal("long", &ms.to_string()),
            Statement::call("java.lang.Thread", "sleep", &["long"], None, &[0]),
        ],
        observers: vec![],
    }
}

/// `Math.addExact(a, b)`.
fn add(a: i32, b: i32) -> SeqRequest {
    SeqRequest {
        statements: vec![
            Statement::literal("int", &a.to_string()),
            Statement::literal("int", &b.to_string()),
            Statement::call("java.lang.Math", "addExact", &["int", "int"], None, &[0, 1]),
        ],
        observers: vec![],
    }
}

/// Three slow passing tests, then `Math.addExact(1, 2)` recorded as it is (`good`) and with
/// the expected value changed to 4 (`bad`: replayed on its own reference, exit code 1).
fn slow_suites() -> (Suite, Suite) {
    let seqs = [sleep(700), sleep(700), sleep(700), add(1, 2)];
    let good = support::record(REF, None, &seqs, 0);
    assert_eq!(good.tests.len(), 4, "all stable");
    let mut bad = good.clone();
    let last = bad.tests.last_mut().unwrap();
    let Some(Some(Observed::Value { text, .. })) = last.expected_steps.get_mut(2) else {
        panic!("addExact's value is checked: {last:?}");
    };
    assert_eq!(text, "3");
    *text = "4".into();
    (good, bad)
}

fn replay_args(suite: &Path) -> Vec<String> {
    let suite = suite.display().to_string();
    [
        "replay",
        "--impl",
        REF,
        "--suite",
        &suite,
        "--jobs",
        "1",
        "--no-minimize",
    ]
    .map(String::from)
    .to_vec()
}

/// Starts a replay of `suite`, waits until it is replaying (its progress line), does
/// `change` a moment later, and waits for it.
fn replay_while(dir: &Path, suite: &Path, change: impl FnOnce()) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .current_dir(dir)
        .env_remove("CI")
        .args(replay_args(suite))
        .arg("--targets-dir")
        .arg(support::repo().join("targets"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("difftest runs");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("replaying on") {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
    }
    std::thread::sleep(Duration::from_millis(300));
    change();
    err.read_to_string(&mut seen).unwrap();
    let mut out = child.wait_with_output().unwrap();
    out.stderr = seen.into_bytes();
    out
}

#[test]
fn a_suite_replaced_during_a_replay_never_passes() {
    let dir = tempfile::tempdir().unwrap();
    let (good, bad) = slow_suites();
    let suite = dir.path().join("suite.yaml.zst");
    bad.save(&suite).unwrap();
    let args = replay_args(&suite);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_exit(&difftest(dir.path(), &args), 1);

    // Another valid suite moved over the path, as `record -o` does: the replay reads what
    // it checked, and finds the difference.
    let other = dir.path().join("other.yaml.zst");
    good.save(&other).unwrap();
    let out = replay_while(dir.path(), &suite, || {
        std::fs::rename(&other, &suite).unwrap()
    });
    assert_exit(&out, 1);
    assert!(stdout(&out).contains("FAIL"), "{}", stdout(&out));

    // The same file written over in place: the replay cannot read what it checked, and
    // says so with exit code 3, never a verdict.
    bad.save(&suite).unwrap();
    let bytes = std::fs::read(&other_copy(dir.path(), &good)).unwrap();
    let out = replay_while(dir.path(), &suite, || {
        std::fs::write(&suite, &bytes).unwrap()
    });
    assert_exit(&out, 3);
    let err = stderr(&out);
    assert!(
        err.contains("suite.yaml.zst") && err.contains("changed"),
        "{err}"
    );
}

/// `good` written to a file of its own, for its bytes.
fn other_copy(dir: &Path, good: &Suite) -> PathBuf {
    let path = dir.join("copy.yaml.zst");
    good.save(&path).unwrap();
    path
}
