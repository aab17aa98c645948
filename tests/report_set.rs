//! Report sets are one unit and every file difftest did not write is read bounded: a writer
//! SIGKILLed between the renames of a report set leaves a set the next reader finishes
//! whole; `/dev/zero` and a sparse file of gigabytes given as a report, a target file or a
//! class list are refused at once with exit 2, naming the file and the limit.

mod common;
use common::report::report_with_groups;
use common::support::{self, difftest, stderr};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn names(set: &[(String, Vec<u8>)]) -> Vec<&str> {
    set.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn a_report_set_killed_between_its_renames_is_finished_whole_by_the_next_reader() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    report_with_groups(1, "oracles/ref.yaml")
        .write_all(&reports)
        .unwrap();
    let old = support::report_files(&reports);
    let part = report_with_groups(3, "oracles/ref.yaml")
        .write_all(&dir.path().join("part"))
        .unwrap();
    let part = part[0].to_str().unwrap();
    // The set an uninterrupted merge of the part writes.
    let whole = difftest(
        dir.path(),
        &["report", "--merge", part, "--report-dir", "whole"],
    );
    assert_eq!(whole.status.code(), Some(1), "{}", stderr(&whole));
    let new = support::report_files(&dir.path().join("whole"));
    assert_eq!(names(&new), names(&old));
    assert!(
        old.iter().zip(&new).all(|(o, n)| o.1 != n.1),
        "each file differs"
    );

    // The same merge into `reports`, killed (SIGKILL) after its first rename.
    let marker = dir.path().join("paused");
    let mut child = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .current_dir(dir.path())
        .args(["report", "--merge", part, "--targets-dir"])
        .arg(support::repo().join("targets"))
        .env("DIFFTEST_TEST_PAUSE_BETWEEN_RENAMES", &marker)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !marker.exists() {
        let done = child.try_wait().unwrap();
        assert!(
            done.is_none() && started.elapsed() < Duration::from_secs(60),
            "the writer never paused between two renames ({done:?})"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Killed between renames: on disk the JSON is the new run's, the Markdown the old one's.
    let json = std::fs::read(reports.join("tgt-vs-ref.json")).unwrap();
    let md = std::fs::read(reports.join("tgt-vs-ref.md")).unwrap();
    assert_eq!(json, new[1].1, "the JSON was renamed");
    assert_eq!(md, old[3].1, "the Markdown was not");

    // The next reader (another merge reading this set's JSON) finishes the set first.
    let json_path = reports.join("tgt-vs-ref.json");
    let again = difftest(
        dir.path(),
        &[
            "report",
            "--merge",
            json_path.to_str().unwrap(),
            "--report-dir",
            "again",
        ],
    );
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    let now = support::report_files(&reports);
    assert!(
        now == new,
        "the killed run's four files, all of them, and nothing else: {:?}",
        names(&now)
    );
}

#[test]
fn a_replay_writing_a_set_finishes_one_killed_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    report_with_groups(1, "oracles/ref.yaml")
        .write_all(&reports)
        .unwrap();
    // A writer killed before its commit point left a staged file; one killed after it, a
    // journal and the rest. The next writer settles both before writing its own set.
    std::fs::write(reports.join(".tgt-vs-ref.md.staged"), "torn").unwrap();
    report_with_groups(2, "oracles/ref.yaml")
        .write_all(&reports)
        .unwrap();
    let now = support::report_files(&reports);
    assert_eq!(
        names(&now),
        [
            "tgt-vs-ref.html",
            "tgt-vs-ref.json",
            "tgt-vs-ref.junit.xml",
            "tgt-vs-ref.md"
        ]
    );
}

/// A file of `len` bytes that takes no disk space.
fn sparse(path: &Path, len: u64) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// Exit 2 within seconds, one line of error naming `needles`, no panic.
fn assert_refused_fast(dir: &Path, args: &[&str], needles: &[&str]) {
    let started = Instant::now();
    let out = difftest(dir, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "{args:?} names {needle}: {err}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{args:?}: {:?}",
        started.elapsed()
    );
}

#[test]
fn dev_zero_and_sparse_files_as_reports_are_refused_at_once_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("reports/tgt-vs-ref.json");
    sparse(&big, 2 << 30);
    let big = big.to_str().unwrap();
    for file in [big, "/dev/zero"] {
        for flag in ["--merge", "--summary"] {
            let needles: &[&str] = match file {
                "/dev/zero" => &["/dev/zero", "not a regular file"],
                _ => &["tgt-vs-ref.json", "1024 MiB"],
            };
            assert_refused_fast(dir.path(), &["report", flag, file], needles);
        }
    }
    assert_refused_fast(
        dir.path(),
        &["accept", "g-000000", "--reason", "x"],
        &["tgt-vs-ref.json", "1024 MiB"],
    );
}

#[test]
fn dev_zero_and_sparse_files_as_target_files_and_class_lists_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let targets = dir.path().join("targets");
    sparse(&targets.join("huge.yaml"), 2 << 30);
    let targets = targets.to_str().unwrap();
    let args = ["targets", "check", "huge", "--targets-dir", targets];
    assert_refused_fast(dir.path(), &args, &["huge.yaml", "64 MiB"]);
    sparse(&dir.path().join("classes.txt"), 2 << 30);
    let args = ["suite", "stats", "/dev/zero"];
    assert_refused_fast(dir.path(), &args, &["/dev/zero"]);
    let args = [
        "record",
        "--impl",
        "temurin17",
        "--class-list",
        "classes.txt",
        "-o",
        "s.yaml",
    ];
    assert_refused_fast(dir.path(), &args, &["classes.txt", "64 MiB"]);
}
