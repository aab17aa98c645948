//! The JUnit XML report (`reports/TGT-vs-REF.junit.xml`) for CI dashboards: one testcase per
//! test. A new difference is a `failure` (an `error` for a timeout or crash); an accepted
//! difference or an unstable test is `skipped` with the reason; a message-only difference
//! passes with a note in `system-out`.

use super::{Report, TestReport, TestStatus};
use crate::compare::Kind;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

/// Escapes text for XML attributes and content; characters XML 1.0 forbids become `\uXXXX`.
pub(crate) fn escape_xml(s: &str) -> String {
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

/// Writes the whole document to `out`, one testcase at a time.
pub(crate) fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let count = |f: &dyn Fn(&TestReport) -> bool| report.tests.iter().filter(|t| f(t)).count();
    let is_error = |t: &TestReport| matches!(t.detail().kind, Some(Kind::Timeout | Kind::Crash));
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
    out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
    writeln!(out, "<testsuites name=\"difftest\" {counts}>")?;
    writeln!(out, "  <testsuite name=\"{name}\" {counts}>")?;
    out.write_all(properties(report).as_bytes())?;
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
        testcase(out, &name, t, &reasons)?;
    }
    out.write_all(b"  </testsuite>\n</testsuites>\n")
}

/// The `properties` element.
fn properties(r: &Report) -> String {
    let mut out = String::from("    <properties>\n");
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
    out
}

fn testcase(
    out: &mut dyn Write,
    suite: &str,
    t: &TestReport,
    reasons: &BTreeMap<&str, &str>,
) -> io::Result<()> {
    write!(
        out,
        "    <testcase name=\"test-{}\" classname=\"difftest.{suite}\"",
        t.id
    )?;
    let d = t.detail();
    let what = || {
        let label = d
            .label
            .map(|l| format!(" [{}]", l.describe()))
            .unwrap_or_default();
        format!(
            "{}{label} at {}: REF {} | TGT {}",
            d.kind.map_or("difference", |k| k.describe()),
            d.callee.as_deref().unwrap_or("?"),
            d.ref_value.as_deref().unwrap_or("?"),
            d.tgt_value.as_deref().unwrap_or("?"),
        )
    };
    let group = d.group.as_deref().unwrap_or("");
    let body = match t.status {
        TestStatus::Pass => None,
        TestStatus::Differs => {
            let tag = match d.kind {
                Some(Kind::Timeout | Kind::Crash) => "error",
                _ => "failure",
            };
            let kind = d.kind.map_or("difference", |k| k.name());
            let cause = match d.cause.as_deref() {
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
        None => out.write_all(b"/>\n"),
        Some(b) => writeln!(out, ">{b}</testcase>"),
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
