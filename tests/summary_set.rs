//! `report --summary` writes `summary.md` and `index.html` as one unit: a summary killed
//! between its renames is finished by the next writer, summaries written at once into one
//! folder leave the two files of one of them, and a `--report-dir` that cannot take them
//! (a file, a folder inside a file) is refused before any report is read.

mod common;
use common::report::report_with_groups;
use common::support::{self, difftest, stderr};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Writes the report set of `groups` new groups into `DIR/name`; returns its JSON's path
/// relative to `dir`.
fn report_in(dir: &Path, name: &str, groups: usize) -> String {
    report_with_groups(groups, "oracles/ref.yaml")
        .write_all(&dir.join(name))
        .unwrap();
    format!("{name}/tgt-vs-ref.json")
}

/// `report --summary JSON… --report-dir out`, started in `dir`, with `env`.
fn start_summary(dir: &Path, jsons: &[&str], out: &str, env: &[(&str, &Path)]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.current_dir(dir).arg("report").arg("--summary");
    cmd.args(jsons).args(["--report-dir", out]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    cmd.spawn().unwrap()
}

/// The summary written alone into `DIR/out`, file by file (lock files left out).
fn summary_alone(dir: &Path, jsons: &[&str], out: &str) -> Vec<(String, Vec<u8>)> {
    let run = difftest(
        dir,
        &[&["report", "--summary"], jsons, &["--report-dir", out]].concat(),
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    support::report_files(&dir.join(out))
}

#[test]
fn a_summary_killed_between_its_renames_leaves_one_whole_run_after_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (report_in(dir.path(), "a", 1), report_in(dir.path(), "b", 3));
    let old = summary_alone(dir.path(), &[&a], "sum");
    let new = summary_alone(dir.path(), &[&a, &b], "whole");
    let names: Vec<&str> = old.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["index.html", "summary.md"]);
    assert!(
        old.iter().zip(&new).all(|(o, n)| o.1 != n.1),
        "each differs"
    );

    // The summary of both pairs into `sum`, killed (SIGKILL) after its first rename.
    let marker = dir.path().join("paused");
    let hook = [("DIFFTEST_TEST_PAUSE_BETWEEN_RENAMES", marker.as_path())];
    let mut child = start_summary(dir.path(), &[&a, &b], "sum", &hook);
    let started = Instant::now();
    while !marker.exists() {
        let done = child.try_wait().unwrap();
        assert!(
            done.is_none() && started.elapsed() < Duration::from_secs(60),
            "the summary never paused between two renames ({done:?}): not written as one unit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let sum = dir.path().join("sum");
    let torn = support::report_files(&sum);
    assert!(
        torn.iter().any(|(n, _)| n == "summary.journal"),
        "killed after its commit point: {:?}",
        torn.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );

    // The next summary into `sum` finishes the killed one first, then writes its own whole.
    let again = summary_alone(dir.path(), &[&a], "sum");
    assert!(
        again == old,
        "the last run's two files and nothing else: {:?}",
        again.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
}

#[test]
fn summaries_written_at_once_into_one_folder_leave_the_files_of_one_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (report_in(dir.path(), "a", 1), report_in(dir.path(), "b", 3));
    let inputs: [Vec<&str>; 3] = [vec![&a], vec![&b], vec![&a, &b]];
    let whole: Vec<_> = inputs
        .iter()
        .enumerate()
        .map(|(i, jsons)| summary_alone(dir.path(), jsons, &format!("alone{i}")))
        .collect();
    for round in 0..6 {
        let out = format!("sum{round}");
        let mut children: Vec<Child> = (0..6)
            .map(|k| start_summary(dir.path(), &inputs[(k + round) % 3], &out, &[]))
            .collect();
        for child in &mut children {
            assert_eq!(child.wait().unwrap().code(), Some(1));
        }
        let now = support::report_files(&dir.path().join(&out));
        assert!(
            whole.contains(&now),
            "round {round}: the files of one summary, whole: {:?}",
            now.iter().map(|(n, _)| n).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_report_dir_that_cannot_take_the_files_is_refused_before_any_report_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    for bad in [file.clone(), file.join("inside")] {
        let bad = bad.to_str().unwrap();
        for mode in ["--summary", "--merge"] {
            // The report named does not exist: the folder is checked first.
            let args = ["report", mode, "missing.json", "--report-dir", bad];
            support::assert_bad(dir.path(), &args, &["--report-dir", bad]);
        }
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"not a folder");
}
