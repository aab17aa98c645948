//! `difftest accept ID --reason "…" [--impl TGT] [--suite FILE]`: adds the cause or group
//! (found in the replay reports of `--report-dir`) to the suite's accepted list: a cause
//! (`c-…`) as a cause entry that also covers new callees showing the same change, a group
//! (`g-…`) as a group entry. Refused when the
//! environment variable `CI` is set, unless `--force`: CI never accepts on its own.

use crate::cli::AcceptArgs;
use crate::exit::{Exit, bad_input};
use crate::report::{CauseReport, GroupReport, Report};
use crate::triage::accepted::{AcceptedEntry, AcceptedList, CauseKey, path_for, today};
use std::path::{Path, PathBuf};

pub fn run(args: &AcceptArgs) -> anyhow::Result<Exit> {
    if in_ci() && !args.force {
        return Err(bad_input(
            "refusing to accept differences in CI (the environment variable CI is set); accept locally and commit the list, or pass --force",
        ));
    }
    if args.reseal {
        return reseal(args);
    }
    if args.reason.trim().is_empty() {
        return Err(bad_input(
            "--reason must say why the difference is acceptable",
        ));
    }
    let id = args.group.as_deref().unwrap_or_default();
    let (report, found) = find_group(&args.report_dir, id, args.target.as_deref())?;
    let suite = args
        .suite
        .clone()
        .unwrap_or_else(|| PathBuf::from(&report.suite));
    let path = path_for(&suite);
    // Held from the read to the rename: concurrent accepts of one list queue here, so each
    // one edits the list the previous one wrote and no entry is lost.
    let _lock = lock(&path)?;
    let mut list = AcceptedList::load(&path).map_err(|e| bad_input(e.to_string()))?;
    let target = args.target.clone().unwrap_or_else(|| "*".into());
    let (id, callee, kind, cause, callees, what) = match &found {
        Found::Group(g) => (
            g.id.clone(),
            g.callee.clone(),
            g.kind,
            None,
            vec![],
            format!("{} — {}", g.callee, g.kind.describe()),
        ),
        Found::Cause(c) => {
            let callees: Vec<String> = c.callees.iter().map(|m| m.callee.clone()).collect();
            let key = c.change.clone().map(|change| CauseKey {
                label: c.label,
                change,
            });
            (
                c.id.clone(),
                callees.join(", "),
                c.kind,
                key,
                callees,
                format!(
                    "{}: {} — {} callee(s)",
                    c.label.describe(),
                    c.change.as_deref().unwrap_or(""),
                    c.callees.len()
                ),
            )
        }
    };
    list.add(AcceptedEntry {
        group: id.clone(),
        callee,
        kind,
        cause,
        callees,
        target: target.clone(),
        reason: args.reason.trim().to_string(),
        by: args
            .by
            .clone()
            .or_else(|| std::env::var("USER").ok())
            .filter(|s| !s.is_empty()),
        date: Some(today()),
    });
    list.save(&path)?;
    println!(
        "accepted {id} ({what}) for target {target} in {}",
        path.display()
    );
    Ok(Exit::Success)
}

/// Takes the lock guarding the accepted list at `path`.
fn lock(path: &Path) -> anyhow::Result<crate::atomic::FileLock> {
    crate::atomic::lock(path).map_err(|e| {
        anyhow::anyhow!(
            "{}: cannot lock: {e}",
            crate::atomic::lock_path(path).display()
        )
    })
}

/// `accept --reseal --suite FILE`: the list as it is (reviewed by the person running this),
/// written again with a checksum.
fn reseal(args: &AcceptArgs) -> anyhow::Result<Exit> {
    let suite = args.suite.as_deref().unwrap_or(Path::new(""));
    let path = path_for(suite);
    let _lock = lock(&path)?;
    if !path.exists() {
        return Err(bad_input(format!("{}: no accepted list", path.display())));
    }
    let list = AcceptedList::load_unverified(&path).map_err(|e| bad_input(e.to_string()))?;
    list.save(&path)?;
    println!(
        "resealed {} ({} entries)",
        path.display(),
        list.accepted.len()
    );
    Ok(Exit::Success)
}

/// Whether we run under CI (`CI` set to anything but empty, `0` or `false`).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE"))
}

/// A cause of several groups (or with a normalised change), or a group.
enum Found {
    Cause(Box<CauseReport>),
    Group(Box<GroupReport>),
}

/// The report (of `target`, if given) holding the cause or group `id`.
fn find_group(dir: &Path, id: &str, target: Option<&str>) -> anyhow::Result<(Report, Found)> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        bad_input(format!(
            "{}: cannot read the reports: {e} (run difftest replay first)",
            dir.display()
        ))
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut unreadable = None;
    for path in paths {
        let report = match Report::read(&path) {
            Ok(report) => report,
            Err(e) => {
                unreadable.get_or_insert(e.to_string());
                continue;
            }
        };
        if target.is_some_and(|t| t != report.target.name) {
            continue;
        }
        let cause = report
            .causes
            .iter()
            .find(|c| c.id == id && c.change.is_some());
        if let Some(c) = cause.cloned() {
            return Ok((report, Found::Cause(Box::new(c))));
        }
        if let Some(g) = report.groups.iter().find(|g| g.id == id).cloned() {
            return Ok((report, Found::Group(Box::new(g))));
        }
    }
    let whose = target
        .map(|t| format!(" for target {t}"))
        .unwrap_or_default();
    let skipped = unreadable
        .map(|e| format!("; skipped a report: {e}"))
        .unwrap_or_default();
    Err(bad_input(format!(
        "no report in {} has cause or group {id}{whose} (see the replay table){skipped}",
        dir.display()
    )))
}
