//! `difftest explain ID`: prints a group of a replay report (its Java, both recorded
//! values) and, unless `--no-rerun`, what the reference and the target do with it now.

use super::{pool_config, store};
use crate::cli::{ExplainArgs, GlobalArgs};
use crate::exit::{Exit, bad_input};
use crate::explain::{ExplainError, cause_groups, find, rerun};
use crate::report::{GroupReport, Report};

pub fn run(global: &GlobalArgs, args: &ExplainArgs) -> anyhow::Result<Exit> {
    let config = pool_config(&args.pool)?;
    let found = find(&args.report_dir, &args.id).map_err(|e| match e {
        ExplainError::NotFound { .. } | ExplainError::Report(_) | ExplainError::Dir { .. } => {
            bad_input(e.to_string())
        }
        other => other.into(),
    })?;
    let (r, g) = (&found.report, &found.group);
    println!("{} — {} vs {}", g.id, r.target.name, r.reference.name);
    println!("cause:   {}", g.cause);
    println!("callee:  {}", g.callee);
    println!("kind:    {} ({})", g.kind.describe(), g.label.describe());
    println!(
        "status:  {:?}, {}",
        g.status,
        crate::plural::plural(g.tests, "test")
    );
    println!("REF ({}): {}", r.reference.name, g.ref_value);
    println!("TGT ({}): {}", r.target.name, g.tgt_value);
    print_cause_groups(r, g);
    let (heading, lines) = crate::report::markdown::example_java(g);
    println!("\n{heading}:\n");
    for line in lines {
        println!("    {line}");
    }
    if args.no_rerun {
        return Ok(Exit::Success);
    }
    println!("\nrerun now:");
    let store = store(global)?;
    for run in rerun(&store, &found, &config)? {
        let verdict = if run.matches_recording {
            "as recorded on the reference"
        } else {
            "differs from the recording"
        };
        println!("  {}: {}  ({verdict})", run.target, run.value);
    }
    Ok(Exit::Success)
}

/// The groups of the shown group's cause when it has more than one: id, tests, callee and
/// both values, the shown one marked.
fn print_cause_groups(r: &Report, shown: &GroupReport) {
    let groups = cause_groups(r, shown);
    if groups.len() < 2 {
        return;
    }
    let tests: usize = groups.iter().map(|g| g.tests).sum();
    println!(
        "\ncause {}: {} groups, {}; this one is marked >",
        shown.cause,
        groups.len(),
        crate::plural::plural(tests, "test")
    );
    for g in groups {
        let mark = if g.id == shown.id { ">" } else { " " };
        println!(
            "{mark} {}  {:>6}  {}  {} → {}",
            g.id,
            g.tests,
            g.callee,
            crate::text::shorten(&g.ref_value, 40),
            crate::text::shorten(&g.tgt_value, 40)
        );
    }
}
