//! `difftest explain ID`: prints a group of a replay report (its Java, both recorded
//! values) and, unless `--no-rerun`, what the reference and the target do with it now.

use super::{pool_config, store};
use crate::cli::{ExplainArgs, GlobalArgs};
use crate::exit::{Exit, bad_input};
use crate::explain::{ExplainError, find, rerun};

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
