//! Reads suite files. The small preamble (header and exception table) goes through
//! serde_yaml; the tests, which can be hundreds of thousands of lines, are read line by line
//! in the layout [`super::write`] produces, which is far faster than a generic YAML parser
//! and reports mistakes by line. Integrity is checked on the way ([`super::checksum`]): each
//! test against its sum line, ids against earlier ones, and at the end the counts and the
//! whole file against the end line. Anything that does not check out is an error naming the
//! file and line: a suite is used whole and verified, or not at all.

use super::checksum::{END, SUM, digest, parse_end, parse_hex};
use super::syntax::{VARIES, parse_observed, parse_observer, parse_statement, split_expected};
use super::{ErrorTest, FORMAT_VERSION, Header, MIN_FORMAT_VERSION, Suite, SuiteError, Test};
use crate::contracts::ExceptionKind;
use crate::sequence::{Observed, ObserverCall, Statement, Violation};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

#[derive(Deserialize)]
struct Preamble {
    header: Header,
    #[serde(default)]
    exceptions: BTreeMap<String, ExceptionKind>,
}

#[derive(Clone, Copy, PartialEq)]
enum Block {
    None,
    Code,
    Observe,
}

/// A test entry while its lines are read.
#[derive(Default)]
struct Entry {
    id: u64,
    line: usize,
    /// Byte offset of its `- id:` line.
    start: usize,
    /// Whether its sum line was read (and matched).
    summed: bool,
    statements: Vec<Statement>,
    expected_steps: Vec<Option<Observed>>,
    observers: Vec<ObserverCall>,
    observations: Vec<Observed>,
    varies: Vec<usize>,
    contract: Option<String>,
    stmt: Option<usize>,
    detail: Option<String>,
}

struct Reader<'a> {
    path: &'a Path,
    text: &'a str,
    /// The line of every id seen.
    ids: HashMap<u64, usize>,
    suite: Suite,
    errors_section: bool,
    entry: Option<Entry>,
    block: Block,
}

/// Parses the text of a suite file read from `path`.
pub fn parse(text: &str, path: &Path) -> Result<Suite, SuiteError> {
    let start = tests_start(text).ok_or_else(|| syntax(path, 1, "no `tests:` list"))?;
    let (header, exceptions) = preamble(&text[..start], path)?;
    let (body_end, end) = end_line(text, path)?;
    let mut reader = Reader {
        path,
        text,
        ids: HashMap::new(),
        suite: Suite {
            header,
            tests: Vec::new(),
            error_revealing: Vec::new(),
            exceptions,
        },
        errors_section: false,
        entry: None,
        block: Block::None,
    };
    let mut n = text[..start].lines().count() + 1;
    let mut offset = start;
    for raw in text[start..body_end.max(start)].split_inclusive('\n') {
        reader.line(raw.strip_suffix('\n').unwrap_or(raw), n, offset)?;
        offset += raw.len();
        n += 1;
    }
    reader.close()?;
    let suite = reader.suite;
    let found = (suite.tests.len(), suite.error_revealing.len());
    if (end.tests, end.errors) != found {
        return Err(syntax(
            path,
            n,
            format!(
                "the end line says {} tests and {} error-revealing, the file holds {} and {}: tests were deleted or added",
                end.tests, end.errors, found.0, found.1
            ),
        ));
    }
    if digest(&text.as_bytes()[..body_end]) != end.total {
        return Err(syntax(
            path,
            n,
            "the file does not match the checksum on its end line: the header or the lines between tests were edited; record the suite again",
        ));
    }
    for (key, found) in [("tests", found.0), ("error-revealing", found.1)] {
        if let Some(&said) = suite.header.counts.get(key).filter(|&&c| c != found as u64) {
            return Err(syntax(
                path,
                1,
                format!("the header says {said} {key} tests, the file holds {found}"),
            ));
        }
    }
    Ok(suite)
}

/// The byte offset where the end line starts, and what it says.
fn end_line(text: &str, path: &Path) -> Result<(usize, super::checksum::End), SuiteError> {
    let missing = || {
        let line = text.lines().count().max(1);
        syntax(
            path,
            line,
            format!(
                "no end line (`{END}…`): the file is truncated, or was not written by difftest"
            ),
        )
    };
    let body = text.strip_suffix('\n').ok_or_else(missing)?;
    let at = body.rfind('\n').map_or(0, |i| i + 1);
    let end = parse_end(&body[at..]).ok_or_else(missing)?;
    Ok((at, end))
}

/// Byte offset of the line that starts the `tests:` list.
fn tests_start(text: &str) -> Option<usize> {
    if text.starts_with("tests:") {
        return Some(0);
    }
    text.find("\ntests:").map(|i| i + 1)
}

fn syntax(path: &Path, line: usize, message: impl Into<String>) -> SuiteError {
    SuiteError::Syntax {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

fn preamble(
    text: &str,
    path: &Path,
) -> Result<(Header, BTreeMap<String, ExceptionKind>), SuiteError> {
    let yaml_error = |e: serde_yaml::Error| {
        let line = e.location().map_or(1, |l| l.line());
        // serde_yaml quotes the offending text, newlines and all (found by the fuzz harness):
        // errors stay on one line.
        syntax(path, line, e.to_string().replace('\n', "\\n"))
    };
    let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(yaml_error)?;
    let format = value
        .get("header")
        .and_then(|h| h.get("format"))
        .and_then(serde_yaml::Value::as_u64)
        .ok_or_else(|| syntax(path, 1, "the header has no format version"))?;
    let path_buf = path.to_path_buf();
    if format > u64::from(FORMAT_VERSION) {
        return Err(SuiteError::Format {
            path: path_buf,
            found: format,
        });
    }
    if format == 0 {
        return Err(SuiteError::NoSuchFormat {
            path: path_buf,
            found: format,
        });
    }
    if format < u64::from(MIN_FORMAT_VERSION) {
        return Err(SuiteError::Unchecked {
            path: path_buf,
            found: format,
        });
    }
    let p: Preamble = serde_yaml::from_value(value).map_err(yaml_error)?;
    Ok((p.header, p.exceptions))
}

impl Reader<'_> {
    fn line(&mut self, line: &str, n: usize, offset: usize) -> Result<(), SuiteError> {
        if let Some(content) = line.strip_prefix("    ") {
            self.not_summed(n)?;
            return self.content(content, n);
        }
        self.block = Block::None;
        if line.is_empty() || line.starts_with('#') || line == "tests:" || line == "tests: []" {
            return Ok(());
        }
        if line == "error_revealing:" || line == "error_revealing: []" {
            self.close()?;
            self.errors_section = true;
            return Ok(());
        }
        if let Some(id) = line.strip_prefix("- id: ") {
            self.close()?;
            let digits = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit());
            let id = id
                .parse()
                .ok()
                .filter(|_| digits)
                .ok_or_else(|| syntax(self.path, n, "bad test id"))?;
            if let Some(first) = self.ids.insert(id, n) {
                let message = format!("test id {id} appears twice (first at line {first})");
                return Err(syntax(self.path, n, message));
            }
            self.entry = Some(Entry {
                id,
                line: n,
                start: offset,
                ..Entry::default()
            });
            return Ok(());
        }
        if let Some(hex) = line.strip_prefix(SUM) {
            return self.sum(hex, n, offset);
        }
        self.not_summed(n)?;
        self.field(line, n)
    }

    /// Fails if the current entry's sum line was read: nothing of a test may follow it.
    fn not_summed(&self, n: usize) -> Result<(), SuiteError> {
        match &self.entry {
            Some(e) if e.summed => Err(syntax(
                self.path,
                n,
                format!("test {}: a line after its sum line", e.id),
            )),
            _ => Ok(()),
        }
    }

    /// Checks the current entry against its sum line at byte `offset`.
    fn sum(&mut self, hex: &str, n: usize, offset: usize) -> Result<(), SuiteError> {
        self.not_summed(n)?;
        let path = self.path;
        let Some(entry) = self.entry.as_mut() else {
            return Err(syntax(path, n, "a sum line outside a test"));
        };
        let expected = parse_hex(hex).ok_or_else(|| syntax(path, n, "bad sum line"))?;
        if digest(&self.text.as_bytes()[entry.start..offset]) != expected {
            return Err(syntax(
                path,
                entry.line,
                format!(
                    "test {}: lines {}-{n} do not match their checksum: the test was changed after it was recorded; record the suite again",
                    entry.id, entry.line
                ),
            ));
        }
        entry.summed = true;
        Ok(())
    }

    fn field(&mut self, line: &str, n: usize) -> Result<(), SuiteError> {
        let path = self.path;
        let errors = self.errors_section;
        let entry = self
            .entry
            .as_mut()
            .ok_or_else(|| syntax(path, n, format!("unexpected line: {line}")))?;
        match line {
            "  code: |" => self.block = Block::Code,
            "  observe: |" if !errors => self.block = Block::Observe,
            _ if errors && line.starts_with("  contract: ") => {
                entry.contract = Some(line["  contract: ".len()..].to_string());
            }
            _ if errors && line.starts_with("  stmt: ") => {
                let stmt = line["  stmt: ".len()..].parse();
                entry.stmt = Some(stmt.map_err(|_| syntax(path, n, "bad statement index"))?);
            }
            _ if errors && line.starts_with("  detail: '") && line.ends_with('\'') => {
                let quoted = &line["  detail: '".len()..line.len() - 1];
                entry.detail = Some(quoted.replace("''", "'"));
            }
            _ => return Err(syntax(path, n, format!("unexpected line: {line}"))),
        }
        Ok(())
    }

    fn content(&mut self, content: &str, n: usize) -> Result<(), SuiteError> {
        let path = self.path;
        let at = |m: String| syntax(path, n, m);
        let (Some(entry), block) = (self.entry.as_mut(), self.block) else {
            return Err(at("statement outside a test".into()));
        };
        let (code, expected) = split_expected(content);
        let varies = block == Block::Code && expected == Some(VARIES);
        let expected = match expected.filter(|_| !varies) {
            Some(text) => Some(parse_observed(text).map_err(at)?),
            None => None,
        };
        match block {
            Block::Code => {
                let s = parse_statement(code, entry.statements.len()).map_err(at)?;
                if varies {
                    entry.varies.push(entry.statements.len());
                }
                entry.statements.push(s);
                entry.expected_steps.push(expected);
            }
            Block::Observe => {
                let o = parse_observer(code).map_err(at)?;
                let e = expected.ok_or_else(|| at("an observer without its value".into()))?;
                entry.observers.push(o);
                entry.observations.push(e);
            }
            Block::None => return Err(at("indented line outside `code` or `observe`".into())),
        }
        Ok(())
    }

    /// Ends the current entry and checks it.
    fn close(&mut self) -> Result<(), SuiteError> {
        let Some(e) = self.entry.take() else {
            return Ok(());
        };
        let bad = |m: &str| syntax(self.path, e.line, format!("test {}: {m}", e.id));
        if !e.summed {
            return Err(bad("no sum line"));
        }
        if e.statements.is_empty() {
            return Err(bad("no statements"));
        }
        check_references(&e).map_err(|m| bad(&m))?;
        if self.errors_section {
            let (Some(contract), Some(stmt), Some(detail)) = (e.contract, e.stmt, e.detail) else {
                return Err(bad("needs contract, stmt and detail"));
            };
            let violation = Violation {
                stmt,
                contract,
                detail,
            };
            self.suite.error_revealing.push(ErrorTest {
                id: e.id,
                statements: e.statements,
                violation,
            });
        } else {
            self.suite.tests.push(Test {
                id: e.id,
                statements: e.statements,
                observers: e.observers,
                expected_steps: e.expected_steps,
                expected_observations: e.observations,
                varies: e.varies,
            });
        }
        Ok(())
    }
}

/// Every variable a statement or observer reads must be defined before it.
fn check_references(e: &Entry) -> Result<(), String> {
    for (i, s) in e.statements.iter().enumerate() {
        if let Some(bad) = s.inputs().into_iter().find(|&v| v >= i) {
            return Err(format!("v{i} reads v{bad} before it is defined"));
        }
    }
    let n = e.statements.len();
    match e.observers.iter().find(|o| o.stmt >= n) {
        Some(o) => Err(format!(
            "an observer reads v{}, which does not exist",
            o.stmt
        )),
        None => Ok(()),
    }
}
