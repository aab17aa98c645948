//! Reads suite files. The small preamble (header and exception table) goes through
//! serde_yaml; the tests, which can be hundreds of thousands of lines, are read line by line
//! in the layout [`super::write`] produces, which is far faster than a generic YAML parser
//! and reports mistakes by line.

use super::syntax::{VARIES, parse_observed, parse_observer, parse_statement, split_expected};
use super::{ErrorTest, FORMAT_VERSION, Header, Suite, SuiteError, Test};
use crate::contracts::ExceptionKind;
use crate::sequence::{Observed, ObserverCall, Statement, Violation};
use serde::Deserialize;
use std::collections::BTreeMap;
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
    suite: Suite,
    errors_section: bool,
    entry: Option<Entry>,
    block: Block,
}

/// Parses the text of a suite file read from `path`.
pub fn parse(text: &str, path: &Path) -> Result<Suite, SuiteError> {
    let start = tests_start(text).ok_or_else(|| syntax(path, 1, "no `tests:` list"))?;
    let (header, exceptions) = preamble(&text[..start], path)?;
    let mut reader = Reader {
        path,
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
    let first_line = text[..start].lines().count() + 1;
    for (n, line) in text[start..].lines().enumerate() {
        reader.line(line, first_line + n)?;
    }
    reader.close()?;
    Ok(reader.suite)
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
        syntax(path, line, e.to_string())
    };
    let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(yaml_error)?;
    let format = value
        .get("header")
        .and_then(|h| h.get("format"))
        .and_then(serde_yaml::Value::as_u64)
        .ok_or_else(|| syntax(path, 1, "the header has no format version"))?;
    if format > u64::from(FORMAT_VERSION) {
        return Err(SuiteError::Format {
            path: path.to_path_buf(),
            found: format,
        });
    }
    let p: Preamble = serde_yaml::from_value(value).map_err(yaml_error)?;
    Ok((p.header, p.exceptions))
}

impl Reader<'_> {
    fn line(&mut self, line: &str, n: usize) -> Result<(), SuiteError> {
        if let Some(content) = line.strip_prefix("    ") {
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
            let id = id
                .parse()
                .map_err(|_| syntax(self.path, n, "bad test id"))?;
            self.entry = Some(Entry {
                id,
                line: n,
                ..Entry::default()
            });
            return Ok(());
        }
        self.field(line, n)
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
