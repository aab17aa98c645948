//! `difftest compare --impl A,B`: both directions of the experiment in one command. A suite
//! recorded on A cannot call what only B has, nor reach what only B's API leads to; so
//! compare records on each (the same record flags: seed, budget, scope), replays A's suite
//! on B and B's suite on A, writes both replay reports, and sums them up read from A to B
//! in `compare-A-to-B.{md,json}`: behaviour that changed (from either suite), API added in
//! B (missing when B's suite runs on A) and API removed (missing when A's runs on B). The
//! flags become a plan for [`crate::pipeline::compare::compare`]; this file shows its
//! progress and prints the two tables and the summary line.

use super::record::{self, Shown as RecordShown};
use super::replay::{self, Shown as ReplayShown, exit_of};
use super::{pool_config, store};
use crate::cli::{CompareArgs, GlobalArgs, RecordArgs, ReplayArgs};
use crate::exit::{Exit, bad_input};
use crate::pipeline::compare::{Compared, Plan, Progress, Side, compare, summary_line};
use crate::pipeline::record::{Plan as RecordPlan, Recording};
use crate::pipeline::replay::Progress as ReplayProgress;
use clap::Parser;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Parser)]
#[command(name = "difftest compare --", no_binary_name = true)]
struct RecordFlags {
    #[command(flatten)]
    args: RecordArgs,
}

#[derive(Parser)]
#[command(no_binary_name = true)]
struct ReplayFlags {
    #[command(flatten)]
    args: ReplayArgs,
}

pub fn run(global: &GlobalArgs, args: &CompareArgs) -> anyhow::Result<Exit> {
    let [a, b] = args.impls.as_slice() else {
        return Err(bad_input(format!(
            "--impl takes two implementations, A,B (got {})",
            args.impls.len()
        )));
    };
    if a == b {
        return Err(bad_input(format!("--impl {a},{b}: the two must differ")));
    }
    let rec = record_args(a, &args.oracles, &args.record_flags)?;
    let sides = [side(&rec, a, &args.oracles)?, side(&rec, b, &args.oracles)?];
    let replay_args = replay_args(&rec, args)?;
    let plan = Plan {
        sides,
        record: record::setup::plan(&rec)?,
        record_pool: record::pool(&rec)?,
        replay: replay::plan(&replay_args),
        replay_pool: pool_config(&replay_args.pool)?,
    };
    let mut shown = Shown {
        no_progress: rec.no_progress,
        verbose: global.verbose > 0,
        replay: ReplayShown::new(rec.no_progress),
    };
    let compared = compare(&store(global)?, plan, &mut shown).map_err(|e| e.into_anyhow())?;
    let Compared::Done {
        forward,
        reverse,
        comparison,
        written,
    } = compared
    else {
        return Ok(Exit::Interrupted);
    };
    replay::print(std::slice::from_ref(&forward), global.wide);
    replay::print(std::slice::from_ref(&reverse), global.wide);
    outln!("{}", summary_line(&comparison));
    eprintln!("difftest: wrote {}", written.display());
    Ok(exit_of(&[*forward, *reverse]))
}

/// The record flags, parsed as `record` parses them, with A as the reference.
fn record_args(name: &str, oracles: &Path, flags: &[String]) -> anyhow::Result<RecordArgs> {
    let mut line = vec!["--impl".to_string(), name.to_string(), "--output".into()];
    line.push(suite_named(oracles, name).display().to_string());
    line.extend(flags.iter().cloned());
    RecordFlags::try_parse_from(&line)
        .map(|f| f.args)
        .map_err(|e| bad_input(first_line(&e.to_string())))
}

/// `DIR/NAME.yaml`, the suite `compare` records on `name` before `--compress`.
fn suite_named(oracles: &Path, name: &str) -> PathBuf {
    oracles.join(format!("{name}.yaml"))
}

/// One side: its name and where its suite goes, as `record` would write it (checked writable).
fn side(rec: &RecordArgs, name: &str, oracles: &Path) -> anyhow::Result<Side> {
    let mut args = rec.clone();
    args.reference = name.to_string();
    args.output = Some(suite_named(oracles, name));
    Ok(Side {
        name: name.to_string(),
        suite: record::setup::output(&args)?,
    })
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    format!(
        "compare's record flags: {}",
        line.trim_start_matches("error: ")
    )
}

/// The replays' flags: the replay defaults, with the record's --jobs and --timeout.
fn replay_args(rec: &RecordArgs, args: &CompareArgs) -> anyhow::Result<ReplayArgs> {
    let mut line: Vec<String> = vec!["--impl".into(), args.impls.join(",")];
    line.extend(["--report-dir".into(), args.report_dir.display().to_string()]);
    if let Some(timeout) = rec.pool.timeout {
        line.extend(["--timeout".into(), timeout.to_string()]);
    }
    if let Some(jobs) = rec.pool.jobs {
        line.extend(["--jobs".into(), jobs.to_string()]);
    }
    ReplayFlags::try_parse_from(&line)
        .map(|f| f.args)
        .map_err(|e| bad_input(first_line(&e.to_string())))
}

/// Each record's progress and summary, as `record` shows them; each replay's, as `replay`
/// (`--no-progress` silences both)
struct Shown {
    no_progress: bool,
    verbose: bool,
    replay: ReplayShown,
}

impl ReplayProgress for Shown {
    fn replaying(&self, target: &str, tests: usize) {
        self.replay.replaying(target, tests)
    }
    fn replayed(&self, done: usize, tests: usize, elapsed: Duration) {
        self.replay.replayed(done, tests, elapsed)
    }
    fn replay_done(&self, tests: usize) {
        self.replay.replay_done(tests)
    }
    fn wrote(&self, paths: &[PathBuf]) {
        self.replay.wrote(paths)
    }
}

impl Progress for Shown {
    type Record = RecordShown;

    fn recording(&mut self, plan: &RecordPlan) -> RecordShown {
        RecordShown::new(plan, self.no_progress)
    }

    fn recorded(&mut self, output: &Path, recording: &Recording, shown: RecordShown) {
        record::summary(output, recording, &shown, self.verbose);
    }
}
