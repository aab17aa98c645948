//! The table on stdout: one row per root cause, then a summary line; and the matrix
//! table of one suite replayed on several targets, with a column per target and, with
//! three or more implementations, the odd one out of each group ([`super::matrix`]).

use super::text::{shorten, target_cell};
use super::{GroupStatus, Report};
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
    }
}

/// `NEW`, `accepted`, `shown`; with `*` when the reference agreed with the target when
/// both ran side by side (see [`footnotes`]).
fn status_cell(g: &super::GroupReport) -> String {
    let star = if g.reproduced == Some(false) { "*" } else { "" };
    format!("{}{star}", status_word(g.status))
}

/// The kind, and the group this one is the same change as (`value differs = g-eda38c`).
fn kind_cell(g: &super::GroupReport) -> String {
    match &g.same_change_as {
        Some(id) => format!("{} = {id}", g.kind.describe()),
        None => g.kind.describe().to_string(),
    }
}

/// ` (N distinct changes)` when some new groups are the same change as others.
fn distinct(s: &super::Summary) -> String {
    if s.new_changes < s.new_groups {
        format!(" ({} distinct change(s))", s.new_changes)
    } else {
        String::new()
    }
}

/// The table of one report (empty string when there is no group).
pub fn groups_table(report: &Report) -> String {
    if report.groups.is_empty() {
        return String::new();
    }
    let header = ["group", "status", "method", "kind"]
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
    for g in report.groups.iter().take(ROWS) {
        table.add_row(vec![
            g.id.clone(),
            status_cell(g),
            shorten(&g.callee, 60),
            kind_cell(g),
            shorten(&g.ref_value, CELL),
            shorten(&target_cell(&g.ref_value, &g.tgt_value), CELL),
            g.tests.to_string(),
            example_cell(g),
        ]);
    }
    let mut text = table.to_string();
    if report.groups.len() > ROWS {
        let more = report.groups.len() - ROWS;
        text.push_str(&format!(
            "\n… and {more} more group(s): see {}.md",
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
                "#{} ({}→{} stmts)",
                g.example, g.example_statements, m.statements
            )
        }
        _ => format!("#{} ({} stmts)", g.example, g.example_statements),
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
        "{} vs {}{shards}: {} tests run, {} passed, {} differing in {} new group(s){}, {} accepted, \
         {} message-only, {} unstable; {} group(s); {:.1} s; gate: {}",
        report.target.name,
        report.reference.name,
        s.tests,
        s.passed,
        s.differing,
        s.new_groups,
        distinct(s),
        s.accepted,
        s.message_only,
        s.unstable,
        s.groups,
        s.seconds,
        match report.gate {
            super::Gate::Pass => "PASS",
            super::Gate::Fail => "FAIL",
        }
    )
}

/// Lines about groups not reproduced side by side, stale accepted entries and notes.
pub fn footnotes(report: &Report) -> Vec<String> {
    let mut out = Vec::new();
    let unconfirmed = report
        .groups
        .iter()
        .filter(|g| g.reproduced == Some(false))
        .count();
    if unconfirmed > 0 {
        out.push(format!(
            "* {unconfirmed} group(s) did not differ when {} and {} ran side by side: the recorded \
             value depends on when or where it was recorded (clock, randomness, JVM state)",
            report.reference.name, report.target.name
        ));
    }
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
