//! `difftest report --merge PART.json…`: merges the JSON reports of the shards of a replay
//! (per target), writes the merged reports, prints the table or matrix, and exits by the
//! gate like `replay` does. A missing shard is refused unless `--allow-partial`.
//! `difftest report --summary REPORT.json…`: one page across whole replays (a CI matrix of
//! release pairs), exit by the worst gate, 3 when fewer reports came than `--expect`. The
//! work is [`crate::pipeline::report`]'s; this file prints what comes back.

use super::replay::{Shown, exit_of, print};
use crate::cli::ReportArgs;
use crate::exit::Exit;
use crate::pipeline::report::{merge, summary};
use crate::report::Report;

pub fn run(global: &crate::cli::GlobalArgs, args: &ReportArgs) -> anyhow::Result<Exit> {
    let shown = Shown::default();
    if !args.summary.is_empty() {
        let done = summary(&args.summary, args.expect, &args.report_dir, &shown)
            .map_err(|e| e.into_anyhow())?;
        return Ok(print_summary(done));
    }
    let merged = merge(&args.merge, args.allow_partial, &args.report_dir, &shown)
        .map_err(|e| e.into_anyhow())?;
    print(&merged, global.wide);
    Ok(exit_of(&merged))
}

/// Prints the summary's table and the verdict.
fn print_summary(done: crate::pipeline::report::Summary) -> Exit {
    let missing = done.missing;
    out!("{}", crate::report::summary::markdown(&done.pairs, missing));
    let reports: Vec<Report> = done.pairs.into_iter().map(|p| p.report).collect();
    // A pair that sent no report is an infrastructure failure, whatever the others say.
    if missing > 0 {
        Exit::Infrastructure
    } else {
        exit_of(&reports)
    }
}
