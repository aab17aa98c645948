//! The HTML report (`reports/TGT-vs-REF.html`): one self-contained file (style and script
//! inline, no network) for browsing many causes: the table of causes with filters by status
//! and kind of change, each cause expandable to its groups with the reference's and the
//! target's values side by side (invisible characters and spaces marked), the inline diff,
//! the minimized Java and the `difftest accept` line to copy. The URL fragment sets the
//! filters (`#status=new&kind=hash_only&open=c-1a2b3c`). Made from the same [`Report`] as
//! the Markdown, with the same Java ([`super::markdown::example_java`]).

use super::markdown::example_java;
use super::{CauseReport, Gate, GroupReport, GroupStatus, Report};
use crate::compare::Kind;
use crate::plural::plural;
use crate::text::{inline_diff, shorten};
use std::collections::BTreeSet;
use std::fmt::Write as _;

const STYLE: &str = include_str!("html/report.css");
const SCRIPT: &str = include_str!("html/report.js");

/// The whole HTML document.
pub(crate) fn render(r: &Report) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let title = format!("{} vs {}", r.target.name, r.reference.name);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>difftest: {t}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n",
        t = esc(&title)
    );
    header(&mut out, r);
    filters(&mut out, r);
    table(&mut out, r);
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

fn header(out: &mut String, r: &Report) {
    let fp = |f: &Option<String>| f.as_deref().map(|f| format!(" ({})", esc(f)));
    let (class, gate) = match r.gate {
        Gate::Pass => ("gate-pass", "PASS"),
        Gate::Fail => ("gate-fail", "FAIL"),
    };
    let s = &r.summary;
    let _ = writeln!(
        out,
        "<p class=\"meta\">Reference <b>{}</b>{} · target <b>{}</b>{} · suite <code>{}</code><br>\
         Gate: <span class=\"{class}\">{gate}</span>{} ({} in {}) · \
         {} tests, {} passed, {} differing, {} accepted, {} message-only, {} unstable · {:.1} s · {}</p>",
        esc(&r.reference.name),
        fp(&r.reference.fingerprint).unwrap_or_default(),
        esc(&r.target.name),
        fp(&r.target.fingerprint).unwrap_or_default(),
        esc(&r.suite),
        esc(&super::table::partial(r)),
        plural(s.new_changes, "new cause"),
        plural(s.new_groups, "new group"),
        s.tests,
        s.passed,
        s.differing,
        s.accepted,
        s.message_only,
        s.unstable,
        s.seconds,
        esc(&r.tool),
    );
    for n in &r.notes {
        let _ = writeln!(out, "<p class=\"note\">Note: {}</p>", esc(n));
    }
}

fn filters(out: &mut String, r: &Report) {
    out.push_str("<div id=\"filters\"><span>Status: ");
    let present: BTreeSet<GroupStatus> = r.causes.iter().map(|c| c.status).collect();
    for status in [
        GroupStatus::New,
        GroupStatus::Accepted,
        GroupStatus::Shown,
        GroupStatus::Artefact,
    ] {
        let n = r.causes.iter().filter(|c| c.status == status).count();
        let _ = write!(
            out,
            "<label><input type=\"checkbox\" name=\"status\" value=\"{}\"{}{}> {} ({n})</label>",
            status_name(status),
            if status_hidden(status) {
                ""
            } else {
                " checked"
            },
            if present.contains(&status) {
                ""
            } else {
                " disabled"
            },
            status_words(status),
        );
    }
    out.push_str(
        "</span><label>Kind of change: <select id=\"kind\"><option value=\"\">all</option>",
    );
    let kinds: BTreeSet<(&str, &str)> = r
        .causes
        .iter()
        .map(|c| (c.label.name(), c.label.describe()))
        .collect();
    for (name, words) in kinds {
        let _ = write!(out, "<option value=\"{name}\">{}</option>", esc(words));
    }
    out.push_str(
        "</select></label><span id=\"shown\"></span></div>\n<p class=\"legend\">Click a row for \
         its groups. In values, <span class=\"inv\">\\u202F</span> marks an invisible or \
         non-ASCII character and <span class=\"sp\">·</span> a space.</p>\n",
    );
}

/// Statuses not counted by the gate start unchecked: the page opens on what needs review.
fn status_hidden(s: GroupStatus) -> bool {
    matches!(s, GroupStatus::Shown | GroupStatus::Artefact)
}

fn status_name(s: GroupStatus) -> &'static str {
    match s {
        GroupStatus::New => "new",
        GroupStatus::Accepted => "accepted",
        GroupStatus::Shown => "shown",
        GroupStatus::Artefact => "artefact",
    }
}

fn status_words(s: GroupStatus) -> &'static str {
    match s {
        GroupStatus::New => "NEW",
        GroupStatus::Accepted => "accepted",
        GroupStatus::Shown => "shown (not counted)",
        GroupStatus::Artefact => "tool artefact (not counted)",
    }
}

fn table(out: &mut String, r: &Report) {
    let _ = writeln!(
        out,
        "<table id=\"causes\"><thead><tr><th>cause</th><th>status</th><th>method</th>\
         <th>kind of change</th><th>{} (REF)</th><th>{} (TGT)</th><th>tests</th></tr></thead>",
        esc(&r.reference.name),
        esc(&r.target.name)
    );
    if r.causes.is_empty() {
        out.push_str("<tbody><tr><td colspan=\"7\">No differences.</td></tr></tbody>\n");
    }
    for c in &r.causes {
        cause(out, r, c);
    }
    out.push_str("</table>\n");
}

fn cause(out: &mut String, r: &Report, c: &CauseReport) {
    let methods: Vec<String> = c
        .callees
        .iter()
        .map(|m| format!("<code>{}</code>", esc(&m.callee)))
        .collect();
    let _ = writeln!(
        out,
        "<tbody class=\"cause\" id=\"{id}\" data-status=\"{st}\" data-kind=\"{kind}\">\
         <tr class=\"row\"><td><button class=\"toggle\" aria-expanded=\"false\">\u{25B8}</button>{id}</td>\
         <td class=\"status-{st}\">{}</td><td>{}</td><td>{}</td><td><code>{}</code></td>\
         <td><code>{}</code></td><td class=\"num\">{}</td></tr>",
        status_words(c.status),
        methods.join(", "),
        esc(&super::table::label_cell(c)),
        value(&shorten(&c.ref_value, 80)),
        value(&shorten(&c.tgt_value, 80)),
        c.tests,
        id = esc(&c.id),
        st = status_name(c.status),
        kind = c.label.name(),
    );
    out.push_str("<tr class=\"detail\" hidden><td colspan=\"7\">");
    match &c.accepted {
        Some(a) => {
            let _ = write!(
                out,
                "<p>Accepted for <code>{}</code>: {}</p>",
                esc(&a.target),
                esc(&a.reason)
            );
        }
        None if c.status == GroupStatus::New => accept_line(out, r, &c.id),
        None => {}
    }
    for g in r.groups.iter().filter(|g| g.cause == c.id) {
        group(out, r, g);
    }
    out.push_str("</td></tr></tbody>\n");
}

fn accept_line(out: &mut String, r: &Report, id: &str) {
    let line = format!(
        "difftest accept {id} --impl {} --reason \"…\"",
        r.target.name
    );
    let _ = write!(
        out,
        "<div class=\"accept\">Accept: <code>{}</code><button class=\"copy\" type=\"button\">copy</button></div>",
        esc(&line)
    );
}

fn group(out: &mut String, r: &Report, g: &GroupReport) {
    let _ = write!(
        out,
        "<section class=\"group\" id=\"{}\"><h3>{} <code>{}</code> — {} — {} — {}</h3>",
        esc(&g.id),
        esc(&g.id),
        esc(&g.callee),
        esc(g.kind.describe()),
        esc(g.label.describe()),
        plural(g.tests, "test")
    );
    let _ = write!(
        out,
        "<table class=\"sbs\"><tr><th>{} (REF)</th><th>{} (TGT)</th></tr>\
         <tr><td class=\"ref\">{}</td><td class=\"tgt\">{}</td></tr></table>",
        esc(&r.reference.name),
        esc(&r.target.name),
        value(&g.ref_value),
        value(&g.tgt_value)
    );
    let comparable = matches!(
        g.kind,
        Kind::Value | Kind::ExceptionClass | Kind::ExceptionMessage
    );
    if let Some(diff) = inline_diff(&g.ref_value, &g.tgt_value).filter(|_| comparable) {
        let _ = write!(out, "<p>Diff: <code>{}</code></p>", diff_html(&diff));
    }
    if g.reproduced == Some(false) {
        out.push_str(
            "<p class=\"note\">Not reproduced side by side: the recorded value depends on \
             when or where it was recorded.</p>",
        );
    }
    let (heading, lines) = example_java(g);
    let _ = write!(
        out,
        "<p>{}:</p><pre class=\"java\">{}</pre>",
        esc(&heading),
        esc(&lines.join("\n"))
    );
    if g.status == GroupStatus::New && g.cause != g.id {
        accept_line(out, r, &g.id);
    }
    out.push_str("</section>");
}

/// HTML text with `<`, `>`, `&` and `"` escaped.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// A value as HTML: escapes (`\u202F`, `\n`, `\t`, `\r`, `\0`) marked, spaces shown as `·`.
/// Values in reports are already escaped to ASCII (by the Java agent, or
/// [`crate::text::visible`]), so any character left outside ASCII is escaped here too.
fn value(s: &str) -> String {
    let s = crate::text::visible(s);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() * 2);
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let unicode = rest.len() >= 6
            && rest[0] == '\\'
            && rest[1] == 'u'
            && rest[2..6].iter().all(|c| c.is_ascii_hexdigit());
        let short = rest.len() >= 2 && rest[0] == '\\' && "ntr0".contains(rest[1]);
        let n = if unicode { 6 } else { 2 };
        if unicode || short {
            let text: String = rest[..n].iter().collect();
            let title = if unicode {
                format!("U+{}", &text[2..])
            } else {
                "control character".to_string()
            };
            let _ = write!(
                out,
                "<span class=\"inv\" title=\"{title}\">{}</span>",
                esc(&text)
            );
            i += n;
        } else if rest[0] == ' ' {
            out.push_str("<span class=\"sp\" title=\"space\">·</span>");
            i += 1;
        } else {
            out.push_str(&esc(&rest[0].to_string()));
            i += 1;
        }
    }
    out
}

/// An inline diff (`[-old-]{+new+}`) as HTML with `<del>` and `<ins>`.
fn diff_html(diff: &str) -> String {
    value(diff)
        .replace("[-", "<del>")
        .replace("-]", "</del>")
        .replace("{+", "<ins>")
        .replace("+}", "</ins>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_mark_invisible_characters_and_spaces() {
        assert_eq!(
            value("h:mm\\u202Fa <b>"),
            "h:mm<span class=\"inv\" title=\"U+202F\">\\u202F</span>a<span class=\"sp\" \
             title=\"space\">·</span>&lt;b&gt;"
        );
        assert!(value("a\u{A0}b").contains("title=\"U+00A0\""));
        assert!(
            value("x\\ny").contains("<span class=\"inv\" title=\"control character\">\\n</span>")
        );
    }

    #[test]
    fn diffs_become_del_and_ins() {
        assert_eq!(diff_html("a[-1-]{+2+}"), "a<del>1</del><ins>2</ins>");
    }
}
