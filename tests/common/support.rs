//! Helpers for the replay tests:
//! suites recorded on real targets from hand-built sequences, written as YAML, and the
//! `difftest` binary run in a temporary working directory.

#![allow(dead_code)]

use difftest::message::SeqRequest;
use difftest::pool::{Pool, PoolConfig};
use difftest::replay::samples;
use difftest::suite::{FORMAT_VERSION, Header, Suite, Test};
use difftest::targets::{Provisioned, TargetStore};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Provisions a target from `targets_dir` (the shipped ones by default).
pub fn provision(name: &str, targets_dir: Option<&Path>) -> Provisioned {
    let dir = targets_dir.map_or_else(|| repo().join("targets"), Path::to_path_buf);
    let store = TargetStore::new(Some(dir), None).expect("target store");
    let spec = store.load(name).expect("target loads");
    store.provision(&spec).expect("target provisions")
}

/// A pool configuration that runs this crate's binary as worker.
pub fn config(jobs: usize, timeout_ms: u64) -> PoolConfig {
    let mut config = PoolConfig::new();
    config.jobs = jobs;
    config.timeout = Duration::from_millis(timeout_ms);
    config.worker_exe = PathBuf::from(env!("CARGO_BIN_EXE_difftest"));
    config
}

/// Records `seqs` on `reference` (run twice; unstable parts dropped) into a suite.
pub fn record(
    reference: &str,
    targets_dir: Option<&Path>,
    seqs: &[SeqRequest],
    seed: u64,
) -> Suite {
    let p = provision(reference, targets_dir);
    let pool = Pool::start(reference, p.jvm.clone(), config(2, 5000)).expect("pool starts");
    let tests = samples::record(&pool, seqs, 1).expect("record runs");
    suite(reference, &p, tests, seed)
}

/// A suite around `tests`.
pub fn suite(reference: &str, p: &Provisioned, tests: Vec<Test>, seed: u64) -> Suite {
    Suite {
        header: Header {
            format: FORMAT_VERSION,
            tool: "difftest test".into(),
            reference: reference.into(),
            fingerprint: p.fingerprint.clone(),
            seed,
            classes: vec![],
            packages: vec![],
            options: Default::default(),
            counts: [("tests".to_string(), tests.len() as u64)]
                .into_iter()
                .collect(),
            partial: false,
        },
        tests,
        error_revealing: vec![],
        exceptions: Default::default(),
    }
}

/// Writes `suite` to `DIR/oracles/NAME.yaml` and returns the path.
pub fn write_suite(dir: &Path, suite: &Suite) -> PathBuf {
    let oracles = dir.join("oracles");
    std::fs::create_dir_all(&oracles).unwrap();
    let path = oracles.join(format!("{}.yaml", suite.header.reference));
    suite.save(&path).expect("suite saved");
    path
}

/// Records `seqs` on the fixture target `reference` of `targets`, asserts that every
/// sequence was stable, and writes the suite into `work/oracles`.
pub fn record_stable(work: &Path, reference: &str, targets: &Path, seqs: &[SeqRequest]) {
    let suite = record(reference, Some(targets), seqs, 0);
    assert_eq!(suite.tests.len(), seqs.len(), "all stable on {reference}");
    write_suite(work, &suite);
}

/// Runs `difftest ARGS` in `cwd`.
pub fn difftest(cwd: &Path, args: &[&str]) -> Output {
    difftest_env(cwd, args, &[])
}

/// Runs `difftest replay --suite SUITE --impl TARGET` in `work` with the targets of
/// [`fixture_targets`], reports into `work/reports`, with `extra` flags (`--jobs 1`,
/// `--no-minimize`).
pub fn replay_fixture(
    work: &Path,
    targets: &Path,
    suite: &str,
    target: &str,
    extra: &[&str],
) -> Output {
    let targets = targets.display().to_string();
    let mut args = vec![
        "replay",
        "--suite",
        suite,
        "--impl",
        target,
        "--targets-dir",
        &targets,
        "--report-dir",
        "reports",
    ];
    args.extend_from_slice(extra);
    difftest(work, &args)
}

/// Runs `difftest record --impl TARGET` of the fixture package (`--packages fixture`, one
/// worker, quiet) in `work` with the targets of [`fixture_targets`], writing `out`, with
/// `extra` flags (the budget, reruns, seed).
pub fn record_fixture(
    work: &Path,
    targets: &Path,
    target: &str,
    out: &str,
    extra: &[&str],
) -> Output {
    let targets = targets.display().to_string();
    let mut args = vec![
        "record",
        "--impl",
        target,
        "--targets-dir",
        &targets,
        "--packages",
        "fixture",
        "--quiet",
        "--jobs",
        "1",
        "-o",
        out,
    ];
    args.extend_from_slice(extra);
    difftest(work, &args)
}

/// [`record_fixture`], which must exit 0, then the suite it wrote to `work/out`.
pub fn recorded_fixture_suite(
    work: &Path,
    targets: &Path,
    target: &str,
    out: &str,
    extra: &[&str],
) -> Suite {
    let record = record_fixture(work, targets, target, out, extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    Suite::load(&work.join(out)).expect("the suite loads")
}

/// Replays `suite` (in `work`) on the fixture target `target` of [`fixture_targets`] and
/// asserts that it reports no group and passes the gate: a release that behaves the same.
/// The report's stem is `TARGET-vs-REFERENCE`.
pub fn assert_same_behaviour(work: &Path, targets: &Path, suite: &str, target: &str, stem: &str) {
    let targets = targets.display().to_string();
    let args = [
        "replay",
        "--suite",
        suite,
        "--impl",
        target,
        "--targets-dir",
        &targets,
        "--report-dir",
        "reports",
        "--quiet",
        "--jobs",
        "1",
    ];
    let replay = difftest(work, &args);
    let report = report_json(work, stem);
    let groups = report["groups"].as_array().expect("groups");
    assert!(
        groups.is_empty(),
        "{target} behaves the same, yet replay reports {groups:?}\n{}",
        stdout(&replay)
    );
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
}

/// Runs `difftest ARGS` in `cwd` with extra environment variables.
pub fn difftest_env(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.current_dir(cwd).args(args).env_remove("CI");
    if !args.contains(&"--targets-dir") {
        cmd.arg("--targets-dir").arg(repo().join("targets"));
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("difftest runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that `difftest ARGS` run in `dir` fails with exit code 2 and one line of error
/// naming each of `needles`.
pub fn assert_bad(dir: &Path, args: &[&str], needles: &[&str]) {
    let out = difftest(dir, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err} lacks {n}");
    }
}

/// Asserts that a run ended with exit code `code`, showing its output otherwise.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}\n{}",
        stdout(out),
        stderr(out)
    );
}

/// Reads `DIR/reports/STEM.json` as JSON.
pub fn report_json(dir: &Path, stem: &str) -> serde_json::Value {
    let path = dir.join("reports").join(format!("{stem}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

/// Compiles `tests/fixtures/DIR/vN/fixture` for N in 1..=`releases` with javac, with the
/// sources of `tests/fixtures/DIR/common/fixture` (what every release shares) when there are
/// any, and writes a target `PREFIXN` for each into `work/targets`, which it returns.
pub fn fixture_targets(work: &Path, dir: &str, releases: u32, prefix: &str) -> PathBuf {
    let targets = work.join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    for v in 1..=releases {
        let src = repo().join(format!("tests/fixtures/{dir}/v{v}/fixture"));
        let common = repo().join(format!("tests/fixtures/{dir}/common/fixture"));
        let out = work.join(format!("classes-v{v}"));
        let mut sources: Vec<PathBuf> = std::fs::read_dir(&src)
            .unwrap()
            .chain(std::fs::read_dir(&common).into_iter().flatten())
            .map(|e| e.unwrap().path())
            .collect();
        sources.sort();
        let status = Command::new(super::javac())
            .args(["--release", "11", "-d"])
            .arg(&out)
            .args(&sources)
            .status()
            .expect("javac runs");
        assert!(status.success());
        let yaml = super::jdk17_target(
            &format!("{prefix}{v}"),
            &format!("{dir} fixture v{v}"),
            &out,
        );
        std::fs::write(targets.join(format!("{prefix}{v}.yaml")), yaml).unwrap();
    }
    targets
}

/// Runs `difftest accept g-000000 … g-{n-1}` as `n` processes at once in `cwd` and asserts
/// each one succeeded: the concurrent-accept tests' writers.
pub fn accept_groups_concurrently(cwd: &Path, n: usize) {
    let children: Vec<_> = (0..n)
        .map(|i| {
            Command::new(env!("CARGO_BIN_EXE_difftest"))
                .current_dir(cwd)
                .env_remove("CI")
                .args(["accept", &format!("g-{i:06x}"), "--reason", "reviewed"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("difftest runs")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
}

/// The files in `dir` but lock files (a report set and whatever a writer left beside it), by
/// name, with their bytes.
pub fn report_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_none_or(|x| x != "lock"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Gives a child SIGINT's default action, as a terminal's Ctrl-C finds it: a test run as a
/// shell script's background job inherits SIGINT ignored, which difftest then keeps. For
/// `CommandExt::pre_exec`.
pub fn default_sigint() -> std::io::Result<()> {
    // SAFETY: signal is async-signal-safe.
    unsafe { libc::signal(libc::SIGINT, libc::SIG_DFL) };
    Ok(())
}
