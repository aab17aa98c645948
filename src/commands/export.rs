//! `difftest export` (a suite as JUnit source) and `difftest bench export` (javac and JUnit
//! time of an exported suite against replaying it). Flag checks, the reference's API model
//! for declared types, and what is printed; the writing is in [`crate::export`].

use super::{pool_config, store};
use crate::cli::{ExportArgs, GlobalArgs, PoolArgs};
use crate::exit::{Exit, bad_input};
use crate::export::{self, ExportError, Exported, Junit, Options, Types, run};
use crate::report::Report;
use crate::suite::Suite;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

pub fn run(global: &GlobalArgs, args: ExportArgs) -> anyhow::Result<Exit> {
    let options = Options {
        junit: junit(&args.junit)?,
        out: args.out.clone(),
        package: args.package.clone(),
        tests_per_class: args.tests_per_class,
        force: args.force,
        strict_messages: args.strict_messages,
    };
    export::check(&options).map_err(user_error)?;
    let suite = load(&args.suite)?;
    let types = types_for(global, &suite, args.offline);
    let done = export::export(&suite, &args.suite, &types, &options).map_err(user_error)?;
    summary(&done, &options, &types);
    Ok(Exit::Success)
}

fn junit(text: &str) -> anyhow::Result<Junit> {
    Junit::parse(text).ok_or_else(|| {
        bad_input(format!(
            "--junit: unknown JUnit version `{text}` (use 4 or 5)"
        ))
    })
}

fn load(path: &Path) -> anyhow::Result<Suite> {
    Suite::load(path).map_err(|e| bad_input(e.to_string()))
}

/// Everything an export can fail on is the user's: flags, and the output folder they named.
fn user_error(e: ExportError) -> anyhow::Error {
    bad_input(e.to_string())
}

/// Types with the reference's model when it is installed and is the Java the suite was
/// recorded on; otherwise (or `offline`) without, after a note on stderr.
fn types_for(global: &GlobalArgs, suite: &Suite, offline: bool) -> Types {
    if offline {
        return Types::new(suite, None);
    }
    match describe_on_reference(global, suite) {
        Ok(types) => types,
        Err(why) => {
            eprintln!(
                "difftest: note: return types unknown ({why}); call results are declared \
                 with `var`"
            );
            Types::new(suite, None)
        }
    }
}

fn describe_on_reference(global: &GlobalArgs, suite: &Suite) -> Result<Types, String> {
    let mut store = store(global).map_err(|e| e.to_string())?;
    store.set_progress(false);
    crate::pipeline::export::reference_types(&store, suite)
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

fn summary(done: &Exported, options: &Options, types: &Types) {
    println!(
        "wrote {}: {} in {}, {} in {} (JUnit {}{})",
        done.dir.display(),
        plural(done.tests, "regression test"),
        plural(done.regression_classes.len(), "class").replace("classs", "classes"),
        plural(done.error_tests, "error-revealing test"),
        plural(done.error_classes.len(), "class").replace("classs", "classes"),
        options.junit.number(),
        if types.has_model() {
            ""
        } else {
            ", call results declared with var"
        },
    );
    let release = done
        .release
        .map_or_else(|| "the reference's release".into(), |r| r.to_string());
    println!(
        "compile with javac --release {release}; run with {} (see docs/export.md); \
         the error-revealing classes fail by design",
        export::JAVA_PROPERTIES.join(" ")
    );
    skipped(&done.skipped);
}

/// One line per reason: how many tests, and the first ids.
fn skipped(tests: &[(u64, String)]) {
    let mut by_reason: std::collections::BTreeMap<&str, Vec<u64>> = Default::default();
    for (id, why) in tests {
        by_reason.entry(why).or_default().push(*id);
    }
    for (why, ids) in by_reason {
        let first: Vec<String> = ids.iter().take(10).map(u64::to_string).collect();
        let more = if ids.len() > 10 { ", …" } else { "" };
        eprintln!(
            "difftest: skipped {} ({why}): {}{more}",
            plural(ids.len(), "test"),
            first.join(", ")
        );
    }
}

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
    let suite = load(suite_path)?;
    let store = store(global)?;
    let types = types_for(global, &suite, false);
    let work = tempfile::tempdir()?;
    let options = Options {
        junit,
        out: work.path().join("src"),
        package: Some("difftest.bench".into()),
        tests_per_class: 100,
        force: false,
        strict_messages: false,
    };
    let done = export::export(&suite, suite_path, &types, &options).map_err(user_error)?;
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
    println!(
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
        println!("JUnit: failed: {}", failed.join(", "));
    }
    let replay = bench_replay(global, &suite, suite_path, pool)?;
    let junit_total = (compile + ran.elapsed).as_secs_f64();
    println!(
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
    cmd.args(["replay", "--impl", reference, "--no-minimize"])
        .args(pool.timeout.map(|t| format!("--timeout={t}")))
        .arg("--suite")
        .arg(suite_path)
        .arg("--report-dir")
        .arg(reports.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(jobs) = pool.jobs {
        cmd.args(["--jobs", &jobs.to_string()]);
    }
    let began = Instant::now();
    let status = cmd.status()?;
    let wall = began.elapsed().as_secs_f64();
    if !matches!(status.code(), Some(0 | 1)) {
        anyhow::bail!("difftest replay failed with {status}");
    }
    let json = reports
        .path()
        .join(format!("{reference}-vs-{reference}.json"));
    let report = Report::read(&json)?;
    println!(
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
        println!("replay: not passing: {}", differing.join(", "));
    }
    Ok(wall)
}
