//! `difftest bench replay`: records a large suite on a reference with `difftest record`
//! (or, with `--synthetic`, from hand-built JDK call templates; not measured), then runs `difftest replay` on a target as a child process for each job
//! count and reports wall time (end to end: suite loading, JVM start-ups, confirmation,
//! minimization, reports), tests per second, peak RSS and the speed-up between job counts.

use super::{start_pool, store};
use crate::cli::{BenchReplayArgs, GlobalArgs};
use crate::exit::{Exit, bad_input};
use crate::replay::samples;
use crate::report::Report;
use crate::suite::{FORMAT_VERSION, Header, Suite};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

pub fn run(global: &GlobalArgs, args: &BenchReplayArgs) -> anyhow::Result<Exit> {
    if args.tests == 0 {
        return Err(bad_input("--tests must be at least 1"));
    }
    for &jobs in &args.jobs {
        super::check_jobs(jobs, "--jobs")?;
    }
    let temp = tempfile::tempdir()?;
    let work = args
        .keep
        .clone()
        .unwrap_or_else(|| temp.path().to_path_buf());
    let suite_path = match &args.suite {
        Some(path) => path.clone(),
        None => record(global, args, &work)?,
    };
    for &jobs in &args.jobs {
        let (seconds, tests, statements) =
            super::bench_raw::execute(global, args, &suite_path, jobs)?;
        outln!(
            "workers alone, {jobs} job(s): {tests} tests ({statements} statements) executed in {seconds:.2} s: {:.0} tests/s, {:.0} statements/s (no comparison, one pool, no segments)",
            tests as f64 / seconds,
            statements as f64 / seconds
        );
    }
    outln!(
        "{:>5} {:>8} {:>9} {:>7} {:>8} {:>8} {:>10} {:>10} {:>10} {:>8}",
        "jobs",
        "wall s",
        "tests/s",
        "load s",
        "replay s",
        "minim. s",
        "super MiB",
        "worker MiB",
        "total MiB",
        "workers"
    );
    let mut walls = Vec::new();
    for &jobs in &args.jobs {
        let (wall, report) = replay(global, args, &work, &suite_path, jobs)?;
        let s = &report.stats;
        outln!(
            "{jobs:>5} {wall:>8.2} {:>9.0} {:>7.2} {:>8.2} {:>8.2} {:>10.1} {:>10.1} {:>10.1} {:>8}",
            report.summary.tests as f64 / wall,
            s.load_seconds,
            s.replay_seconds,
            s.minimize_seconds,
            s.peak_rss_kib_supervisor as f64 / 1024.0,
            s.peak_rss_kib_worker_max as f64 / 1024.0,
            s.peak_rss_kib_total as f64 / 1024.0,
            s.workers_started,
        );
        walls.push((jobs, wall, report));
    }
    if let [(j1, w1, r), .., (jn, wn, _)] = walls.as_slice() {
        outln!("speed-up {j1}→{jn} jobs: {:.2}×", w1 / wn);
        outln!("{}", crate::report::table::summary_line(r));
    }
    Ok(Exit::Success)
}

/// Generates and records the suite; returns its path.
fn record(global: &GlobalArgs, args: &BenchReplayArgs, work: &Path) -> anyhow::Result<PathBuf> {
    if !args.synthetic {
        return generate(global, args, work);
    }
    let began = Instant::now();
    let store = store(global)?;
    let config = super::bench_raw::config(2)?;
    let (provisioned, pool) = start_pool(&store, &args.reference, config)?;
    let wanted = args.tests + args.tests / 20 + 10;
    let seqs = samples::generate_long(args.seed, wanted, args.calls_per_test);
    let mut tests = samples::record(&pool, &seqs, 1)?;
    tests.truncate(args.tests);
    drop(pool);
    let statements: usize = tests.iter().map(|t| t.statements.len()).sum();
    let mut header = header(&args.reference, provisioned.fingerprint, args.seed);
    header.counts.insert("tests".into(), tests.len() as u64);
    let suite = Suite {
        header,
        tests,
        error_revealing: Vec::new(),
        exceptions: Default::default(),
    };
    let dir = work.join("oracles");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{}.yaml", args.reference));
    suite.save(&path)?;
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    outln!(
        "suite: {} tests, {statements} statements, {:.1} MiB of YAML, recorded on {} in {:.1} s (not measured)",
        suite.tests.len(),
        size as f64 / (1 << 20) as f64,
        args.reference,
        began.elapsed().as_secs_f64()
    );
    Ok(path)
}

/// Records the suite with `difftest record` (three reruns, to keep the set-up short).
fn generate(global: &GlobalArgs, args: &BenchReplayArgs, work: &Path) -> anyhow::Result<PathBuf> {
    let began = Instant::now();
    let path = work
        .join("oracles")
        .join(format!("{}.yaml", args.reference));
    let mut cmd = super::difftest_child(global)?;
    cmd.args([
        "record",
        "--impl",
        &args.reference,
        "--time-limit",
        "900",
        "--reruns",
        "3",
    ])
    .args([
        "--output-limit",
        &args.tests.to_string(),
        "--seed",
        &args.seed.to_string(),
    ])
    .args(["--no-progress", "--jobs", "2", "--output"])
    .arg(&path)
    .stdout(Stdio::null());
    super::run_child(cmd, &[0], None)?;
    let suite = Suite::load(&path)?;
    let statements: usize = suite.tests.iter().map(|t| t.statements.len()).sum();
    outln!(
        "suite: {} tests, {statements} statements, recorded by difftest record on {} in {:.1} s (not measured)",
        suite.tests.len(),
        args.reference,
        began.elapsed().as_secs_f64()
    );
    Ok(path)
}

fn header(reference: &str, fingerprint: crate::targets::Fingerprint, seed: u64) -> Header {
    Header {
        format: FORMAT_VERSION,
        tool: format!("difftest {} bench", env!("CARGO_PKG_VERSION")),
        reference: reference.to_string(),
        fingerprint,
        seed,
        classes: Vec::new(),
        packages: Vec::new(),
        options: Default::default(),
        counts: Default::default(),
        partial: false,
    }
}

/// Runs `difftest replay` with `jobs` and returns the wall time and its report.
fn replay(
    global: &GlobalArgs,
    args: &BenchReplayArgs,
    work: &Path,
    suite: &Path,
    jobs: usize,
) -> anyhow::Result<(f64, Report)> {
    let reports = work.join(format!("reports-j{jobs}"));
    let mut cmd = super::difftest_child(global)?;
    cmd.args([
        "replay",
        "--impl",
        &args.target,
        "--jobs",
        &jobs.to_string(),
    ])
    .arg("--suite")
    .arg(suite)
    .arg("--report-dir")
    .arg(&reports)
    .stdout(Stdio::null());
    let began = Instant::now();
    super::run_child(cmd, &[0, 1], None)?;
    let wall = began.elapsed().as_secs_f64();
    let stem = format!("{}-vs-{}", args.target, args.reference);
    let report = Report::read(&reports.join(format!("{stem}.json")))?;
    Ok((wall, report))
}
