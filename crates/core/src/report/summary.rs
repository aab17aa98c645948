//! One page across many replays: the final step of a CI matrix that runs one release pair
//! (or one JDK pair) per job. `difftest report --summary A.json B.json …` reads each job's
//! JSON report and writes `summary.md` and `index.html`: a row per pair (tests, differing,
//! new causes, gate) and, under it, the pair's new causes with a link to its own HTML report.
//! Pairs that were expected but sent no report (a job that died) are named, never skipped.

use super::html::esc;
use super::{CauseReport, Gate, GroupStatus, Report, ReportError};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// New causes listed per pair; the pair's own report has the rest.
const CAUSES_SHOWN: usize = 10;

/// One pair's report and where its HTML report is, relative to the summary folder.
pub struct Pair {
    /// The report read.
    pub report: Report,
    /// The `.html` beside the JSON, as a link from the summary folder (if it exists).
    pub html: Option<String>,
}

impl Pair {
    /// Reads `json` and finds its HTML sibling; `out` is the folder the summary goes to.
    pub(crate) fn read(json: &Path, out: &Path) -> Result<Pair, ReportError> {
        let report = Report::read(json)?;
        let html = json.with_extension("html");
        let html = html.is_file().then(|| relative_link(&html, out));
        Ok(Pair { report, html })
    }

    fn name(&self) -> String {
        format!(
            "{} vs {}",
            self.report.target.name, self.report.reference.name
        )
    }

    fn new_causes(&self) -> impl Iterator<Item = &CauseReport> {
        self.report
            .causes
            .iter()
            .filter(|c| c.status == GroupStatus::New)
    }
}

/// A path as a link from `from_dir`: relative when both are under one folder, else absolute.
fn relative_link(target: &Path, from_dir: &Path) -> String {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (target, from) = (abs(target), abs(from_dir));
    let common = target
        .components()
        .zip(from.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut link = PathBuf::new();
    for _ in from.components().skip(common) {
        link.push("..");
    }
    for part in target.components().skip(common) {
        link.push(part);
    }
    link.to_string_lossy().replace('\\', "/")
}

/// The summary's verdict: FAIL when a pair fails its gate, INCOMPLETE when a pair is missing.
pub(crate) fn verdict(pairs: &[Pair], missing: usize) -> &'static str {
    if missing > 0 {
        "INCOMPLETE"
    } else if pairs.iter().any(|p| p.report.gate == Gate::Fail) {
        "FAIL"
    } else {
        "PASS"
    }
}

fn gate(p: &Pair) -> &'static str {
    match p.report.gate {
        Gate::Pass => "PASS",
        Gate::Fail => "FAIL",
    }
}

fn missing_line(missing: usize) -> String {
    format!(
        "{} sent no report (a job failed before its replay finished): the summary is incomplete",
        crate::plural::plural(missing, "expected pair")
    )
}

/// The Markdown page: a table of pairs, then each pair's new causes.
pub fn markdown(pairs: &[Pair], missing: usize) -> String {
    let mut out = format!(
        "# difftest summary: {} pairs, verdict {}\n\n",
        pairs.len(),
        verdict(pairs, missing)
    );
    if missing > 0 {
        let _ = writeln!(out, "**{}**\n", missing_line(missing));
    }
    out.push_str("| pair | tests | differing | new causes | gate |\n|---|---:|---:|---:|---|\n");
    for p in pairs {
        let s = &p.report.summary;
        let name = match &p.html {
            Some(link) => format!("[{}]({})", md_text(&p.name()), link),
            None => md_text(&p.name()),
        };
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} |",
            s.tests,
            s.differing,
            s.new_causes.max(s.new_changes),
            gate(p)
        );
    }
    for p in pairs.iter().filter(|p| p.new_causes().next().is_some()) {
        let _ = writeln!(out, "\n## {}\n", md_text(&p.name()));
        for c in p.new_causes().take(CAUSES_SHOWN) {
            let _ = writeln!(
                out,
                "- `{}` {}: {} ({})",
                c.id,
                c.label.describe(),
                md_text(&change_text(c)),
                crate::plural::plural(c.tests, "test")
            );
        }
        let more = p.new_causes().count().saturating_sub(CAUSES_SHOWN);
        if more > 0 {
            let _ = writeln!(out, "- … and {} more", crate::plural::plural(more, "cause"));
        }
    }
    out
}

/// What a cause changed, in a few words: its normalised change, else the first callee.
fn change_text(c: &CauseReport) -> String {
    let text = c.change.clone().unwrap_or_else(|| {
        c.callees
            .first()
            .map(|k| k.callee.clone())
            .unwrap_or_default()
    });
    crate::text::shorten(&text, 120)
}

/// Text for a Markdown table or list: no line breaks, pipes and markup characters escaped.
fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '|' | '*' | '_' | '[' | ']' | '<' | '>' | '`' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// The HTML index: the same content as the Markdown, one self-contained file.
pub(crate) fn html(pairs: &[Pair], missing: usize) -> String {
    let mut out = String::with_capacity(8 * 1024);
    let title = format!(
        "difftest summary: {} pairs, verdict {}",
        pairs.len(),
        verdict(pairs, missing)
    );
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{t}</title>\n<style>body{{font-family:sans-serif;margin:2em}}\
         table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.3em .6em}}\
         td.n{{text-align:right}}.FAIL,.INCOMPLETE{{color:#b00}}.PASS{{color:#070}}</style>\n\
         </head>\n<body>\n<h1>{t}</h1>\n",
        t = esc(&title)
    );
    if missing > 0 {
        let _ = writeln!(
            out,
            "<p class=\"INCOMPLETE\"><b>{}</b></p>",
            esc(&missing_line(missing))
        );
    }
    out.push_str(
        "<table>\n<tr><th>pair</th><th>tests</th><th>differing</th><th>new causes</th>\
         <th>gate</th></tr>\n",
    );
    for p in pairs {
        let s = &p.report.summary;
        let name = match &p.html {
            Some(link) => format!("<a href=\"{}\">{}</a>", esc(link), esc(&p.name())),
            None => esc(&p.name()),
        };
        let _ = writeln!(
            out,
            "<tr><td>{name}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"{g}\">{g}</td></tr>",
            s.tests,
            s.differing,
            s.new_causes.max(s.new_changes),
            g = gate(p)
        );
    }
    out.push_str("</table>\n");
    for p in pairs.iter().filter(|p| p.new_causes().next().is_some()) {
        let _ = writeln!(out, "<h2>{}</h2>\n<ul>", esc(&p.name()));
        for c in p.new_causes().take(CAUSES_SHOWN) {
            let _ = writeln!(
                out,
                "<li><code>{}</code> {}: {} ({})</li>",
                esc(&c.id),
                esc(c.label.describe()),
                esc(&change_text(c)),
                crate::plural::plural(c.tests, "test")
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The files of a summary, in the order they are written.
pub const SUMMARY_FILES: [&str; 2] = ["summary.md", "index.html"];

/// The stem of the summary's lock and journal (`DIR/summary.lock`, `DIR/summary.journal`).
const SUMMARY_STEM: &str = "summary";

/// Writes `DIR/summary.md` and `DIR/index.html` as one unit ([`crate::atomic::unit`]);
/// returns their paths. Under the lock of `DIR/summary.lock`, so two summaries into one
/// folder write one after the other and never leave the files of both; a write killed
/// after its commit point is finished by the next one, and one that fails before it (a full
/// disk) leaves the last summary whole.
pub(crate) fn write(
    dir: &Path,
    pairs: &[Pair],
    missing: usize,
) -> Result<Vec<PathBuf>, ReportError> {
    use std::io::Write as _;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Io { path, source }
    };
    let names = SUMMARY_FILES.map(String::from);
    let lock = crate::atomic::lock_path(&dir.join(SUMMARY_STEM));
    let unit =
        crate::atomic::unit::Unit::open_files(dir, SUMMARY_STEM, &names).map_err(io(&lock))?;
    let texts = [markdown(pairs, missing), html(pairs, missing)];
    let mut paths = Vec::new();
    let mut finished = Vec::new();
    for (name, text) in SUMMARY_FILES.into_iter().zip(texts) {
        let path = dir.join(name);
        let mut file = unit.create_file(name).map_err(io(&path))?;
        let done = file
            .write_all(text.as_bytes())
            .and_then(|()| file.finish())
            .map_err(io(&path))?;
        finished.push(done);
        paths.push(path);
    }
    unit.commit(finished).map_err(io(dir))?;
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_to_the_summary_folder() {
        let link = relative_link(
            Path::new("/ci/reports/a/x.html"),
            Path::new("/ci/reports/sum"),
        );
        assert_eq!(link, "../a/x.html");
        let link = relative_link(Path::new("/ci/reports/x.html"), Path::new("/ci/reports"));
        assert_eq!(link, "x.html");
    }

    #[test]
    fn markdown_text_cannot_break_the_table_or_add_markup() {
        assert_eq!(md_text("a|b\n[c](d)"), "a\\|b \\[c\\](d)");
    }
}
