//! The accept pipeline: finds a cause or group in the replay reports of a folder and adds it
//! to the suite's accepted list — a cause (`c-…`) as a cause entry that also covers new
//! callees showing the same change, a group (`g-…`) as a group entry — under the list's lock,
//! held from the read to the rename, so concurrent accepts of one list queue and no entry is
//! lost. An entry is keyed by the id or cause accepted: an accept never replaces another
//! entry, and one already covered changes nothing and says so. [`reseal`] writes a reviewed
//! list again with its checksum.

use super::Error;
use crate::report::{CauseReport, GroupReport, Report};
use crate::triage::accepted::{AcceptedEntry, AcceptedList, CauseKey, path_for, today};
use std::path::{Path, PathBuf};

/// What `accept` will do.
pub struct Plan {
    /// The folder of the replay reports to look in.
    pub report_dir: PathBuf,
    /// A cause (`c-…`) or group (`g-…`) id.
    pub id: String,
    /// Only the reports of this target, and the entry for it alone (else for every target).
    pub target: Option<String>,
    /// The suite whose list to edit; else the suite the report names.
    pub suite: Option<PathBuf>,
    /// Why the change is accepted, written into the entry.
    pub reason: String,
    /// Who accepts, if known.
    pub by: Option<String>,
}

/// What was accepted, and where.
pub struct Accepted {
    /// The cause (`c-…`) or group (`g-…`) accepted.
    pub id: String,
    /// The callee and kind of a group, or the label and change of a cause.
    pub what: String,
    /// The target the entry covers (`*`: every target).
    pub target: String,
    /// The accepted list written (or left as it was).
    pub path: PathBuf,
    /// Set when an entry already accepted this (for this target or `*`): its target and
    /// reason; the list was not written.
    pub already: Option<(String, String)>,
}

/// Adds the cause or group of `plan` to its suite's accepted list.
pub fn accept(plan: &Plan) -> Result<Accepted, Error> {
    let (report, found) = find(&plan.report_dir, &plan.id, plan.target.as_deref())?;
    let suite = plan
        .suite
        .clone()
        .unwrap_or_else(|| PathBuf::from(&report.suite));
    let path = path_for(&suite);
    let _lock = lock(&path)?;
    crate::atomic::remove_stale_temporaries(&path);
    let mut list = AcceptedList::load(&path).map_err(|e| Error::BadInput(e.to_string()))?;
    let target = plan.target.clone().unwrap_or_else(|| "*".into());
    let (mut entry, what) = match &found {
        Found::Group(g) => (
            entry(&g.id, g.callee.clone(), g.kind),
            format!("{} — {}", g.callee, g.kind.describe()),
        ),
        Found::Cause(c) => {
            let callees: Vec<String> = c.callees.iter().map(|m| m.callee.clone()).collect();
            let mut e = entry(&c.id, callees.join(", "), c.kind);
            e.cause = c.change.clone().map(|change| CauseKey {
                label: c.label,
                change,
            });
            e.callees = callees;
            let change = c.change.as_deref().unwrap_or("");
            let n = c.callees.len();
            (
                e,
                format!(
                    "{}: {change} — {}",
                    c.label.describe(),
                    crate::plural::plural(n, "callee")
                ),
            )
        }
    };
    entry.target = target.clone();
    entry.reason = plan.reason.trim().to_string();
    entry.by = plan.by.clone().filter(|s| !s.is_empty());
    let id = entry.group.clone();
    let already = list
        .add(entry)
        .map(|e| (e.target.clone(), e.reason.clone()));
    if already.is_none() {
        list.save(&path)?;
    }
    Ok(Accepted {
        id,
        what,
        target,
        path,
        already,
    })
}

/// An entry for `id` with no target, reason or author yet.
fn entry(id: &str, callee: String, kind: crate::compare::Kind) -> AcceptedEntry {
    AcceptedEntry {
        group: id.to_string(),
        callee,
        kind,
        cause: None,
        callees: vec![],
        target: String::new(),
        reason: String::new(),
        by: None,
        date: Some(today()),
    }
}

/// The accepted list of `suite` as it is (reviewed by the person running this), written again
/// with a checksum; returns its path and number of entries.
pub fn reseal(suite: &Path) -> Result<(PathBuf, usize), Error> {
    let path = path_for(suite);
    let _lock = lock(&path)?;
    crate::atomic::remove_stale_temporaries(&path);
    if !path.exists() {
        return Err(Error::BadInput(format!(
            "{}: no accepted list",
            path.display()
        )));
    }
    let list = AcceptedList::load_unverified(&path).map_err(|e| Error::BadInput(e.to_string()))?;
    list.save(&path)?;
    Ok((path, list.accepted.len()))
}

/// Takes the lock guarding the accepted list at `path`.
fn lock(path: &Path) -> Result<crate::atomic::FileLock, Error> {
    crate::atomic::lock(path).map_err(|source| Error::Lock {
        path: crate::atomic::lock_path(path),
        source,
    })
}

/// A cause of several groups (or with a normalised change), or a group.
enum Found {
    Cause(Box<CauseReport>),
    Group(Box<GroupReport>),
}

/// The report (of `target`, if given) holding the cause or group `id`.
fn find(dir: &Path, id: &str, target: Option<&str>) -> Result<(Report, Found), Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::BadInput(format!(
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
    Err(Error::BadInput(format!(
        "no report in {} has cause or group {id}{whose} (see the replay table){skipped}",
        dir.display()
    )))
}
