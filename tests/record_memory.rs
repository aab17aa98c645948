//! Record keeps its tests on disk as it goes (issue 36): a scratch file in the output's
//! folder that no folder names (so Ctrl-C, a kill or a second record cannot leave or share
//! one), read back whole or not at all.

mod common;

use common::support::repo;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn record(work: &Path, output: &str, extra: &[&str]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.current_dir(work)
        .args([
            "record",
            "--impl",
            "temurin17",
            "--no-progress",
            "--reruns",
            "1",
        ])
        .args([
            "--classes",
            "java.util.ArrayList,java.util.HashMap,java.lang.StringBuilder",
        ])
        .arg("--targets-dir")
        .arg(repo().join("targets"))
        .args(["-o", output])
        .args(extra)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure only calls signal, which is async-signal-safe.
    unsafe { cmd.pre_exec(common::support::default_sigint) };
    cmd.spawn().expect("difftest runs")
}

/// The open file of process `pid` in folder `dir` that no folder names any more, once it
/// holds some bytes.
fn unnamed_file_in(pid: u32, dir: &Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    fds.flatten().map(|e| e.path()).find(|fd| {
        let Ok(target) = std::fs::read_link(fd) else {
            return false;
        };
        let text = target.to_string_lossy();
        target.parent() == Some(dir.as_path())
            && text.ends_with(" (deleted)")
            && std::fs::metadata(fd).is_ok_and(|m| m.len() > 0)
    })
}

fn wait(mut child: Child, limit: Duration) -> std::process::Output {
    let began = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if began.elapsed() > limit {
            child.kill().ok();
            panic!("record did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn stream_a_scratch_file_cut_short_during_the_record_stops_it_with_exit_3_and_no_suite() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut child = record(work.path(), "out/suite.yaml", &["--time-limit", "20"]);
    let began = Instant::now();
    let scratch = loop {
        if let Some(fd) = unnamed_file_in(child.id(), &out) {
            break fd;
        }
        let ended = child.try_wait().unwrap().is_some();
        assert!(
            !ended && began.elapsed() < Duration::from_secs(240),
            "record kept no tests in a scratch file in its output's folder"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&scratch)
        .unwrap();
    file.set_len(7).unwrap();
    drop(file);
    let done = wait(child, Duration::from_secs(600));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("kept tests' scratch file in") && stderr.contains("no suite is written"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().filter(|l| l.contains("scratch")).count(), 1);
    assert!(
        !out.join("suite.yaml").exists(),
        "no suite from damaged tests"
    );
    let left: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
    assert!(
        left.is_empty(),
        "nothing left in the output folder: {left:?}"
    );
}

/// Waits until process `pid` holds a scratch file with tests in `dir`.
fn wait_for_scratch(child: &mut Child, dir: &Path) {
    let began = Instant::now();
    while unnamed_file_in(child.id(), dir).is_none() {
        let ended = child.try_wait().unwrap().is_some();
        assert!(
            !ended && began.elapsed() < Duration::from_secs(240),
            "record kept no tests in a scratch file in its output's folder"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn stream_ctrl_c_during_generation_writes_the_partial_suite_and_leaves_no_scratch_file() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut child = record(work.path(), "out/suite.yaml", &["--time-limit", "120"]);
    wait_for_scratch(&mut child, &out);
    // SAFETY: signals the child we started, by its pid.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let done = wait(child, Duration::from_secs(600));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "{stderr}");
    let suite = difftest::suite::Suite::load(&out.join("suite.yaml")).expect("a valid suite");
    assert!(suite.header.partial && !suite.tests.is_empty());
    assert_eq!(names_in(&out), ["suite.yaml"], "only the suite is left");
}

#[test]
fn stream_two_records_into_one_folder_at_once_keep_their_own_tests() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let limit = ["--output-limit", "1500", "--time-limit", "200"];
    let mut a = record(
        work.path(),
        "out/a.yaml",
        &[&limit[..], &["--seed", "1"]].concat(),
    );
    let mut b = record(
        work.path(),
        "out/b.yaml",
        &[&limit[..], &["--seed", "2"]].concat(),
    );
    wait_for_scratch(&mut a, &out);
    wait_for_scratch(&mut b, &out);
    for (child, name, seed) in [(a, "a.yaml", 1), (b, "b.yaml", 2)] {
        let done = wait(child, Duration::from_secs(600));
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(0), "{stderr}");
        let suite = difftest::suite::Suite::load(&out.join(name)).expect("a valid suite");
        assert_eq!(suite.header.seed, seed);
        // Each suite passes on the JDK it was recorded on: tests read back from the other
        // record's file would expect values their statements do not give.
        let report = work.path().join(format!("reports-{seed}"));
        let replay = common::support::difftest(
            work.path(),
            &[
                "replay",
                "--impl",
                "temurin17",
                "--suite",
                &format!("out/{name}"),
                "--report-dir",
                report.to_str().unwrap(),
            ],
        );
        assert_eq!(
            replay.status.code(),
            Some(0),
            "{}",
            common::support::stdout(&replay)
        );
    }
    assert_eq!(names_in(&out), ["a.yaml", "b.yaml"]);
}

/// A record that compacts its store many times (`--store-limit` at its lowest) reaches its
/// output limit, records the limit in the header and writes a suite that passes on the
/// JDK it was recorded on. (That every pool value names the same code after a compaction is
/// `generate::compact`'s unit test.)
#[test]
fn stream_a_record_that_compacts_often_passes_on_its_own_jdk() {
    let work = tempfile::tempdir().unwrap();
    let extra = [
        "-v",
        "--store-limit",
        "1000",
        "--output-limit",
        "6000",
        "--time-limit",
        "300",
    ];
    let done = wait(
        record(work.path(), "suite.yaml", &extra),
        Duration::from_secs(600),
    );
    let summary = common::support::stdout(&done);
    assert_eq!(done.status.code(), Some(0), "{summary}");
    let times: u32 = (summary.lines())
        .find_map(|l| {
            l.strip_prefix("compacted: ")?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no compaction: {summary}"));
    assert!(times >= 3, "{summary}");
    let suite = difftest::suite::Suite::load(&work.path().join("suite.yaml")).expect("suite");
    assert_eq!(
        suite.header.options.get("store-limit").map(String::as_str),
        Some("1000")
    );
    assert!(suite.tests.len() >= 1000, "{} tests", suite.tests.len());
    let replay = common::support::difftest(
        work.path(),
        &["replay", "--impl", "temurin17", "--suite", "suite.yaml"],
    );
    let replayed = common::support::stdout(&replay);
    assert_eq!(replay.status.code(), Some(0), "{replayed}");
}
