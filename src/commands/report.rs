//! `difftest report --merge PART.json…`: merges the JSON reports of the shards of a replay
//! (per target), writes the merged reports, prints the table or matrix, and exits by the
//! gate like `replay` does. A missing shard is refused unless `--allow-partial`.

use super::replay::{exit_of, print};
use crate::cli::ReportArgs;
use crate::exit::{Exit, bad_input};
use crate::report::Report;
use crate::report::merge::merge;
use std::collections::BTreeMap;

pub fn run(global: &crate::cli::GlobalArgs, args: &ReportArgs) -> anyhow::Result<Exit> {
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
