//! `difftest report --merge PART.json…`: merges the JSON reports of the shards of a replay
//! (per target), writes the merged reports, prints the table or matrix, and exits by the
//! gate like `replay` does. A missing shard is refused unless `--allow-partial`.
//! `difftest report --summary REPORT.json…`: one page across whole replays (a CI matrix of
//! release pairs), exit by the worst gate, 3 when fewer reports came than `--expect`.

use super::replay::{exit_of, print};
use crate::cli::ReportArgs;
use crate::exit::{Exit, bad_input};
use crate::report::Report;
use crate::report::merge::merge;
use std::collections::BTreeMap;

pub fn run(global: &crate::cli::GlobalArgs, args: &ReportArgs) -> anyhow::Result<Exit> {
    // A folder that cannot take the files is said before any report is read, as replay does.
    let what = match args.summary.is_empty() {
        true => "the merged reports",
        false => "the summary",
    };
    crate::pipeline::folder::check_writable(&args.report_dir).map_err(|e| {
        bad_input(format!(
            "--report-dir {}: cannot write {what} there: {e}",
            args.report_dir.display()
        ))
    })?;
    if !args.summary.is_empty() {
        return summary(args);
    }
    let mut by_target: BTreeMap<String, Vec<Report>> = BTreeMap::new();
    for path in &args.merge {
        let report = Report::read(path).map_err(|e| bad_input(e.to_string()))?;
        by_target
            .entry(report.target.name.clone())
            .or_default()
            .push(report);
    }
    let mut merged = Vec::new();
    for (_, parts) in by_target {
        let report = merge(parts, args.allow_partial).map_err(|e| bad_input(e.to_string()))?;
        let written = report.write_all(&args.report_dir)?;
        let shown: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        eprintln!("difftest: wrote {}", shown.join(", "));
        merged.push(report);
    }
    print(&merged, global.wide);
    Ok(exit_of(&merged))
}

/// Reads every pair's report, writes the summary, prints its table and the verdict.
fn summary(args: &ReportArgs) -> anyhow::Result<Exit> {
    use crate::report::summary::{Pair, markdown, write};
    let mut pairs = Vec::new();
    for path in &args.summary {
        pairs.push(Pair::read(path, &args.report_dir).map_err(|e| bad_input(e.to_string()))?);
    }
    let missing = args.expect.unwrap_or(0).saturating_sub(pairs.len());
    let written = write(&args.report_dir, &pairs, missing)?;
    let shown: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    eprintln!("difftest: wrote {}", shown.join(", "));
    print!("{}", markdown(&pairs, missing));
    let reports: Vec<Report> = pairs.into_iter().map(|p| p.report).collect();
    // A pair that sent no report is an infrastructure failure, whatever the others say.
    Ok(if missing > 0 {
        Exit::Infrastructure
    } else {
        exit_of(&reports)
    })
}
