//! `difftest bench export`: javac and JUnit time of an exported suite against replaying it
//! on the same JVM.

use super::export::{Noted, junit, reference_store};
use super::{pool_config, store};
use crate::cli::{GlobalArgs, PoolArgs};
use crate::exit::{Exit, bad_input};
use crate::export::{self, Options, junit_runner as run};
use crate::pipeline::export::{load_suite, suite_types};
use crate::report::Report;
use crate::suite::Suite;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

/// `difftest bench export`: exports `suite`, compiles it, runs it with JUnit on the
/// reference, and replays it on the same JVM; prints the times. The export itself and the
/// JUnit jars' download are not measured.
pub fn bench(
    global: &GlobalArgs,
    suite_path: &Path,
    junit_text: &str,
    javac: Option<PathBuf>,
    pool: &PoolArgs,
) -> anyhow::Result<Exit> {
    let junit = junit(junit_text)?;
    let suite = load_suite(suite_path).map_err(|e| e.into_anyhow())?;
    let store = store(global)?;
    let types = suite_types(&suite, Some(reference_store(global)), &Noted);
    let work = tempfile::tempdir()?;
    let options = Options {
        junit,
        out: work.path().join("src"),
        package: Some("difftest.bench".into()),
        tests_per_class: 100,
        force: false,
        strict_messages: false,
    };
    let done = export::export(&suite, suite_path, &types, &options)
        .map_err(|e| bad_input(e.to_string()))?;
    let release = done
        .release
        .ok_or_else(|| bad_input("the suite's header names no Java version"))?;
    let spec = store.load(&suite.header.reference)?;
    let provisioned = store.provision(&spec)?;
    let jars = run::junit_jars(store.cache_dir(), junit, true)?;
    let javac = match javac {
        Some(j) => j,
        None => run::find_javac(release)?,
    };
    let mut classpath = jars.clone();
    classpath.extend(provisioned.jvm.classpath.iter().cloned());
    let classes = work.path().join("classes");
    let compile = run::javac(&javac, release, &classpath, &options.out, &classes)?;
    classpath.insert(0, classes);
    let java = provisioned.jvm.java_home.join("bin/java");
    let ran = run::junit(&java, junit, &classpath, &done.regression_classes)?;
    outln!(
        "export: {} tests in {} classes; javac {:.1} s; JUnit {} run {} tests in {:.1} s \
         ({} failed); javac + JUnit {:.1} s",
        done.tests,
        done.regression_classes.len(),
        compile.as_secs_f64(),
        junit.number(),
        ran.tests,
        ran.elapsed.as_secs_f64(),
        ran.failed.len(),
        (compile + ran.elapsed).as_secs_f64(),
    );
    if !ran.failed.is_empty() {
        let failed: Vec<&str> = ran.failed.iter().map(String::as_str).collect();
        outln!("JUnit: failed: {}", failed.join(", "));
    }
    let replay = bench_replay(global, &suite, suite_path, pool)?;
    let junit_total = (compile + ran.elapsed).as_secs_f64();
    outln!(
        "javac + JUnit {junit_total:.1} s vs replay {replay:.1} s: replay is {:.1}× faster",
        junit_total / replay.max(1e-3)
    );
    Ok(Exit::Success)
}

/// Replays the suite on its reference — the JVM the JUnit run used — with `difftest replay`
/// as a child process (no minimization: nothing should differ) and prints its wall time.
fn bench_replay(
    global: &GlobalArgs,
    suite: &Suite,
    suite_path: &Path,
    pool: &PoolArgs,
) -> anyhow::Result<f64> {
    pool_config(pool)?;
    let reports = tempfile::tempdir()?;
    let reference = &suite.header.reference;
    let mut cmd = super::difftest_child(global)?;
    cmd.args(["replay", "--impl", reference, "--no-minimize", "--suite"])
        .arg(suite_path)
        .arg("--report-dir")
        .arg(reports.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    super::pass_pool_flags(&mut cmd, pool);
    let began = Instant::now();
    super::run_child(cmd, &[0, 1], None)?;
    let wall = began.elapsed().as_secs_f64();
    let json = reports
        .path()
        .join(format!("{reference}-vs-{reference}.json"));
    let report = Report::read(&json)?;
    outln!(
        "replay: {} tests on {reference} in {wall:.1} s ({} differing, {} unstable; \
         {:.1} s replaying, {} workers)",
        report.summary.tests,
        report.summary.differing,
        report.summary.unstable,
        report.stats.replay_seconds,
        report.stats.workers_started,
    );
    let differing: Vec<String> = report
        .tests
        .iter()
        .filter(|t| t.status != crate::report::TestStatus::Pass)
        .map(|t| format!("{} ({:?})", t.id, t.status))
        .collect();
    if !differing.is_empty() {
        outln!("replay: not passing: {}", differing.join(", "));
    }
    Ok(wall)
}
