//! The summary line below the table: the counts, groups, time and gate of one report,
//! whole or wrapped between its parts to the table's width.

use super::Width;
use crate::plural::plural;
use crate::report::{Report, Summary};

/// The summary line, whole (`--wide`, logs that keep one line per report).
pub fn summary_line(report: &Report) -> String {
    summary_parts(report).join(" ")
}

/// The summary, wrapped between its parts to at most `columns` columns when `width` fits
/// (continuation lines indented by two spaces); one line with [`Width::Wide`]. A part is
/// never broken, so `gate: FAIL` and the counts stay whole for whoever greps them.
pub fn summary_lines(report: &Report, width: Width) -> String {
    match width {
        Width::Wide => summary_line(report),
        Width::Fit(columns) => pack(&summary_parts(report), columns),
    }
}

/// A footnote or note wrapped between its words to at most `columns` columns when `width`
/// fits (continuation lines indented by two spaces); one line with [`Width::Wide`].
pub fn wrapped(text: &str, width: Width) -> String {
    match width {
        Width::Wide => text.to_string(),
        Width::Fit(columns) => {
            let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            pack(&words, columns)
        }
    }
}

/// Words joined by spaces into lines of at most `columns` characters where they fit.
fn pack(parts: &[String], columns: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for part in parts {
        let len = part.chars().count();
        if line_len > 0 && line_len + 1 + len > columns {
            out.push_str("\n  ");
            line_len = 2;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(part);
        line_len += len;
    }
    out
}

/// The summary's parts with their punctuation, in order: the counts (`,` between them), the
/// groups, the time and the gate (`;` between those).
fn summary_parts(report: &Report) -> Vec<String> {
    let s = &report.summary;
    let shards = if report.shards.is_empty() {
        String::new()
    } else {
        format!(" [shard {}]", report.shards.join(","))
    };
    let mut counts = vec![
        format!(
            "{} vs {}{shards}: {} run",
            report.target.name,
            report.reference.name,
            plural(s.tests, "test")
        ),
        format!("{} passed", s.passed),
        format!(
            "{} differing in {}{}",
            s.differing,
            plural(s.new_groups, "new group"),
            distinct(s)
        ),
        format!("{} accepted", s.accepted),
        format!("{} message-only", s.message_only),
        format!("{} unstable", s.unstable),
    ];
    counts.extend(artefacts(s));
    counts.extend(classpath(report));
    let gate = match report.gate {
        crate::report::Gate::Pass => "PASS",
        crate::report::Gate::Fail => "FAIL",
    };
    let sections = [
        counts,
        vec![plural(s.groups, "group")],
        vec![format!("{:.1} s", s.seconds)],
        vec![format!("gate: {gate}{}", partial(report))],
    ];
    let last = sections.len() - 1;
    let mut parts = Vec::new();
    for (i, section) in sections.into_iter().enumerate() {
        let n = section.len();
        for (j, item) in section.into_iter().enumerate() {
            let mark = match (j + 1 == n, i == last) {
                (false, _) => ",",
                (true, false) => ";",
                (true, true) => "",
            };
            parts.push(format!("{item}{mark}"));
        }
    }
    parts
}

/// ` (partial: without shard 3/3)` when the report does not cover every shard of the suite.
pub(crate) fn partial(report: &Report) -> String {
    match crate::report::merge::missing_shards(&report.shards) {
        Ok(missing) if !missing.is_empty() => {
            let s = if missing.len() == 1 { "" } else { "s" };
            format!(" (partial: without shard{s} {})", missing.join(", "))
        }
        _ => String::new(),
    }
}

/// `N on a class path lacking classes (missing X; infrastructure, exit 3)` when the
/// target threw because its class path lacks what the code needs.
fn classpath(report: &Report) -> Option<String> {
    let (tests, change) = report.classpath_fault()?;
    Some(format!(
        "{tests} on a class path lacking classes ({change}; infrastructure, exit 3)"
    ))
}

/// `N tool artefact(s) (not counted)` when some tests' differences come from how difftest
/// calls the API.
fn artefacts(s: &Summary) -> Option<String> {
    (s.artefacts > 0).then(|| format!("{} (not counted)", plural(s.artefacts, "tool artefact")))
}

/// ` (N distinct causes)` when some new groups share a cause.
fn distinct(s: &Summary) -> String {
    if s.new_changes < s.new_groups {
        format!(" ({})", plural(s.new_changes, "distinct cause"))
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::{Width, wrapped};

    #[test]
    fn a_long_footnote_wraps_between_words_to_the_width_unless_wide() {
        let note = "* 3 groups did not differ when temurin17 and temurin21 ran side by side: \
                    the recorded value depends on when or where it was recorded (clock, \
                    randomness, JVM state); not counted by the gate";
        let fitted = wrapped(note, Width::Fit(100));
        assert!(fitted.lines().count() > 1, "{fitted}");
        assert!(fitted.lines().all(|l| l.chars().count() <= 100), "{fitted}");
        assert!(
            fitted.lines().skip(1).all(|l| l.starts_with("  ")),
            "{fitted}"
        );
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&fitted), words(note));
        assert_eq!(wrapped(note, Width::Wide), note);
    }
}
