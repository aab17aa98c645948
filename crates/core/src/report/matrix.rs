//! The matrix: one suite replayed on several targets, one row per cause (over all targets)
//! and a column per target. Each row follows one example test — the one that shows the
//! cause on the most targets — so the columns compare like with like, and with three or
//! more implementations (the reference included) the odd one out can be named.

use super::table::{CELL, ROWS, Width, cut, label_cell, new_table, odd_one_out, simple_callee};
use super::{CauseReport, GroupReport, Report, TestReport, TestStatus};
use crate::text::{shorten, target_cell};
use std::collections::{BTreeMap, HashMap};

/// One row of the matrix.
struct Row<'a> {
    id: &'a str,
    callee: String,
    kind: String,
    /// The kind of change of its cause (a test of another cause with the same kind, such
    /// as another data-version pair, shows its value).
    label: Option<crate::triage::label::Label>,
    ref_value: String,
    example: u64,
    /// Affected tests over all targets.
    weight: usize,
}

/// The matrix of several reports on the same suite (one per target): fitted to a width
/// (cause, kind of change, each implementation's value cut with `…`, the odd one out), or
/// with every column in full ([`Width::Wide`]: the method and the example too).
pub fn matrix_table(reports: &[Report], width: Width) -> String {
    let index: Vec<HashMap<u64, &TestReport>> = reports
        .iter()
        .map(|r| r.tests.iter().map(|t| (t.id, t)).collect())
        .collect();
    let rows = rows(reports, &index);
    let Some(first) = reports.first().filter(|_| !rows.is_empty()) else {
        return String::new();
    };
    let odd = reports.len() + 1 >= 3;
    let lines: Vec<Line> = rows
        .iter()
        .take(ROWS)
        .map(|row| line(reports, &index, row, odd))
        .collect();
    let mut header = vec!["cause".to_string()];
    let wide = width == Width::Wide;
    if wide {
        header.push("method".into());
    }
    header.push("kind of change".into());
    header.push(format!("{} (REF)", first.reference.name));
    header.extend(reports.iter().map(|r| r.target.name.clone()));
    if wide {
        header.push("example".into());
    }
    if odd {
        header.push("odd one out".into());
    }
    let mut text = match width {
        Width::Wide => wide_matrix(header, &lines),
        Width::Fit(columns) => fitted_matrix(header, &lines, columns),
    };
    if rows.len() > ROWS {
        text.push_str(&format!(
            "\n… and {}: see the Markdown reports",
            crate::plural::plural(rows.len() - ROWS, "more cause")
        ));
    }
    text
}

/// One row's cells: id, method, kind of change, the values (reference first), the example
/// and the odd one out.
struct Line {
    id: String,
    callee: String,
    kind: String,
    values: Vec<String>,
    example: String,
    odd: Option<String>,
}

fn line(reports: &[Report], index: &[HashMap<u64, &TestReport>], row: &Row, odd: bool) -> Line {
    let cells: Vec<(String, String)> = reports
        .iter()
        .zip(index)
        .map(|(r, idx)| cell(r, idx.get(&row.example).copied(), row))
        .collect();
    let mut values = vec![row.ref_value.clone()];
    values.extend(cells.iter().map(|(shown, _)| shown.clone()));
    let odd = odd.then(|| {
        let reference = reports.first().map_or("", |r| r.reference.name.as_str());
        let mut all = vec![(reference, row.ref_value.clone())];
        let targets = reports.iter().map(|r| r.target.name.as_str());
        all.extend(targets.zip(cells.iter().map(|(_, v)| v.clone())));
        odd_one_out(&all).unwrap_or("-").to_string()
    });
    Line {
        id: row.id.to_string(),
        callee: row.callee.clone(),
        kind: row.kind.clone(),
        values,
        example: format!("#{}", row.example),
        odd,
    }
}

fn wide_matrix(header: Vec<String>, lines: &[Line]) -> String {
    let mut table = new_table(header);
    for l in lines {
        let mut cells = vec![l.id.clone(), l.callee.clone(), l.kind.clone()];
        cells.extend(l.values.iter().map(|v| shorten(v, CELL)));
        cells.push(l.example.clone());
        cells.extend(l.odd.clone());
        table.add_row(cells);
    }
    table.to_string()
}

/// At most `columns` columns: after the id, the kind of change (with the first method)
/// gets two shares of the room and each value and the odd one out one share; texts longer
/// than their share are cut with `…`, headers wrap onto more lines.
fn fitted_matrix(header: Vec<String>, lines: &[Line], columns: usize) -> String {
    let id = lines
        .iter()
        .map(|l| l.id.chars().count())
        .chain([5])
        .max()
        .unwrap_or(5);
    let others = header.len().saturating_sub(1);
    // Each column costs its text, a space either side and a border.
    let room = columns.saturating_sub(id + 3 + 1 + 3 * others);
    let share = (room / (others + 1)).max(4);
    let kind = room
        .saturating_sub(share * others.saturating_sub(1))
        .max(share);
    let width = |i: usize| if i == 1 { kind } else { share };
    let mut table = new_table(
        header
            .iter()
            .enumerate()
            .map(|(i, h)| if i == 0 { h.clone() } else { fold(h, width(i)) })
            .collect(),
    );
    for l in lines {
        let change = format!("{}: {}", l.kind, simple_callee(&l.callee));
        let mut cells = vec![l.id.clone(), change];
        cells.extend(l.values.iter().cloned());
        cells.extend(l.odd.clone());
        let cut_cells = cells.iter().enumerate().map(|(i, c)| match i {
            0 => c.clone(),
            _ => cut(c, width(i)),
        });
        table.add_row(cut_cells.collect::<Vec<_>>());
    }
    table.to_string()
}

/// `text` on lines of at most `width` characters, broken after a space or `-` where one
/// is near, else anywhere.
fn fold(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while rest.len() > width {
        let head = &rest[..width];
        let at = head
            .iter()
            .rposition(|&c| c == ' ' || c == '-')
            .filter(|&p| p > 0)
            .map_or(width, |p| p + 1);
        lines.push(rest[..at].iter().collect::<String>().trim_end().to_string());
        rest.drain(..at);
    }
    lines.push(rest.into_iter().collect());
    lines.join("\n")
}

/// One row per cause id, most affected tests first.
fn rows<'a>(reports: &'a [Report], index: &[HashMap<u64, &'a TestReport>]) -> Vec<Row<'a>> {
    let mut by_id: BTreeMap<&str, Vec<&GroupReport>> = BTreeMap::new();
    let mut causes: BTreeMap<&str, &CauseReport> = BTreeMap::new();
    for r in reports {
        for g in &r.groups {
            by_id.entry(cause_of(g)).or_default().push(g);
        }
        for c in &r.causes {
            causes.entry(&c.id).or_insert(c);
        }
    }
    let mut rows: Vec<Row> = by_id
        .into_iter()
        .map(|(id, groups)| {
            let example = common_example(&groups);
            let ref_value = index
                .iter()
                .filter_map(|idx| idx.get(&example))
                .find(|t| test_cause(t) == Some(id))
                .and_then(|t| t.detail().ref_value.clone())
                .unwrap_or_else(|| groups[0].ref_value.clone());
            let mut callees: Vec<&str> = groups.iter().map(|g| g.callee.as_str()).collect();
            callees.dedup();
            let callees: std::collections::BTreeSet<&str> = callees.into_iter().collect();
            let callee = match callees.len() {
                0 | 1 => shorten(&groups[0].callee, 60),
                n => format!("{} (+{} more)", shorten(&groups[0].callee, 60), n - 1),
            };
            let kind = causes
                .get(id)
                .map_or_else(|| groups[0].kind.describe().to_string(), |c| label_cell(c));
            let label = causes.get(id).map(|c| c.label);
            Row {
                id,
                callee,
                kind,
                label,
                ref_value,
                example,
                weight: groups.iter().map(|g| g.tests).sum(),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        (std::cmp::Reverse(a.weight), &a.callee).cmp(&(std::cmp::Reverse(b.weight), &b.callee))
    });
    rows
}

/// A group's cause id (its own id in reports without causes).
fn cause_of(g: &GroupReport) -> &str {
    if g.cause.is_empty() { &g.id } else { &g.cause }
}

/// A test's cause id (its group's id in reports without causes).
fn test_cause(t: &TestReport) -> Option<&str> {
    t.detail().cause.as_deref().or(t.detail().group.as_deref())
}

/// The example of one of the groups (the test their labels were read from) that is in the
/// most targets' groups, then the lowest id: a test that merely shares a group with the
/// cause's tests may show another change (one callee's group can mix values).
fn common_example(groups: &[&GroupReport]) -> u64 {
    let in_groups = |t: u64| groups.iter().filter(|g| g.test_ids.contains(&t)).count();
    groups
        .iter()
        .map(|g| g.example)
        .max_by_key(|&t| (in_groups(t), std::cmp::Reverse(t)))
        .unwrap_or(groups[0].example)
}

/// What a target shows for the row's example test: (cell text, value for odd-one-out).
fn cell(report: &Report, test: Option<&TestReport>, row: &Row) -> (String, String) {
    let Some(t) = test else {
        return ("-".into(), format!("absent:{}", report.target.name));
    };
    let affected: usize = report
        .groups
        .iter()
        .filter(|g| cause_of(g) == row.id)
        .map(|g| g.tests)
        .sum();
    let count = if affected > 0 {
        format!(" ×{affected}")
    } else {
        String::new()
    };
    match t.status {
        TestStatus::Pass if affected > 0 => {
            (format!("= REF (group: ×{affected})"), row.ref_value.clone())
        }
        TestStatus::Pass => ("= REF".into(), row.ref_value.clone()),
        TestStatus::Unstable => (
            "unstable".into(),
            format!("unstable:{}", report.target.name),
        ),
        _ if test_cause(t) == Some(row.id) => {
            let value = t.detail().tgt_value.clone().unwrap_or_default();
            let accepted = if t.status == TestStatus::Accepted {
                " (accepted)"
            } else {
                ""
            };
            (
                format!("{}{accepted}{count}", target_cell(&row.ref_value, &value)),
                value,
            )
        }
        _ if t.detail().label.is_some() && t.detail().label == row.label => {
            // The same kind of change as another cause (another data-version pair).
            let other = test_cause(t).unwrap_or_default();
            let value = t.detail().tgt_value.clone().unwrap_or_default();
            let shown = target_cell(&row.ref_value, &value);
            (format!("as {other}: {shown}"), value)
        }
        _ => {
            let other = test_cause(t).unwrap_or_default().to_string();
            (
                format!("differs earlier ({other}){count}"),
                format!("other:{other}"),
            )
        }
    }
}
