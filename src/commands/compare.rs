//! `difftest compare --impl A,B`: both directions of the experiment in one command. A suite
//! recorded on A cannot call what only B has, nor reach what only B's API leads to; so
//! compare records on each (the same record flags: seed, budget, scope), replays A's suite
//! on B and B's suite on A, writes both replay reports, and sums them up read from A to B
//! in `compare-A-to-B.{md,json}`: behaviour that changed (from either suite), API added in
//! B (missing when B's suite runs on A) and API removed (missing when A's runs on B).

use super::record::record;
use super::replay::{exit_of, replay_reports};
use crate::cli::{CompareArgs, GlobalArgs, RecordArgs, ReplayArgs};
use crate::compare::Kind;
use crate::exit::{Exit, bad_input};
use crate::report::{GroupReport, GroupStatus, Report};
use clap::Parser;
use serde::Serialize;
use std::path::{Path, PathBuf};

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

/// One row of the summary, read from A to B.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Change {
    /// The group in its replay report.
    pub group: String,
    /// `A's suite on B` or `B's suite on A`.
    pub seen_by: String,
    pub callee: String,
    pub kind: Kind,
    pub status: GroupStatus,
    pub tests: usize,
    /// The value on A.
    pub before: String,
    /// The value on B.
    pub after: String,
}

/// `compare-A-to-B.json`.
#[derive(Serialize, Debug)]
pub struct Comparison {
    pub older: String,
    pub newer: String,
    /// The two replay reports, by file name.
    pub reports: Vec<String>,
    pub changed: Vec<Change>,
    pub added: Vec<Change>,
    pub removed: Vec<Change>,
    pub gate: crate::report::Gate,
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
        let outcome = record(global, rec)?;
        if outcome.partial {
            std::process::exit(130);
        }
    }
    let forward = replay_one(global, &record_a, b, &args.report_dir)?;
    let reverse = replay_one(global, &record_b, a, &args.report_dir)?;
    let comparison = summarise(&forward, &reverse);
    let written = write(&comparison, &args.report_dir)?;
    super::replay::print(std::slice::from_ref(&forward));
    super::replay::print(std::slice::from_ref(&reverse));
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

/// Reads both reports from A to B.
pub fn summarise(forward: &Report, reverse: &Report) -> Comparison {
    let (a, b) = (&forward.reference.name, &forward.target.name);
    let mut comparison = Comparison {
        older: a.clone(),
        newer: b.clone(),
        reports: vec![
            format!("{}.json", forward.stem()),
            format!("{}.json", reverse.stem()),
        ],
        changed: Vec::new(),
        added: Vec::new(),
        removed: Vec::new(),
        gate: exit_gate(forward, reverse),
    };
    for g in &forward.groups {
        let change = change(g, format!("{a}'s suite on {b}"), false);
        match g.kind {
            Kind::Missing => comparison.removed.push(change),
            _ => comparison.changed.push(change),
        }
    }
    for g in &reverse.groups {
        let change = change(g, format!("{b}'s suite on {a}"), true);
        match g.kind {
            Kind::Missing => comparison.added.push(change),
            _ => comparison.changed.push(change),
        }
    }
    comparison
}

fn exit_gate(forward: &Report, reverse: &Report) -> crate::report::Gate {
    match exit_of(&[forward.clone(), reverse.clone()]) {
        Exit::Success => crate::report::Gate::Pass,
        _ => crate::report::Gate::Fail,
    }
}

fn change(g: &GroupReport, seen_by: String, reverse: bool) -> Change {
    let (before, after) = if reverse {
        (g.tgt_value.clone(), g.ref_value.clone())
    } else {
        (g.ref_value.clone(), g.tgt_value.clone())
    };
    Change {
        group: g.id.clone(),
        seen_by,
        callee: g.callee.clone(),
        kind: g.kind,
        status: g.status,
        tests: g.tests,
        before,
        after,
    }
}

fn summary_line(c: &Comparison) -> String {
    let new = |v: &[Change]| v.iter().filter(|c| c.status == GroupStatus::New).count();
    format!(
        "{} -> {}: {} changed behaviour group(s) ({} new), {} API added, {} API removed; gate: {}",
        c.older,
        c.newer,
        c.changed.len(),
        new(&c.changed),
        c.added.len(),
        c.removed.len(),
        match c.gate {
            crate::report::Gate::Pass => "PASS",
            crate::report::Gate::Fail => "FAIL",
        }
    )
}

/// Writes `compare-A-to-B.{json,md}`; returns the Markdown's path.
fn write(c: &Comparison, dir: &Path) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let stem = dir.join(format!("compare-{}-to-{}", c.older, c.newer));
    let json = stem.with_extension("json");
    crate::atomic::write(&json, serde_json::to_string_pretty(c)?)?;
    let md = stem.with_extension("md");
    crate::atomic::write(&md, markdown(c))?;
    Ok(md)
}

fn markdown(c: &Comparison) -> String {
    let mut out = format!("# {} → {}\n\n{}\n", c.older, c.newer, summary_line(c));
    out.push_str(&format!(
        "\nDetails and minimized examples: {}.\n",
        c.reports.join(", ")
    ));
    let sections = [
        ("Behaviour that changed", &c.changed),
        ("API added", &c.added),
        ("API removed", &c.removed),
    ];
    for (title, rows) in sections {
        out.push_str(&format!("\n## {title} ({})\n\n", rows.len()));
        if rows.is_empty() {
            out.push_str("None.\n");
            continue;
        }
        out.push_str(&format!(
            "| group | status | seen by | method | kind | {} | {} | tests |\n|---|---|---|---|---|---|---|---:|\n",
            c.older, c.newer
        ));
        for r in rows.iter() {
            out.push_str(&format!(
                "| {} | {:?} | {} | `{}` | {} | `{}` | `{}` | {} |\n",
                r.group,
                r.status,
                r.seen_by,
                r.callee,
                r.kind.name(),
                cell(&r.before),
                cell(&r.after),
                r.tests
            ));
        }
    }
    out
}

/// A value in a Markdown table cell: one line, pipes and backticks escaped, shortened.
fn cell(text: &str) -> String {
    let one: String = text
        .replace('|', "\\|")
        .replace('`', "'")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    if one.chars().count() > 80 {
        format!("{}…", one.chars().take(79).collect::<String>())
    } else {
        one
    }
}
