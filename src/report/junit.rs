//! The JUnit XML report (`reports/TGT-vs-REF.junit.xml`) for CI dashboards: one testcase per
//! test. A new difference is a `failure` (an `error` for a timeout or crash); an accepted
//! difference or an unstable test is `skipped` with the reason; a message-only difference
//! passes with a note in `system-out`.

use super::{Report, TestReport, TestStatus};
use crate::compare::Kind;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Escapes text for XML attributes and content; characters XML 1.0 forbids become `\uXXXX`.
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The whole document.
pub fn render(report: &Report) -> String {
    let count = |f: &dyn Fn(&TestReport) -> bool| report.tests.iter().filter(|t| f(t)).count();
    let is_error = |t: &TestReport| matches!(t.kind, Some(Kind::Timeout | Kind::Crash));
    let errors = count(&|t| t.status == TestStatus::Differs && is_error(t));
    let failures = count(&|t| t.status == TestStatus::Differs && !is_error(t));
    let skipped = count(&|t| {
        matches!(
            t.status,
            TestStatus::Accepted | TestStatus::Unstable | TestStatus::Artefact
        )
    });
    let name = escape_xml(&report.stem());
    let counts = format!(
        "tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\"",
        report.tests.len(),
        report.summary.seconds
    );
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"difftest\" {counts}>");
    let _ = writeln!(out, "  <testsuite name=\"{name}\" {counts}>");
    properties(&mut out, report);
    let reasons: BTreeMap<&str, &str> = report
        .groups
        .iter()
        .filter_map(|g| {
            g.accepted
                .as_ref()
                .map(|a| (g.id.as_str(), a.reason.as_str()))
        })
        .collect();
    for t in &report.tests {
        testcase(&mut out, &name, t, &reasons);
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

fn properties(out: &mut String, r: &Report) {
    out.push_str("    <properties>\n");
    let mut props = vec![
        ("reference", r.reference.name.clone()),
        ("target", r.target.name.clone()),
        ("suite", r.suite.clone()),
        ("tool", r.tool.clone()),
    ];
    props.extend(
        r.reference
            .fingerprint
            .clone()
            .map(|f| ("reference.fingerprint", f)),
    );
    props.extend(
        r.target
            .fingerprint
            .clone()
            .map(|f| ("target.fingerprint", f)),
    );
    props
        .extend(super::cause::versions_line(&r.reference, &r.target).map(|v| ("data_versions", v)));
    for (k, v) in props {
        let _ = writeln!(
            out,
            "      <property name=\"{k}\" value=\"{}\"/>",
            escape_xml(&v)
        );
    }
    out.push_str("    </properties>\n");
}

fn testcase(out: &mut String, suite: &str, t: &TestReport, reasons: &BTreeMap<&str, &str>) {
    let _ = write!(
        out,
        "    <testcase name=\"test-{}\" classname=\"difftest.{suite}\"",
        t.id
    );
    let what = || {
        let label = t
            .label
            .map(|l| format!(" [{}]", l.describe()))
            .unwrap_or_default();
        format!(
            "{}{label} at {}: REF {} | TGT {}",
            t.kind.map_or("difference", |k| k.describe()),
            t.callee.as_deref().unwrap_or("?"),
            t.ref_value.as_deref().unwrap_or("?"),
            t.tgt_value.as_deref().unwrap_or("?"),
        )
    };
    let group = t.group.as_deref().unwrap_or("");
    let body = match t.status {
        TestStatus::Pass => None,
        TestStatus::Differs => {
            let tag = match t.kind {
                Some(Kind::Timeout | Kind::Crash) => "error",
                _ => "failure",
            };
            let kind = t.kind.map_or("difference", |k| k.name());
            let cause = match t.cause.as_deref() {
                Some(c) if c != group => format!(" (cause {c})"),
                _ => String::new(),
            };
            let message = escape_xml(&format!("{group}{cause}: {}", what()));
            Some(format!(
                "<{tag} message=\"{message}\" type=\"{kind}\">{message}</{tag}>"
            ))
        }
        TestStatus::Accepted => {
            let reason = reasons.get(group).copied().unwrap_or("");
            Some(format!(
                "<skipped message=\"{}\"/>",
                escape_xml(&format!("accepted {group}: {reason}"))
            ))
        }
        TestStatus::Unstable => Some(format!(
            "<skipped message=\"{}\"/>",
            escape_xml(&format!("unstable on the target: {}", what()))
        )),
        TestStatus::Artefact => Some(format!(
            "<skipped message=\"{}\"/>",
            escape_xml(&format!("tool artefact {group}: {}", what()))
        )),
        TestStatus::MessageOnly => {
            Some(format!("<system-out>{}</system-out>", escape_xml(&what())))
        }
    };
    match body {
        None => out.push_str("/>\n"),
        Some(b) => {
            let _ = writeln!(out, ">{b}</testcase>");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_forbidden_characters() {
        assert_eq!(escape_xml("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape_xml("x\u{1}y\n"), "x\\u0001y\n");
    }
}
