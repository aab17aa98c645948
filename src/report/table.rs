//! The table on stdout: one row per root cause, then a summary line; and the matrix
//! table of one suite replayed on several targets, with a column per target and, with
//! three or more implementations, the odd one out of each group.

use super::text::{shorten, target_cell};
use super::{GroupStatus, Report, TestReport, TestStatus};
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use std::collections::{BTreeMap, HashMap};

/// Widest value shown in a cell (the Markdown and JSON reports have them whole).
const CELL: usize = 48;

fn new_table(header: Vec<String>) -> Table {
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
    for g in &report.groups {
        table.add_row(vec![
            g.id.clone(),
            status_word(g.status).into(),
            shorten(&g.callee, 60),
            g.kind.describe().into(),
            shorten(&g.ref_value, CELL),
            shorten(&target_cell(&g.ref_value, &g.tgt_value), CELL),
            g.tests.to_string(),
            example_cell(g),
        ]);
    }
    table.to_string()
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
        "{} vs {}{shards}: {} tests run, {} passed, {} differing in {} new group(s), {} accepted, \
         {} message-only, {} unstable; {} group(s); {:.1} s; gate: {}",
        report.target.name,
        report.reference.name,
        s.tests,
        s.passed,
        s.differing,
        s.new_groups,
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

/// Lines about stale accepted entries and notes.
pub fn footnotes(report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report
        .stale_accepted
        .iter()
        .map(|e| {
            format!(
                "stale accepted entry {} ({} {}, target {}): not seen in this replay",
                e.group,
                e.callee,
                e.kind.name(),
                e.target
            )
        })
        .collect();
    out.extend(report.notes.iter().map(|n| format!("note: {n}")));
    out
}

/// One row of the matrix.
struct Row<'a> {
    id: &'a str,
    callee: &'a str,
    kind: &'a str,
    ref_value: &'a str,
    example: u64,
    example_statements: usize,
}

/// The matrix of several reports on the same suite (one per target).
pub fn matrix_table(reports: &[Report]) -> String {
    let rows = matrix_rows(reports);
    if rows.is_empty() || reports.is_empty() {
        return String::new();
    }
    let index: Vec<HashMap<u64, &TestReport>> = reports
        .iter()
        .map(|r| r.tests.iter().map(|t| (t.id, t)).collect())
        .collect();
    let odd = reports.len() + 1 >= 3;
    let mut header = vec!["group".into(), "method".into(), "kind".into()];
    header.push(format!("{} (REF)", reports[0].reference.name));
    header.extend(reports.iter().map(|r| r.target.name.clone()));
    header.push("example".into());
    if odd {
        header.push("odd one out".into());
    }
    let mut table = new_table(header);
    for row in &rows {
        let cells: Vec<(String, String)> = reports
            .iter()
            .zip(&index)
            .map(|(r, idx)| matrix_cell(r, idx.get(&row.example).copied(), row))
            .collect();
        let mut line = vec![
            row.id.to_string(),
            shorten(row.callee, 60),
            row.kind.to_string(),
        ];
        line.push(shorten(row.ref_value, CELL));
        line.extend(cells.iter().map(|(shown, _)| shorten(shown, CELL)));
        line.push(format!("#{}", row.example));
        if odd {
            let mut values = vec![(
                reports[0].reference.name.as_str(),
                row.ref_value.to_string(),
            )];
            values.extend(
                reports
                    .iter()
                    .zip(&cells)
                    .map(|(r, (_, v))| (r.target.name.as_str(), v.clone())),
            );
            line.push(odd_one_out(&values).unwrap_or("-").to_string());
        }
        table.add_row(line);
    }
    table.to_string()
}

/// One row per group id over all reports, most affected tests (over all targets) first.
fn matrix_rows(reports: &[Report]) -> Vec<Row<'_>> {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut weight: BTreeMap<&str, usize> = BTreeMap::new();
    for g in reports.iter().flat_map(|r| &r.groups) {
        *weight.entry(&g.id).or_default() += g.tests;
        let key = (g.example_statements, g.example);
        if rows
            .get(&g.id)
            .is_none_or(|row| key < (row.example_statements, row.example))
        {
            let row = Row {
                id: &g.id,
                callee: &g.callee,
                kind: g.kind.describe(),
                ref_value: &g.ref_value,
                example: g.example,
                example_statements: g.example_statements,
            };
            rows.insert(g.id.clone(), row);
        }
    }
    let mut rows: Vec<Row> = rows.into_values().collect();
    rows.sort_by_key(|r| {
        (
            std::cmp::Reverse(weight.get(r.id).copied().unwrap_or(0)),
            r.callee,
        )
    });
    rows
}

/// What a target shows for the row's example test: (cell text, value for odd-one-out).
fn matrix_cell(report: &Report, test: Option<&TestReport>, row: &Row) -> (String, String) {
    let Some(t) = test else {
        return ("-".into(), format!("absent:{}", report.target.name));
    };
    match t.status {
        TestStatus::Pass => ("= REF".into(), row.ref_value.to_string()),
        TestStatus::Unstable => (
            "unstable".into(),
            format!("unstable:{}", report.target.name),
        ),
        _ if t.group.as_deref() == Some(row.id) => {
            let value = t.tgt_value.clone().unwrap_or_default();
            let mut shown = target_cell(row.ref_value, &value);
            if t.status == TestStatus::Accepted {
                shown.push_str(" (accepted)");
            }
            (shown, value)
        }
        _ => {
            let other = t.group.clone().unwrap_or_default();
            (
                format!("differs earlier ({other})"),
                format!("other:{other}"),
            )
        }
    }
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
