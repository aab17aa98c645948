//! The Markdown report (`reports/TGT-vs-REF.md`): the summary, the table of root causes,
//! and per group its values, an inline diff, the affected tests, and the minimized sequence
//! as Java with the diverging line annotated.

use super::java::observer_expression;
use super::{CauseReport, Gate, GroupReport, GroupStatus, Report, TestStatus};
use crate::compare::{Kind, Site};
use crate::plural::plural;
use crate::text::{inline_diff, shorten};
use std::fmt::Write as _;

/// Affected test ids listed per group before "…".
const IDS_SHOWN: usize = 20;

/// The whole Markdown document.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    header(&mut out, report);
    // A changed dependency is a row even when no test differs.
    if !report.causes.is_empty() {
        groups_table(&mut out, report);
        for c in &report.causes {
            cause_section(&mut out, report, c);
        }
        for g in &report.groups {
            group_section(&mut out, report, g);
        }
    }
    unstable(&mut out, report);
    if !report.stale_accepted.is_empty() {
        out.push_str("\n## Stale accepted entries\n\nAccepted, but no test showed them:\n\n");
        for e in &report.stale_accepted {
            let _ = writeln!(
                out,
                "- {} {} {} (target `{}`): {}",
                e.group,
                code(&e.callee),
                e.kind.name(),
                e.target,
                e.reason
            );
        }
    }
    out
}

fn header(out: &mut String, r: &Report) {
    let fp = |f: &Option<String>| f.as_deref().map(|f| format!(" ({f})")).unwrap_or_default();
    let _ = writeln!(out, "# {} vs {}\n", r.target.name, r.reference.name);
    let _ = writeln!(
        out,
        "- Reference: **{}**{}",
        r.reference.name,
        fp(&r.reference.fingerprint)
    );
    let _ = writeln!(
        out,
        "- Target: **{}**{}",
        r.target.name,
        fp(&r.target.fingerprint)
    );
    if let Some(v) = super::cause::versions_line(&r.reference, &r.target) {
        let _ = writeln!(out, "- Data versions (reference → target): {v}");
    }
    let shards = if r.shards.is_empty() {
        String::new()
    } else {
        format!(" (shards {})", r.shards.join(", "))
    };
    let _ = writeln!(out, "- Suite: `{}`{shards}", r.suite);
    let gate = match r.gate {
        Gate::Pass => "**PASS**",
        Gate::Fail => "**FAIL**",
    }
    .to_string()
        + &super::table::partial(r);
    let _ = writeln!(
        out,
        "- Gate: {gate} ({} in {}); {}",
        plural(r.summary.new_changes, "new cause"),
        plural(r.summary.new_groups, "new group"),
        r.tool
    );
    if r.summary.artefacts > 0 {
        let _ = writeln!(
            out,
            "- Tool artefacts (how difftest calls the API, not counted): {}",
            plural(r.summary.artefacts, "test")
        );
    }
    for n in &r.notes {
        let _ = writeln!(out, "- Note: {n}");
    }
    let s = &r.summary;
    out.push_str("\n| tests | passed | differing | accepted | message-only | unstable | groups | seconds |\n");
    out.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} | {} | {} | {:.1} |",
        s.tests, s.passed, s.differing, s.accepted, s.message_only, s.unstable, s.groups, s.seconds
    );
}

fn groups_table(out: &mut String, r: &Report) {
    out.push_str("\n## Root causes\n\n");
    let _ = writeln!(
        out,
        "| cause | status | method | kind of change | {} (REF) | {} (TGT) | tests | example |",
        r.reference.name, r.target.name
    );
    out.push_str("|---|---|---|---|---|---|---:|---|\n");
    for c in &r.causes {
        let methods: Vec<String> = c.callees.iter().map(|m| cell(&m.callee)).collect();
        let _ = writeln!(
            out,
            "| [{id}](#{id}) | {} | {} | {} | {} | {} | {} | #{} |",
            status(c.status),
            methods.join(", "),
            super::table::label_cell(c).replace('|', "\\|"),
            cell(&shorten(&c.ref_value, 80)),
            cell(&shorten(&c.tgt_value, 80)),
            c.tests,
            c.example,
            id = c.id,
        );
    }
}

/// A cause that joins several groups (or has an id of its own): its change and callees.
fn cause_section(out: &mut String, r: &Report, c: &CauseReport) {
    if c.callees.len() == 1 && c.callees[0].group == c.id {
        return; // the group's own section is the cause's
    }
    let _ = writeln!(out, "\n### {}\n", c.id);
    let _ = writeln!(
        out,
        "{} — {} — {} in {}\n",
        c.label.describe(),
        status(c.status),
        plural(c.tests, "test"),
        plural(c.callees.len(), "group")
    );
    if let Some(change) = &c.change {
        let _ = writeln!(out, "- Change: {}", code(change));
    }
    for m in &c.callees {
        let _ = writeln!(
            out,
            "- {} — {} — [{id}](#{id}), {}",
            code(&m.callee),
            m.kind.describe(),
            plural(m.tests, "test"),
            id = m.group
        );
    }
    if !c.covers_new_callees.is_empty() {
        let covered: Vec<String> = c.covers_new_callees.iter().map(|s| code(s)).collect();
        let _ = writeln!(
            out,
            "- The accepted cause also covers new callees with the same change: {}",
            covered.join(", ")
        );
    }
    if let Some(a) = &c.accepted {
        let _ = writeln!(out, "- Accepted for `{}`: {}", a.target, a.reason);
    } else if c.status == GroupStatus::New {
        let _ = writeln!(
            out,
            "- Accept the whole cause (and new callees with the same change) with: \
             `difftest accept {} --impl {} --reason \"…\"`",
            c.id, r.target.name
        );
    }
}

fn status(s: GroupStatus) -> &'static str {
    match s {
        GroupStatus::New => "**NEW**",
        GroupStatus::Accepted => "accepted",
        GroupStatus::Shown => "shown (not counted)",
        GroupStatus::Artefact => "tool artefact (not counted)",
    }
}

fn group_section(out: &mut String, r: &Report, g: &GroupReport) {
    let _ = writeln!(out, "\n### {}\n", g.id);
    let _ = writeln!(
        out,
        "{} — {} — {} — {}\n",
        code(&g.callee),
        g.kind.describe(),
        g.label.describe(),
        status(g.status)
    );
    if g.cause != g.id {
        let _ = writeln!(out, "- Cause: [{id}](#{id})", id = g.cause);
    }
    let _ = writeln!(out, "- REF ({}): {}", r.reference.name, code(&g.ref_value));
    let _ = writeln!(out, "- TGT ({}): {}", r.target.name, code(&g.tgt_value));
    let comparable = matches!(
        g.kind,
        Kind::Value | Kind::ExceptionClass | Kind::ExceptionMessage
    );
    if let Some(diff) = inline_diff(&g.ref_value, &g.tgt_value).filter(|_| comparable) {
        let _ = writeln!(out, "- Diff: {}", code(&diff));
    }
    if let Some(id) = &g.same_change_as {
        let _ = writeln!(
            out,
            "- The same change as [{id}](#{id}): most likely one root cause seen through \
             another call; review them together"
        );
    }
    let mut ids: Vec<String> = g
        .test_ids
        .iter()
        .take(IDS_SHOWN)
        .map(|i| format!("#{i}"))
        .collect();
    if g.test_ids.len() > IDS_SHOWN {
        ids.push("…".into());
    }
    let _ = writeln!(out, "- Tests affected ({}): {}", g.tests, ids.join(", "));
    if g.reproduced == Some(false) {
        let _ = writeln!(
            out,
            "- **Not reproduced side by side**: run now on {} and {}, the example does not \
             differ; the recorded value depends on when or where it was recorded (clock, \
             randomness, JVM state), so the gate does not count it. Record again.",
            r.reference.name, r.target.name
        );
    }
    acceptance(out, r, g);
    sequence(out, g);
}

/// How the group was accepted, or how to accept it.
fn acceptance(out: &mut String, r: &Report, g: &GroupReport) {
    if let Some(a) = &g.accepted {
        let who = [a.by.as_deref(), a.date.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ");
        let who = if who.is_empty() {
            String::new()
        } else {
            format!(" ({who})")
        };
        let _ = writeln!(out, "- Accepted for `{}`: {}{who}", a.target, a.reason);
    } else if g.status == GroupStatus::New {
        let _ = writeln!(
            out,
            "- Accept with: `difftest accept {} --impl {} --reason \"…\"`",
            g.id, r.target.name
        );
    }
}

/// The minimized sequence (or the example) as annotated Java.
fn sequence(out: &mut String, g: &GroupReport) {
    let (heading, lines) = example_java(g);
    let _ = writeln!(out, "\n{heading}:\n");
    java_block(out, &lines);
}

/// A heading ("Minimized from 7 to 3 statements …") and the minimized sequence, or the
/// example when there is none, as Java with the diverging line annotated with both values.
/// The HTML report and `difftest explain` show the same.
pub fn example_java(g: &GroupReport) -> (String, Vec<String>) {
    match &g.minimized {
        Some(m) => {
            let heading = if m.statements < m.original_statements {
                format!(
                    "Minimized from {} to {} ({} tried)",
                    m.original_statements,
                    plural(m.statements, "statement"),
                    plural(m.runs as usize, "candidate")
                )
            } else {
                format!(
                    "Example #{} (already minimal, {} tried)",
                    g.example,
                    plural(m.runs as usize, "candidate")
                )
            };
            let lines = annotated(&m.java, &m.test, m.site, &m.ref_value, &m.tgt_value);
            (heading, lines)
        }
        None => {
            let test = crate::suite::Test {
                id: g.example,
                statements: Vec::new(),
                observers: Vec::new(),
                expected_steps: Vec::new(),
                expected_observations: Vec::new(),
                varies: Vec::new(),
            };
            let lines = annotated(&g.example_java, &test, g.site, &g.ref_value, &g.tgt_value);
            (format!("Example #{} (not minimized)", g.example), lines)
        }
    }
}

/// The Java lines with the diverging one annotated with both values.
fn annotated(
    java: &[String],
    test: &crate::suite::Test,
    site: Site,
    reference: &str,
    target: &str,
) -> Vec<String> {
    let note = format!("// REF: {reference} | TGT: {target}");
    let mut lines = java.to_vec();
    match site {
        Site::Step(i) if i < lines.len() => lines[i] = format!("{}  {note}", lines[i]),
        Site::Observer(j) => match test.observers.get(j) {
            Some(o) => lines.push(format!(
                "{};  {note}",
                observer_expression(o, &test.statements)
            )),
            // The example's lines end with the observer call already.
            None => match lines.last_mut() {
                Some(last) => *last = format!("{last}  {note}"),
                None => lines.push(note),
            },
        },
        _ => match lines.last_mut() {
            Some(last) => *last = format!("{last}  {note}"),
            None => lines.push(note),
        },
    }
    lines
}

fn java_block(out: &mut String, lines: &[String]) {
    out.push_str("```java\n");
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str("```\n");
}

fn unstable(out: &mut String, r: &Report) {
    let unstable: Vec<_> = r
        .tests
        .iter()
        .filter(|t| t.status == TestStatus::Unstable)
        .collect();
    if unstable.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n## Unstable on {} ({} tests, not counted)\n",
        r.target.name,
        unstable.len()
    );
    for t in unstable.iter().take(50) {
        let callee = t.detail().callee.as_deref().unwrap_or("?");
        let kind = t.detail().kind.map_or("?", |k| k.name());
        let _ = writeln!(out, "- #{}: {} {}", t.id, code(callee), kind);
    }
}

/// An inline code span that survives backticks in the text.
fn code(s: &str) -> String {
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// A table cell: code span with pipes escaped.
fn cell(s: &str) -> String {
    code(s).replace('|', "\\|")
}
