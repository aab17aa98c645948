//! The table on stdout: one row per root cause, then a summary line; and the matrix
//! table of one suite replayed on several targets, with a column per target and, with
//! three or more implementations, the odd one out of each group ([`super::matrix`]).

use super::text::{shorten, target_cell};
use super::{CauseReport, GroupStatus, Report};
use crate::plural::plural;
use crate::triage::label::Label;
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use std::collections::BTreeMap;

/// Widest value shown in a cell (the Markdown and JSON reports have them whole).
pub(crate) const CELL: usize = 48;
/// Rows shown on stdout (new groups come first); the Markdown and JSON reports have all.
pub(crate) const ROWS: usize = 40;

pub(crate) fn new_table(header: Vec<String>) -> Table {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(header);
    table
}

fn status_word(s: GroupStatus) -> &'static str {
    match s {
        GroupStatus::New => "NEW",
        GroupStatus::Accepted => "accepted",
        GroupStatus::Shown => "shown",
        GroupStatus::Artefact => "artefact",
    }
}

/// `NEW`, `accepted`, `shown`, `artefact`; with `*` when the reference agreed with the
/// target when its first group ran side by side (see [`footnotes`]).
fn status_cell(report: &Report, c: &CauseReport) -> String {
    let first = c.callees.first().map(|m| m.group.as_str());
    let unreproduced = report
        .groups
        .iter()
        .any(|g| Some(g.id.as_str()) == first && g.reproduced == Some(false));
    let star = if unreproduced { "*" } else { "" };
    format!("{}{star}", status_word(c.status))
}

/// The kind of change: its label, with the normalised change for a cause of several
/// groups; a plain difference shows its kind (`exception class differs`).
pub(crate) fn label_cell(c: &CauseReport) -> String {
    let plain = Label::plain(c.kind) == c.label && c.label != Label::ValueDiffers;
    let name = if plain {
        c.kind.describe()
    } else {
        c.label.describe()
    };
    match (&c.change, c.label) {
        (Some(ch), Label::DataVersion | Label::PermittedNarrowing | Label::Invisible) => {
            format!("{name}: {ch}")
        }
        _ => name.to_string(),
    }
}

/// The method cell of a cause: its first callee, and how many more.
pub(crate) fn callee_cell(c: &CauseReport, width: usize) -> String {
    let first = c.callees.first().map_or("", |m| m.callee.as_str());
    match c.callees.len() {
        0 | 1 => shorten(first, width),
        n => format!("{} (+{} more)", shorten(first, width), n - 1),
    }
}

/// ` (N distinct causes)` when some new groups share a cause.
fn distinct(s: &super::Summary) -> String {
    if s.new_changes < s.new_groups {
        format!(" ({})", plural(s.new_changes, "distinct cause"))
    } else {
        String::new()
    }
}

/// The table of one report, one row per cause (empty string when there is no group).
pub fn groups_table(report: &Report) -> String {
    if report.groups.is_empty() {
        return String::new();
    }
    let header = ["cause", "status", "method", "kind of change"]
        .iter()
        .map(|s| s.to_string())
        .chain([
            format!("{} (REF)", report.reference.name),
            format!("{} (TGT)", report.target.name),
            "tests".into(),
            "example".into(),
        ])
        .collect();
    let mut table = new_table(header);
    for c in report.causes.iter().take(ROWS) {
        let first = c.callees.first().map(|m| m.group.as_str());
        let example = report
            .groups
            .iter()
            .find(|g| Some(g.id.as_str()) == first)
            .map_or_else(|| format!("#{}", c.example), example_cell);
        table.add_row(vec![
            c.id.clone(),
            status_cell(report, c),
            callee_cell(c, 60),
            label_cell(c),
            shorten(&c.ref_value, CELL),
            shorten(&target_cell(&c.ref_value, &c.tgt_value), CELL),
            c.tests.to_string(),
            example,
        ]);
    }
    let mut text = table.to_string();
    if report.causes.len() > ROWS {
        let more = report.causes.len() - ROWS;
        text.push_str(&format!(
            "\n… and {}: see {}.md",
            plural(more, "more cause"),
            report.stem()
        ));
    }
    text
}

/// `#12 (9→3 stmts)`: the example and its size before and after minimization.
fn example_cell(g: &super::GroupReport) -> String {
    match &g.minimized {
        Some(m) if m.statements < g.example_statements => {
            format!(
                "#{} ({}→{})",
                g.example,
                g.example_statements,
                plural(m.statements, "stmt")
            )
        }
        _ => format!("#{} ({})", g.example, plural(g.example_statements, "stmt")),
    }
}

/// The summary line.
pub fn summary_line(report: &Report) -> String {
    let s = &report.summary;
    let shards = if report.shards.is_empty() {
        String::new()
    } else {
        format!(" [shard {}]", report.shards.join(","))
    };
    format!(
        "{} vs {}{shards}: {} run, {} passed, {} differing in {}{}, {} accepted, \
         {} message-only, {} unstable{}; {}; {:.1} s; gate: {}",
        report.target.name,
        report.reference.name,
        plural(s.tests, "test"),
        s.passed,
        s.differing,
        plural(s.new_groups, "new group"),
        distinct(s),
        s.accepted,
        s.message_only,
        s.unstable,
        artefacts(s),
        plural(s.groups, "group"),
        s.seconds,
        match report.gate {
            super::Gate::Pass => "PASS",
            super::Gate::Fail => "FAIL",
        }
    ) + &partial(report)
}

/// ` (partial: without shard 3/3)` when the report does not cover every shard of the suite.
pub fn partial(report: &Report) -> String {
    match super::merge::missing_shards(&report.shards) {
        Ok(missing) if !missing.is_empty() => {
            let s = if missing.len() == 1 { "" } else { "s" };
            format!(" (partial: without shard{s} {})", missing.join(", "))
        }
        _ => String::new(),
    }
}

/// `, N tool artefact(s)` when some tests' differences come from how difftest calls the API.
fn artefacts(s: &super::Summary) -> String {
    if s.artefacts > 0 {
        format!(", {} (not counted)", plural(s.artefacts, "tool artefact"))
    } else {
        String::new()
    }
}

/// Lines about groups not reproduced side by side, stale accepted entries and notes.
pub fn footnotes(report: &Report) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(v) = super::cause::versions_line(&report.reference, &report.target) {
        out.push(format!(
            "* data versions ({} → {}): {v}",
            report.reference.name, report.target.name
        ));
    }
    let unconfirmed = report
        .groups
        .iter()
        .filter(|g| g.reproduced == Some(false))
        .count();
    if unconfirmed > 0 {
        out.push(format!(
            "* {} did not differ when {} and {} ran side by side: the recorded \
             value depends on when or where it was recorded (clock, randomness, JVM state); \
             not counted by the gate",
            plural(unconfirmed, "group"),
            report.reference.name,
            report.target.name
        ));
    }
    out.extend(
        report
            .causes
            .iter()
            .filter(|c| !c.covers_new_callees.is_empty())
            .map(|c| {
                format!(
                    "accepted cause {} also covers new callees with the same change: {}",
                    c.id,
                    c.covers_new_callees.join(", ")
                )
            }),
    );
    out.extend(report.stale_accepted.iter().map(|e| {
        format!(
            "stale accepted entry {} ({} {}, target {}): not seen in this replay",
            e.group,
            e.callee,
            e.kind.name(),
            e.target
        )
    }));
    out.extend(report.notes.iter().map(|n| format!("note: {n}")));
    out
}

/// The implementation whose value is the only one of its kind while all others agree.
pub fn odd_one_out<'a>(values: &[(&'a str, String)]) -> Option<&'a str> {
    if values.len() < 3 {
        return None;
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, v) in values {
        *counts.entry(v.as_str()).or_default() += 1;
    }
    if counts.len() != 2 {
        return None;
    }
    let (lonely, _) = counts.iter().find(|(_, n)| **n == 1)?;
    values
        .iter()
        .find(|(_, v)| v == lonely)
        .map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_one_out_needs_a_single_dissenter() {
        let v = |pairs: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
            pairs.iter().map(|(n, v)| (*n, v.to_string())).collect()
        };
        assert_eq!(
            odd_one_out(&v(&[("17", "a"), ("21", "b"), ("25", "b")])),
            Some("17")
        );
        assert_eq!(
            odd_one_out(&v(&[("17", "a"), ("21", "a"), ("25", "b")])),
            Some("25")
        );
        assert_eq!(
            odd_one_out(&v(&[("17", "a"), ("21", "b"), ("25", "c")])),
            None
        );
        assert_eq!(odd_one_out(&v(&[("17", "a"), ("21", "b")])), None);
        let four = v(&[("a", "x"), ("b", "y"), ("c", "y"), ("d", "x")]);
        assert_eq!(odd_one_out(&four), None);
    }
}
