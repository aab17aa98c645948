//! A gate that cannot be fooled by its suite file: a suite replaced or written over while a
//! replay reads it, a suite without tests, a header whose counts disagree with the file, a
//! device or a sparse file given as the suite or as its accepted list. Suites are recorded on a real JDK
//! (temurin17) from hand-built sequences.

mod common;
use common::support;

use difftest::message::SeqRequest;
use difftest::sequence::{Observed, Statement};
use difftest::suite::Suite;
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
    let bytes = std::fs::read(other_copy(dir.path(), &good)).unwrap();
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

/// `Math.addExact` on a few pairs, recorded as they are: a suite that passes, quickly.
fn fast_suite() -> Suite {
    let seqs = [add(1, 2), add(2, 3), add(3, 4)];
    let suite = support::record(REF, None, &seqs, 0);
    assert_eq!(suite.tests.len(), 3, "all stable");
    suite
}

fn replay_of(suite: &Path) -> Vec<String> {
    let mut args = replay_args(suite);
    args.retain(|a| a != "--jobs" && a != "1");
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_suite_without_tests_is_refused_never_passed() {
    let dir = tempfile::tempdir().unwrap();
    let p = support::provision(REF, None);
    let empty = support::suite(REF, &p, vec![], 0);
    let path = dir.path().join("empty.yaml");
    empty.save(&path).unwrap();
    assert_bad(
        dir.path(),
        &strs(&replay_of(&path)),
        &["empty.yaml", "the suite holds no test"],
    );
}

#[test]
fn a_header_whose_counts_disagree_with_the_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut suite = fast_suite();
    suite.header.counts.insert("tests".into(), 2);
    let path = dir.path().join("counts.yaml.zst");
    suite.save(&path).unwrap(); // sealed again: the end line holds
    let needles = [
        "counts.yaml.zst",
        "the header says 2 tests, the file holds 3",
    ];
    assert_bad(dir.path(), &strs(&replay_of(&path)), &needles);
    let file = path.display().to_string();
    assert_bad(dir.path(), &["suite", "stats", &file], &needles);
}

#[test]
fn a_suite_missing_only_its_final_newline_is_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml");
    fast_suite().save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.strip_suffix('\n').unwrap()).unwrap();
    let out = difftest(dir.path(), &strs(&replay_of(&path)));
    assert_exit(&out, 0);
    // Cut anywhere else, it is still truncated.
    std::fs::write(&path, &text[..text.len() - 2]).unwrap();
    assert_bad(dir.path(), &strs(&replay_of(&path)), &["s.yaml:"]);
}

#[test]
fn a_byte_flipped_in_a_compressed_suite_is_a_corrupt_file_not_a_yaml_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml.zst");
    // Enough tests for several zstd blocks: the first holds the header, and a flip there
    // garbles it long before zstd's checksum at the end of the frame is reached.
    let mut suite = fast_suite();
    let one = suite.tests[0].clone();
    suite.tests = (1..=3000)
        .map(|id| difftest::suite::Test { id, ..one.clone() })
        .collect();
    suite.header.counts.insert("tests".into(), 3000);
    suite.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let bad = dir.path().join("flip.yaml.zst");
    let file = bad.display().to_string();
    let mut refused = 0;
    for at in (6..bytes.len().min(300)).step_by(7) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x04;
        std::fs::write(&bad, &flipped).unwrap();
        let out = difftest(dir.path(), &["suite", "stats", &file]);
        if out.status.code() == Some(0) {
            continue; // a bit zstd does not read
        }
        refused += 1;
        let err = stderr(&out);
        assert_exit(&out, 2);
        assert!(
            err.contains("flip.yaml.zst:") && err.contains("compressed file is cut or corrupt"),
            "byte {at}: {err}"
        );
    }
    assert!(refused > 5, "{refused} flips refused");
}

/// Runs `difftest ARGS` with at most 1 GiB of address space and 60 s, returning its
/// output and how long it took.
fn bounded(dir: &Path, args: &[&str]) -> (std::process::Output, Duration) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.current_dir(dir)
        .env_remove("CI")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let began = Instant::now();
    let mut child = cmd.spawn().expect("difftest runs");
    while child.try_wait().unwrap().is_none() && began.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    (out, began.elapsed())
}

#[test]
fn devices_and_sparse_files_are_refused_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = dir.path().join("sparse.yaml");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let sparse = sparse.display().to_string();
    for (file, needle) in [
        ("/dev/zero", "not a regular file"),
        (&*sparse, "longer than"),
    ] {
        for args in [
            vec!["replay", "--impl", REF, "--suite", file],
            vec!["suite", "stats", file],
        ] {
            let (out, took) = bounded(dir.path(), &args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(file) && err.contains(needle),
                "{args:?}: {err}"
            );
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(took < Duration::from_secs(10), "{args:?}: {took:?}");
        }
    }
}

/// An accepted list that is a 1 GiB sparse file or a named pipe is refused at once, in
/// bounded time and memory, naming the list (it was read whole, or waited on forever).
#[test]
fn sparse_or_pipe_accepted_lists_are_refused_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("fast.yaml.zst");
    fast_suite().save(&suite).unwrap();
    let list = dir.path().join("fast.accepted.yaml");
    std::fs::File::create(&list)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let args = replay_of(&suite);
    for needle in ["more than the 64 MiB", "not a regular file"] {
        let (out, took) = bounded(dir.path(), &strs(&args));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("fast.accepted.yaml") && err.contains(needle),
            "{err}"
        );
        assert!(took < Duration::from_secs(10), "{took:?}");
        std::fs::remove_file(&list).unwrap();
        let fifo = std::ffi::CString::new(list.display().to_string()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    }
}

#[test]
fn a_record_that_keeps_no_test_is_exit_2_and_writes_no_suite() {
    let dir = tempfile::tempdir().unwrap();
    let classes = common::compile_fixtures("gate");
    let targets = dir.path().join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    let target = common::jdk17_target("clock", "one value that varies", classes.path());
    std::fs::write(targets.join("clock.yaml"), target).unwrap();
    let out = dir.path().join("clock.yaml.zst");
    let (targets, out_arg) = (targets.display().to_string(), out.display().to_string());
    let args = [
        "record",
        "--impl",
        "clock",
        "--targets-dir",
        &targets,
        "--classes",
        "gate.Clock",
        "--time-limit",
        "8",
        "--quiet",
        "--jobs",
        "1",
        "-o",
        &out_arg,
    ];
    // Provisioning a new target may say so first: the error is the last line.
    let run = difftest(dir.path(), &args);
    assert_exit(&run, 2);
    let err = stderr(&run);
    let last = err.trim().lines().last().unwrap_or_default();
    assert!(last.contains("no test recorded for gate.Clock"), "{err}");
    assert!(!out.exists(), "no suite written");
}
