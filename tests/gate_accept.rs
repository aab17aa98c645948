//! `accept` never loses reviewed work, and flags, paths and report folders are safe:
//! accepts keyed by the group or cause accepted (never replacing another entry, all kept when
//! run at once), non-UTF-8 paths refused up front, durations and counts checked at parse
//! time, the report folder checked before any work and written as one unit, files created
//! with the user's umask, and an inherited ignored SIGINT honoured.

mod common;
use common::support;

use common::report::report_with_groups;
use difftest::triage::accepted::AcceptedList;
use difftest::triage::label::Label;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output};
use support::{difftest, stderr, stdout};

/// What a child runs before exec (async-signal-safe calls only).
type Setup = Box<dyn FnMut() -> std::io::Result<()> + Send + Sync>;

/// `difftest ARGS` in `cwd`, with the shipped targets; `setup` runs in the child before exec.
fn run_with(cwd: &Path, args: &[&OsStr], setup: Option<Setup>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.current_dir(cwd).env_remove("CI").args(args);
    cmd.arg("--targets-dir")
        .arg(support::repo().join("targets"));
    if let Some(setup) = setup {
        // SAFETY: the closure only calls async-signal-safe functions (umask, signal, setrlimit).
        unsafe { cmd.pre_exec(setup) };
    }
    cmd.output().expect("difftest runs")
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn refs(args: &[OsString]) -> Vec<&OsStr> {
    args.iter().map(OsString::as_os_str).collect()
}

/// Exit 2 with one line of error naming `flag`, and no panic.
fn assert_refused(out: &Output, flag: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(flag), "names {flag}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains("error"), "{err}");
}

/// A report of `n` groups in pairs: groups 2k and 2k+1 share a callee and kind and differ
/// by label (the same method showing two kinds of change), each with its own id.
fn paired_report(dir: &Path, n: usize) {
    let suite = dir.join("oracles/ref.yaml");
    let mut report = report_with_groups(n, &suite.display().to_string());
    for (i, g) in report.groups.iter_mut().enumerate() {
        g.callee = format!("Counter.m{}()", i / 2);
        g.label = if i % 2 == 0 {
            Label::ValueDiffers
        } else {
            Label::Rendering
        };
    }
    report.write_all(&dir.join("reports")).unwrap();
}

fn accept(dir: &Path, id: &str, reason: &str) -> Output {
    difftest(dir, &["accept", id, "--reason", reason])
}

fn list(dir: &Path) -> AcceptedList {
    AcceptedList::load(&dir.join("oracles/ref.accepted.yaml")).unwrap()
}

#[test]
fn accepting_two_groups_of_one_callee_and_kind_keeps_both() {
    let dir = tempfile::tempdir().unwrap();
    paired_report(dir.path(), 2);
    for (id, reason) in [("g-000000", "seq a"), ("g-000001", "seq b")] {
        let out = accept(dir.path(), id, reason);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).starts_with("accepted g-"), "{}", stdout(&out));
    }
    let accepted = list(dir.path());
    let reasons: Vec<&str> = accepted
        .accepted
        .iter()
        .map(|e| e.reason.as_str())
        .collect();
    assert_eq!(reasons, ["seq a", "seq b"], "neither replaced the other");
    let ids: Vec<&str> = accepted.accepted.iter().map(|e| e.group.as_str()).collect();
    assert_eq!(ids, ["g-000000", "g-000001"], "each group by its own entry");
    // Accepting it again changes nothing and says so.
    let before = std::fs::read(dir.path().join("oracles/ref.accepted.yaml")).unwrap();
    let out = accept(dir.path(), "g-000000", "other words");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("already accepted") && stdout(&out).contains("seq a"),
        "{}",
        stdout(&out)
    );
    let after = std::fs::read(dir.path().join("oracles/ref.accepted.yaml")).unwrap();
    assert_eq!(before, after, "the list is not written again");
}

#[test]
fn ten_concurrent_accepts_of_groups_sharing_callees_keep_ten_entries() {
    let dir = tempfile::tempdir().unwrap();
    let n = 10;
    paired_report(dir.path(), n);
    support::accept_groups_concurrently(dir.path(), n);
    let accepted = list(dir.path());
    let mut ids: Vec<&str> = accepted.accepted.iter().map(|e| e.group.as_str()).collect();
    ids.sort();
    let expected: Vec<String> = (0..n).map(|i| format!("g-{i:06x}")).collect();
    assert_eq!(ids, expected, "every accept kept");
}

#[test]
fn a_non_utf8_suite_path_is_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    paired_report(dir.path(), 1);
    let folder = OsStr::from_bytes(b"or\xffacles");
    std::fs::create_dir(dir.path().join(folder)).unwrap();
    let mut suite = OsString::from(folder);
    suite.push("/ref.yaml");
    let args = os(&["accept", "g-000000", "--reason", "r", "--suite"]);
    let mut args = args;
    args.push(suite);
    let out = run_with(dir.path(), &refs(&args), None);
    assert_refused(&out, "--suite");
    let names: Vec<OsString> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        !names
            .iter()
            .any(|n| n.to_str().is_some_and(|n| n.contains('\u{FFFD}'))),
        "no folder named with U+FFFD: {names:?}"
    );
}

#[test]
fn absurd_durations_and_counts_are_exit_2_at_parse_time() {
    let dir = tempfile::tempdir().unwrap();
    let suite = support::repo().join("tests/fixtures/export/jdk17.yaml");
    let suite = suite.to_str().unwrap();
    let replay = ["replay", "--impl", "temurin17", "--suite", suite];
    for (flag, value) in [
        ("--timeout", "1e20"),
        ("--timeout", "0.000001"),
        ("--timeout", "nan"),
        ("--confirm", "1000000"),
        ("--segment", "0"),
        ("--minimize-budget", "4294967296"),
        ("--jobs", "18446744073709551616"),
    ] {
        let out = difftest(dir.path(), &[&replay[..], &[flag, value]].concat());
        assert_refused(&out, flag);
    }
    let out = dir.path().join("s.yaml");
    let record = ["record", "--impl", "temurin17", "-o", out.to_str().unwrap()];
    for (flag, value) in [
        ("--time-limit", "99999999999999999999"),
        ("--time-limit", "1e20"),
        ("--timeout", "1e20"),
        ("--reruns", "4294967296"),
        ("--output-limit", "0"),
        ("--max-size", "0"),
    ] {
        let out = difftest(dir.path(), &[&record[..], &[flag, value]].concat());
        assert_refused(&out, flag);
    }
    assert!(!out.exists(), "nothing recorded");
}

#[test]
fn report_folder_problems_are_exit_2_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let suite = support::repo().join("tests/fixtures/export/jdk17.yaml");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    for bad in [file.clone(), file.join("inside")] {
        let args = [
            "replay",
            "--impl",
            "temurin17",
            "--suite",
            suite.to_str().unwrap(),
            "--report-dir",
            bad.to_str().unwrap(),
        ];
        let started = std::time::Instant::now();
        let out = difftest(dir.path(), &args);
        assert_refused(&out, "--report-dir");
        assert!(
            !stderr(&out).contains("replaying"),
            "no replay ran: {}",
            stderr(&out)
        );
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }
}

/// A file-size limit of `bytes` (writes past it fail with EFBIG, as on a full disk).
fn small_disk(bytes: u64) -> Setup {
    Box::new(move || {
        // SAFETY: signal and setrlimit are async-signal-safe.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    })
}

#[test]
fn a_report_set_that_cannot_be_written_whole_leaves_the_last_one_whole() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    report_with_groups(1, "oracles/ref.yaml")
        .write_all(&reports)
        .unwrap();
    let old: Vec<(String, Vec<u8>)> = support::report_files(&reports);
    // A new report whose JSON fits and a later file does not: an invisible character is
    // three bytes in the JSON and a six-byte escape (`\u200B`) where people read it.
    let part = dir.path().join("part");
    let mut report = report_with_groups(3, "oracles/ref.yaml");
    report.groups[0].tgt_value = "\u{200B}".repeat(5_000);
    let written = report.write_all(&part).unwrap();
    // The sizes of the files `report --merge` writes of it, unlimited.
    let args = os(&[
        "report",
        "--merge",
        written[0].to_str().unwrap(),
        "--report-dir",
        "sizes",
    ]);
    run_with(dir.path(), &refs(&args), None);
    let size = |ext: &str| {
        let path = dir.path().join(format!("sizes/tgt-vs-ref.{ext}"));
        std::fs::metadata(path).unwrap().len()
    };
    let sizes: Vec<u64> = ["json", "md", "html", "junit.xml"].map(size).to_vec();
    let limit = sizes[0] + 1_000;
    assert!(
        sizes.iter().any(|&s| s > limit),
        "JSON, Markdown, HTML, JUnit sizes: {sizes:?}"
    );
    let args = os(&["report", "--merge", written[0].to_str().unwrap()]);
    let out = run_with(dir.path(), &refs(&args), Some(small_disk(limit)));
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    let now = support::report_files(&reports);
    let changed: Vec<&str> = now
        .iter()
        .filter(|f| !old.contains(f))
        .map(|(name, _)| name.as_str())
        .collect();
    assert!(
        now == old,
        "the earlier run's files, all of them; changed or new: {changed:?}"
    );
    // The next run writes the whole new set and leaves no temporary behind.
    let out = run_with(dir.path(), &refs(&args), None);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let new = support::report_files(&reports);
    assert_eq!(new.len(), 4);
    assert!(
        new.iter().all(|(name, _)| !name.ends_with(".tmp")),
        "{new:?}"
    );
    let json = String::from_utf8_lossy(&new[0].1);
    assert!(json.contains("Counter.m2()"), "the new run's JSON");
}

fn umask_022() -> Setup {
    Box::new(|| {
        // SAFETY: umask is async-signal-safe.
        unsafe { libc::umask(0o022) };
        Ok(())
    })
}

#[test]
fn accept_writes_with_the_umask_and_clears_a_killed_writers_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    paired_report(dir.path(), 1);
    let oracles = dir.path().join("oracles");
    std::fs::create_dir_all(&oracles).unwrap();
    let stale = oracles.join(".ref.accepted.yaml.Ab12Cd.tmp");
    std::fs::write(&stale, "half a list").unwrap();
    let args = os(&["accept", "g-000000", "--reason", "reviewed"]);
    let out = run_with(dir.path(), &refs(&args), Some(umask_022()));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&oracles.join("ref.accepted.yaml")), 0o644);
    assert!(!stale.exists(), "the killed writer's temporary is removed");
    let reports = dir.path().join("reports");
    let args = os(&["report", "--merge", "reports/tgt-vs-ref.json"]);
    let out = run_with(dir.path(), &refs(&args), Some(umask_022()));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for ext in ["json", "md", "html", "junit.xml"] {
        assert_eq!(
            mode(&reports.join(format!("tgt-vs-ref.{ext}"))),
            0o644,
            "{ext}"
        );
    }
}

fn ignore_sigint() -> std::io::Result<()> {
    // SAFETY: signal is async-signal-safe.
    unsafe { libc::signal(libc::SIGINT, libc::SIG_IGN) };
    Ok(())
}

/// The signal mask `field` (`SigIgn`, `SigCgt`) of process `pid`.
fn signal_mask(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    u64::from_str_radix(line.split_whitespace().nth(1)?, 16).ok()
}

fn bit(sig: libc::c_int) -> u64 {
    1 << (sig - 1)
}

#[test]
fn a_record_started_with_sigint_ignored_keeps_ignoring_it_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.yaml");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.current_dir(dir.path()).env_remove("CI");
    cmd.args([
        "record",
        "--impl",
        "temurin17",
        "--classes",
        "java.lang.Math",
    ]);
    cmd.args([
        "--time-limit",
        "120",
        "--reruns",
        "0",
        "--no-progress",
        "-j",
        "1",
    ]);
    cmd.arg("-o").arg(&out);
    cmd.arg("--targets-dir")
        .arg(support::repo().join("targets"));
    cmd.stdout(std::process::Stdio::piped());
    cmd.stderr(std::process::Stdio::piped());
    // SAFETY: only async-signal-safe calls.
    unsafe { cmd.pre_exec(ignore_sigint) };
    let child = cmd.spawn().unwrap();
    let pid = child.id();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    let caught = loop {
        let caught = signal_mask(pid, "SigCgt").unwrap_or(0);
        if caught & bit(libc::SIGTERM) != 0 || std::time::Instant::now() > deadline {
            break caught;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let ignored = signal_mask(pid, "SigIgn").unwrap_or(0);
    // SAFETY: signals to our own child.
    unsafe {
        libc::kill(pid as i32, libc::SIGINT);
        std::thread::sleep(std::time::Duration::from_millis(300));
        libc::kill(pid as i32, libc::SIGTERM);
    }
    let done = child.wait_with_output().unwrap();
    assert!(caught & bit(libc::SIGTERM) != 0, "SIGTERM handled");
    assert_eq!(caught & bit(libc::SIGINT), 0, "no handler for SIGINT");
    assert!(ignored & bit(libc::SIGINT) != 0, "SIGINT still ignored");
    assert_eq!(done.status.code(), Some(130), "{}", stderr(&done));
    assert!(
        out.exists(),
        "stopped cleanly: the partial suite is written"
    );
}

#[test]
fn a_replay_started_with_sigint_ignored_keeps_it_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let suite = support::repo().join("tests/fixtures/export/jdk17.yaml");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.current_dir(dir.path())
        .env_remove("CI")
        .env("TMPDIR", &tmp);
    cmd.args(["replay", "--impl", "temurin17", "-j", "1", "--suite"]);
    cmd.arg(&suite);
    cmd.arg("--targets-dir")
        .arg(support::repo().join("targets"));
    cmd.stdout(std::process::Stdio::piped());
    cmd.stderr(std::process::Stdio::piped());
    // SAFETY: only async-signal-safe calls.
    unsafe { cmd.pre_exec(ignore_sigint) };
    let child = cmd.spawn().unwrap();
    let pid = child.id();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let caught = loop {
        let caught = signal_mask(pid, "SigCgt").unwrap_or(0);
        if caught & bit(libc::SIGTERM) != 0 || std::time::Instant::now() > deadline {
            break caught;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let ignored = signal_mask(pid, "SigIgn").unwrap_or(0);
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    let done = child.wait_with_output().unwrap();
    assert!(caught & bit(libc::SIGTERM) != 0, "SIGTERM handled");
    assert_eq!(caught & bit(libc::SIGINT), 0, "no handler for SIGINT");
    assert!(ignored & bit(libc::SIGINT) != 0, "SIGINT still ignored");
    assert_eq!(done.status.code(), Some(130), "{}", stderr(&done));
    assert!(stderr(&done).contains("interrupted"), "{}", stderr(&done));
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(
        left.is_empty(),
        "the workers' folders are removed: {left:?}"
    );
}
