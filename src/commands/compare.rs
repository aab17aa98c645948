//! `difftest compare --impl A,B`: both directions of the experiment in one command. A suite
//! recorded on A cannot call what only B has, nor reach what only B's API leads to; so
//! compare records on each (the same record flags: seed, budget, scope), replays A's suite
//! on B and B's suite on A, writes both replay reports, and sums them up read from A to B
//! in `compare-A-to-B.{md,json}`: behaviour that changed (from either suite), API added in
//! B (missing when B's suite runs on A) and API removed (missing when A's runs on B).

use super::record::record;
use super::replay::{exit_of, replay_reports};
use crate::cli::{CompareArgs, GlobalArgs, RecordArgs, ReplayArgs};
use crate::exit::{Exit, bad_input};
use crate::pipeline::compare::{summarise, summary_line, write};
use crate::report::Report;
use clap::Parser;
use std::path::Path;

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
    let record_a = record_args(a, &args.oracles, &args.record_flags)?;
    let record_b = record_args(b, &args.oracles, &args.record_flags)?;
    for rec in [&record_a, &record_b] {
        if record(global, rec)?.partial {
            return Ok(Exit::Interrupted);
        }
    }
    let forward = replay_one(global, &record_a, b, &args.report_dir)?;
    let reverse = replay_one(global, &record_b, a, &args.report_dir)?;
    let comparison = summarise(&forward, &reverse);
    let written = write(&comparison, &args.report_dir)?;
    super::replay::print(std::slice::from_ref(&forward), global.wide);
    super::replay::print(std::slice::from_ref(&reverse), global.wide);
    println!("{}", summary_line(&comparison));
    eprintln!("difftest: wrote {}", written.display());
    Ok(exit_of(&[forward, reverse]))
}

/// The record flags for one side, parsed as `record` parses them.
fn record_args(name: &str, oracles: &Path, flags: &[String]) -> anyhow::Result<RecordArgs> {
    let output = oracles.join(format!("{name}.yaml"));
    let mut line = vec!["--impl".to_string(), name.to_string(), "--output".into()];
    line.push(output.display().to_string());
    line.extend(flags.iter().cloned());
    RecordFlags::try_parse_from(&line)
        .map(|f| f.args)
        .map_err(|e| bad_input(first_line(&e.to_string())))
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    format!(
        "compare's record flags: {}",
        line.trim_start_matches("error: ")
    )
}

/// Replays the suite `rec` wrote on `target`, with the record's --jobs and --timeout.
fn replay_one(
    global: &GlobalArgs,
    rec: &RecordArgs,
    target: &str,
    report_dir: &Path,
) -> anyhow::Result<Report> {
    let suite = rec.output.clone().expect("compare always names the output");
    let mut line: Vec<String> = vec!["--impl".into(), target.into(), "--suite".into()];
    line.push(suite.display().to_string());
    line.extend(["--report-dir".into(), report_dir.display().to_string()]);
    if let Some(timeout) = rec.pool.timeout {
        line.extend(["--timeout".into(), timeout.to_string()]);
    }
    if let Some(jobs) = rec.pool.jobs {
        line.extend(["--jobs".into(), jobs.to_string()]);
    }
    let args = ReplayFlags::try_parse_from(&line)
        .map_err(|e| bad_input(first_line(&e.to_string())))?
        .args;
    let mut reports = replay_reports(global, &args)?;
    Ok(reports.remove(0))
}
