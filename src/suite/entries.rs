//! The tests of a suite, line by line: the layout [`super::write`] produces, parsed without
//! a generic YAML parser (far faster, and mistakes are named by line). Each entry is checked
//! against its sum line ([`super::checksum`]) and its id against the ids before it; a
//! finished entry comes out as an [`Item`], so a reader can hand tests on as it reads them.

use super::checksum::{SUM, digest, parse_hex};
use super::syntax::{VARIES, parse_observed, parse_observer, parse_statement, split_expected};
use super::{ErrorTest, SuiteError, Test};
use crate::sequence::{Observed, ObserverCall, Statement, Violation};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// One finished entry of a suite.
#[derive(Debug)]
pub enum Item {
    Test(Test),
    Error(ErrorTest),
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
    /// Its lines so far (from `- id:`), which its sum line covers.
    text: String,
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

/// Parses the lines from `tests:` on, one at a time.
pub struct Entries {
    path: Arc<Path>,
    /// The line of every id seen.
    ids: HashMap<u64, u32>,
    errors_section: bool,
    entry: Option<Entry>,
    block: Block,
}

pub fn syntax(path: &Path, line: usize, message: impl Into<String>) -> SuiteError {
    SuiteError::Syntax {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

impl Entries {
    pub fn new(path: &Path) -> Entries {
        Entries {
            path: Arc::from(path),
            ids: HashMap::new(),
            errors_section: false,
            entry: None,
            block: Block::None,
        }
    }

    /// Whether a test entry is open (its sum line not yet read).
    pub fn open(&self) -> bool {
        self.entry.as_ref().is_some_and(|e| !e.summed)
    }

    /// Forgets the entry being read, for a reader that skips it.
    pub fn discard(&mut self) {
        self.entry = None;
        self.block = Block::None;
    }

    /// Whether the error-revealing tests have begun.
    pub fn in_errors(&self) -> bool {
        self.errors_section
    }

    /// Takes line `n` (without its newline); a finished entry comes out.
    pub fn line(&mut self, line: &str, n: usize) -> Result<Option<Item>, SuiteError> {
        if let Some(content) = line.strip_prefix("    ") {
            self.not_summed(n)?;
            self.content(content, n)?;
            self.keep(line);
            return Ok(None);
        }
        self.block = Block::None;
        if line.is_empty() || line.starts_with('#') || line == "tests:" || line == "tests: []" {
            self.keep(line);
            return Ok(None);
        }
        if line == "error_revealing:" || line == "error_revealing: []" {
            let item = self.close()?;
            self.errors_section = true;
            return Ok(item);
        }
        if let Some(id) = line.strip_prefix("- id: ") {
            let item = self.close()?;
            let digits = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit());
            let id = id
                .parse()
                .ok()
                .filter(|_| digits)
                .ok_or_else(|| syntax(&self.path, n, "bad test id"))?;
            if let Some(first) = self.ids.insert(id, n as u32) {
                let message = format!("test id {id} appears twice (first at line {first})");
                return Err(syntax(&self.path, n, message));
            }
            self.entry = Some(Entry {
                id,
                line: n,
                ..Entry::default()
            });
            self.keep(line);
            return Ok(item);
        }
        if let Some(hex) = line.strip_prefix(SUM) {
            self.sum(hex, n)?;
            return Ok(None);
        }
        self.not_summed(n)?;
        self.field(line, n)?;
        self.keep(line);
        Ok(None)
    }

    /// Adds a line to the open entry's text, which its sum line covers.
    fn keep(&mut self, line: &str) {
        if let Some(e) = self.entry.as_mut().filter(|e| !e.summed) {
            e.text.push_str(line);
            e.text.push('\n');
        }
    }

    /// Ends the last entry, at the end of the file.
    pub fn finish(&mut self) -> Result<Option<Item>, SuiteError> {
        self.close()
    }

    /// Fails if the current entry's sum line was read: nothing of a test may follow it.
    fn not_summed(&self, n: usize) -> Result<(), SuiteError> {
        match &self.entry {
            Some(e) if e.summed => Err(syntax(
                &self.path,
                n,
                format!("test {}: a line after its sum line", e.id),
            )),
            _ => Ok(()),
        }
    }

    /// Checks the current entry against its sum line.
    fn sum(&mut self, hex: &str, n: usize) -> Result<(), SuiteError> {
        self.not_summed(n)?;
        let path = self.path.clone();
        let path = &*path;
        let Some(entry) = self.entry.as_mut() else {
            return Err(syntax(path, n, "a sum line outside a test"));
        };
        let expected = parse_hex(hex).ok_or_else(|| syntax(path, n, "bad sum line"))?;
        if digest(entry.text.as_bytes()) != expected {
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
        entry.text = String::new();
        Ok(())
    }

    fn field(&mut self, line: &str, n: usize) -> Result<(), SuiteError> {
        let path = self.path.clone();
        let path = &*path;
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
        let path = self.path.clone();
        let path = &*path;
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
    fn close(&mut self) -> Result<Option<Item>, SuiteError> {
        let Some(e) = self.entry.take() else {
            return Ok(None);
        };
        let bad = |m: &str| syntax(&self.path, e.line, format!("test {}: {m}", e.id));
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
            Ok(Some(Item::Error(ErrorTest {
                id: e.id,
                statements: e.statements,
                violation,
            })))
        } else {
            Ok(Some(Item::Test(Test {
                id: e.id,
                statements: e.statements,
                observers: e.observers,
                expected_steps: e.expected_steps,
                expected_observations: e.observations,
                varies: e.varies,
            })))
        }
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
