//! The table on stdout: one row per root cause, then a summary line; and the matrix
//! table of one suite replayed on several targets, with a column per target and, with
//! three or more implementations, the odd one out of each group ([`super::matrix`]).

use super::{CauseReport, GroupStatus, Report};
use crate::plural::plural;
use crate::text::{shorten, target_cell};
use crate::triage::label::Label;
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

mod summary_line;
use std::collections::BTreeMap;
pub(crate) use summary_line::partial;
pub use summary_line::{summary_line, summary_lines, wrapped};

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
        (
            Some(ch),
            Label::DataVersion | Label::PermittedNarrowing | Label::Invisible | Label::Dependency,
        ) => {
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

/// How wide the table on stdout may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// At most this many columns, one line per cause, long texts cut with `…`.
    Fit(usize),
    /// Every column in full (`--wide`): method, both values and the example.
    Wide,
}

/// Columns of the fitted table when stdout is not a terminal.
pub(crate) const FIT: usize = 100;
/// The widest a terminal's width makes the fitted table.
const FIT_MAX: usize = 160;

impl Width {
    /// `--wide`, else the terminal's width (at most [`FIT_MAX`]) when stdout is one, else
    /// [`FIT`] columns.
    pub fn for_stdout(wide: bool) -> Width {
        if wide {
            return Width::Wide;
        }
        let terminal = Table::new().width().map(usize::from);
        Width::Fit(terminal.map_or(FIT, |w| w.clamp(60, FIT_MAX)))
    }
}

/// The table of one report, one row per cause (empty string when there is none; a changed
/// dependency is a row even when no test differs): fitted to a width, or in full.
pub fn groups_table(report: &Report, width: Width) -> String {
    if report.causes.is_empty() {
        return String::new();
    }
    let mut text = match width {
        Width::Fit(columns) => fitted_table(report, columns),
        Width::Wide => wide_table(report),
    };
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

/// One line per cause in at most `columns` columns: id, status, tests, callees, and the
/// kind of change with the change in a few words, cut with `…` to fit.
fn fitted_table(report: &Report, columns: usize) -> String {
    let header = ["cause", "status", "tests", "callees", "change"];
    let rows: Vec<[String; 5]> = report
        .causes
        .iter()
        .take(ROWS)
        .map(|c| {
            [
                c.id.clone(),
                status_cell(report, c),
                c.tests.to_string(),
                c.callees.len().to_string(),
                change_words(c),
            ]
        })
        .collect();
    let widest = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    // Each column costs its text, a space either side and a border.
    let fixed: usize = (0..4).map(|i| widest(i) + 3).sum::<usize>() + 4;
    let room = columns.saturating_sub(fixed).max(12);
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(u16::try_from(columns).unwrap_or(u16::MAX))
        .set_header(header.map(String::from).to_vec());
    for (c, mut row) in report.causes.iter().zip(rows) {
        row[4] = fit_change(c, &row[4], room);
        table.add_row(row.to_vec());
    }
    for i in [2, 3] {
        if let Some(col) = table.column_mut(i) {
            col.set_cell_alignment(comfy_table::CellAlignment::Right);
        }
    }
    table.to_string()
}

/// A cause's change `words` cut to `room` columns; a dependency row that does not fit drops
/// its group id first, so the versions stay in view (`dependency: jackson-core 2.14.2 →
/// 2.15.4`).
fn fit_change(c: &CauseReport, words: &str, room: usize) -> String {
    if words.chars().count() > room
        && c.label == Label::Dependency
        && let Some((_, short)) = c.change.as_deref().and_then(|ch| ch.split_once(':'))
    {
        return cut(&format!("{}: {short}", c.label.describe()), room);
    }
    cut(words, room)
}

/// The change of a cause in a few words: its kind of change and normalised change when a
/// rule named it, else the first callee (simple class name) and its two values.
pub(crate) fn change_words(c: &CauseReport) -> String {
    let label = label_cell(c);
    let named = matches!(
        c.label,
        Label::DataVersion
            | Label::PermittedNarrowing
            | Label::Invisible
            | Label::Rendering
            | Label::LastPlace
            | Label::HashOnly
            | Label::Dependency
            | Label::ApiMissing
    );
    if let (true, Some(change)) = (named, &c.change) {
        return match c.label {
            Label::DataVersion
            | Label::PermittedNarrowing
            | Label::Invisible
            | Label::Dependency => label,
            _ => format!("{label}: {change}"),
        };
    }
    let callee = c.callees.first().map_or("", |m| m.callee.as_str());
    format!(
        "{label}: {} {} → {}",
        simple_callee(callee),
        shorten(&c.ref_value, 24),
        shorten(&c.tgt_value, 24)
    )
}

/// `java.util.Collection.size()` → `Collection.size()`; a parameter list shows as `(…)`.
pub(crate) fn simple_callee(callee: &str) -> String {
    let (head, params) = callee.split_once('(').unwrap_or((callee, ")"));
    let mut parts: Vec<&str> = head.split('.').collect();
    let first_class = parts
        .iter()
        .position(|p| p.starts_with(|c: char| c.is_ascii_uppercase()))
        .unwrap_or(0);
    parts.drain(..first_class);
    let args = if params == ")" { "()" } else { "(…)" };
    if callee.contains('(') {
        format!("{}{args}", parts.join("."))
    } else {
        parts.join(".")
    }
}

/// At most `max` characters: the start of `s`, and `…` where it was cut. Values are shown
/// escaped to printable ASCII ([`crate::text::visible`]), so the marker is never their text.
pub(crate) fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let kept: String = s.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// Every column in full: the method, both values and the example (`--wide`).
fn wide_table(report: &Report) -> String {
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
    table.to_string()
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
pub(crate) fn odd_one_out<'a>(values: &[(&'a str, String)]) -> Option<&'a str> {
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
