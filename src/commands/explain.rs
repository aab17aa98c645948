//! `difftest explain ID`: prints a group of a replay report (its Java, both recorded
//! values) and, unless `--no-rerun`, what the reference and the target do with it now
//! ([`crate::pipeline::explain`] finds and reruns it).

use super::{pool_config, store};
use crate::cli::{ExplainArgs, GlobalArgs};
use crate::exit::Exit;
use crate::pipeline::explain::{Explained, Plan, explain};
use crate::report::GroupReport;

pub fn run(global: &GlobalArgs, args: &ExplainArgs) -> anyhow::Result<Exit> {
    let config = pool_config(&args.pool)?;
    let plan = Plan {
        report_dir: args.report_dir.clone(),
        id: args.id.clone(),
        rerun: !args.no_rerun,
    };
    let store = store(global)?;
    let explained = explain(&store, &plan, &config).map_err(|e| e.into_anyhow())?;
    print_group(&explained);
    let Some(reruns) = explained.reruns else {
        return Ok(Exit::Success);
    };
    outln!("\nrerun now:");
    for run in reruns.map_err(|e| e.into_anyhow())? {
        let verdict = if run.matches_recording {
            "as recorded on the reference"
        } else {
            "differs from the recording"
        };
        outln!("  {}: {}  ({verdict})", run.target, run.value);
    }
    Ok(Exit::Success)
}

/// The group, its cause's other groups and its example as Java.
fn print_group(e: &Explained) {
    let (r, g) = (&e.report, &e.group);
    outln!("{} — {} vs {}", g.id, r.target.name, r.reference.name);
    outln!("cause:   {}", g.cause);
    outln!("callee:  {}", g.callee);
    outln!("kind:    {} ({})", g.kind.describe(), g.label.describe());
    outln!(
        "status:  {:?}, {}",
        g.status,
        crate::plural(g.tests, "test")
    );
    outln!("REF ({}): {}", r.reference.name, g.ref_value);
    outln!("TGT ({}): {}", r.target.name, g.tgt_value);
    print_cause_groups(&e.cause_groups, g);
    let (heading, lines) = &e.example;
    outln!("\n{heading}:\n");
    for line in lines {
        outln!("    {line}");
    }
}

/// The groups of the shown group's cause when it has more than one: id, tests, callee and
/// both values, the shown one marked.
fn print_cause_groups(groups: &[GroupReport], shown: &GroupReport) {
    if groups.len() < 2 {
        return;
    }
    let tests: usize = groups.iter().map(|g| g.tests).sum();
    outln!(
        "\ncause {}: {} groups, {}; this one is marked >",
        shown.cause,
        groups.len(),
        crate::plural(tests, "test")
    );
    for g in groups {
        let mark = if g.id == shown.id { ">" } else { " " };
        outln!(
            "{mark} {}  {:>6}  {}  {} → {}",
            g.id,
            g.tests,
            g.callee,
            crate::text::shorten(&g.ref_value, 40),
            crate::text::shorten(&g.tgt_value, 40)
        );
    }
}
