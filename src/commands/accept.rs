//! `difftest accept ID --reason "…" [--impl TGT] [--suite FILE]`: the flags checked, then
//! [`crate::pipeline::accept`] adds the cause or group (found in the replay reports of
//! `--report-dir`) to the suite's accepted list; `--reseal` writes a reviewed list again.
//! Refused when the environment variable `CI` is set, unless `--force`: CI never accepts on
//! its own.

use crate::cli::AcceptArgs;
use crate::exit::{Exit, bad_input};
use crate::pipeline::accept::{Plan, accept, reseal};
use std::path::Path;

pub fn run(args: &AcceptArgs) -> anyhow::Result<Exit> {
    if in_ci() && !args.force {
        return Err(bad_input(
            "refusing to accept differences in CI (the environment variable CI is set); accept locally and commit the list, or pass --force",
        ));
    }
    if args.reseal {
        let suite = args.suite.as_deref().unwrap_or(Path::new(""));
        let (path, entries) = reseal(suite).map_err(|e| e.into_anyhow())?;
        outln!("resealed {} ({entries} entries)", path.display());
        return Ok(Exit::Success);
    }
    if args.reason.trim().is_empty() {
        return Err(bad_input(
            "--reason must say why the difference is acceptable",
        ));
    }
    let plan = Plan {
        report_dir: args.report_dir.clone(),
        id: args.group.clone().unwrap_or_default(),
        target: args.target.clone(),
        suite: args.suite.clone(),
        reason: args.reason.clone(),
        by: args.by.clone().or_else(|| std::env::var("USER").ok()),
    };
    let done = accept(&plan).map_err(|e| e.into_anyhow())?;
    if let Some((target, reason)) = &done.already {
        outln!(
            "already accepted: {} ({}) for target {target} in {} (reason: {reason}); nothing changed",
            done.id,
            done.what,
            done.path.display()
        );
        return Ok(Exit::Success);
    }
    outln!(
        "accepted {} ({}) for target {} in {}",
        done.id,
        done.what,
        done.target,
        done.path.display()
    );
    Ok(Exit::Success)
}

/// Whether we run under CI (`CI` set to anything but empty, `0` or `false`).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE"))
}
