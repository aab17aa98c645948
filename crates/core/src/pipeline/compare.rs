//! Two replay reports read from A to B, for `difftest compare --impl A,B`: behaviour that
//! changed (seen by either suite), API added in B (missing when B's suite runs on A) and
//! API removed (missing when A's suite runs on B); written as `compare-A-to-B.{json,md}`.

mod both_ways;
pub use both_ways::{Compared, Plan, Progress, Side, compare};

use crate::compare::Kind;
use crate::report::{Gate, GroupReport, GroupStatus, Report};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One row of the summary, read from A to B.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Change {
    /// The group in its replay report.
    pub group: String,
    /// `A's suite on B` or `B's suite on A`.
    pub seen_by: String,
    /// The call whose outcome differs.
    pub callee: String,
    /// What differs.
    pub kind: Kind,
    /// The group's status in its report.
    pub status: GroupStatus,
    /// Tests of the group.
    pub tests: usize,
    /// The value on A.
    pub before: String,
    /// The value on B.
    pub after: String,
}

/// `compare-A-to-B.json`.
#[derive(Serialize, Debug)]
pub struct Comparison {
    /// A, read as the older implementation.
    pub older: String,
    /// B, read as the newer implementation.
    pub newer: String,
    /// The two replay reports, by file name.
    pub reports: Vec<String>,
    /// Behaviour that differs, from either suite.
    pub changed: Vec<Change>,
    /// API of B missing on A (B's suite on A).
    pub added: Vec<Change>,
    /// API of A missing on B (A's suite on B).
    pub removed: Vec<Change>,
    /// Fail when either replay fails its gate.
    pub gate: Gate,
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

/// Fails when either report's gate fails.
fn exit_gate(forward: &Report, reverse: &Report) -> Gate {
    if [forward, reverse].iter().any(|r| r.gate == Gate::Fail) {
        Gate::Fail
    } else {
        Gate::Pass
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

/// The one-line summary printed last.
pub fn summary_line(c: &Comparison) -> String {
    let new = |v: &[Change]| v.iter().filter(|c| c.status == GroupStatus::New).count();
    format!(
        "{} -> {}: {} ({} new), {} API added, {} API removed; gate: {}",
        c.older,
        c.newer,
        crate::plural::plural(c.changed.len(), "changed behaviour group"),
        new(&c.changed),
        c.added.len(),
        c.removed.len(),
        match c.gate {
            Gate::Pass => "PASS",
            Gate::Fail => "FAIL",
        }
    )
}

/// Writes `compare-A-to-B.{json,md}`; returns the Markdown's path.
pub fn write(c: &Comparison, dir: &Path) -> std::io::Result<PathBuf> {
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
