//! The tests of a suite, line by line: the layout [`super::write`] produces, parsed without
//! a generic YAML parser (far faster, and mistakes are named by line). Each entry is checked
//! against its sum line ([`super::checksum`]) and its id against the ids before it; a
//! finished entry comes out as an [`Item`], so a reader can hand tests on as it reads them.
//! Shared blocks ([`super::blocks`]) are held from their entry to their last use and
//! expanded where a test names them, so an [`Item`] is always the whole test.

use super::blocks::{Block, BlockPool, Held, SHARED, hold, is_ref, parse_ref, parse_shared};
use super::checksum::{SUM, digest, parse_hex};
use super::share::MAX_EXPANDED;
use super::syntax::{VARIES, parse_observed, parse_observer, parse_statement, split_expected};
use super::{ErrorTest, SuiteError, Test};
use crate::sequence::{Observed, ObserverCall, Statement, Violation};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// One finished entry of a suite.
#[derive(Debug)]
pub enum Item {
    /// A regression test.
    Test(Test),
    /// An error-revealing test.
    Error(ErrorTest),
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
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
    observations: Vec<Option<Observed>>,
    varies: Vec<usize>,
    contract: Option<String>,
    stmt: Option<usize>,
    detail: Option<String>,
    /// For a block: its number and uses.
    block: Option<(u64, u32)>,
    /// The blocks it names, with the statement each starts at.
    named: Vec<(usize, Arc<Block>)>,
    /// The sums of the blocks it names, one a line, which its own sum covers too.
    refs: String,
    /// For a block: its own code lines (without indent), one a line.
    own: String,
    /// Its sum.
    sum: u64,
}

/// Parses the lines from `tests:` on, one at a time.
pub struct Entries {
    path: Arc<Path>,
    /// The line of every id seen.
    ids: HashMap<u64, u32>,
    errors_section: bool,
    entry: Option<Entry>,
    block: Section,
    /// Blocks still to be named, by number.
    held: HashMap<u64, Held>,
    /// Blocks begun so far.
    blocks: u64,
    /// Where the readers of the same file share their blocks, if they do.
    pool: Option<Arc<BlockPool>>,
}

pub(crate) fn syntax(path: &Path, line: usize, message: impl Into<String>) -> SuiteError {
    SuiteError::Syntax {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

impl Entries {
    /// An empty reader of entries; `path` names the file in errors.
    pub fn new(path: &Path) -> Entries {
        Entries {
            path: Arc::from(path),
            ids: HashMap::new(),
            errors_section: false,
            entry: None,
            block: Section::None,
            held: HashMap::new(),
            blocks: 0,
            pool: None,
        }
    }

    /// Entries that share their blocks with the other readers of `pool` (see [`BlockPool`]).
    pub fn sharing(path: &Path, pool: Arc<BlockPool>) -> Entries {
        Entries {
            pool: Some(pool),
            ..Entries::new(path)
        }
    }

    /// Whether a test entry is open (its sum line not yet read).
    pub fn open(&self) -> bool {
        self.entry
            .as_ref()
            .is_some_and(|e| !e.summed && e.block.is_none())
    }

    /// Whether a block entry is being read (it ends at the next entry).
    pub fn open_block(&self) -> bool {
        self.entry.as_ref().is_some_and(|e| e.block.is_some())
    }

    /// Forgets the test entry being read, for a reader that skips it (a block is kept).
    pub fn discard(&mut self) {
        if !self.open_block() {
            self.entry = None;
            self.block = Section::None;
        }
    }

    /// Ends the block entry being read, for a reader that skips what follows it.
    pub fn end_block(&mut self) -> Result<(), SuiteError> {
        if self.open_block() {
            self.close()?;
        }
        Ok(())
    }

    /// Counts a use of the block a code line of a skipped test names (`content` is the line
    /// without its indent); other lines are ignored.
    pub fn skipped_line(&mut self, content: &str, n: usize) -> Result<(), SuiteError> {
        if !is_ref(content.as_bytes()) {
            return Ok(());
        }
        let (_, _, number) = parse_ref(content).map_err(|m| syntax(&self.path, n, m))?;
        self.take(number, n).map(drop)
    }

    /// A use of block `number`, at line `n`.
    fn take(&mut self, number: u64, n: usize) -> Result<(Arc<Block>, u64), SuiteError> {
        let open = self.entry.as_ref().and_then(|e| e.block).map(|b| b.0);
        let Some(held) = self.held.get_mut(&number) else {
            let message = if number > self.blocks || open == Some(number) {
                format!(
                    "shared {number} is not defined above this line: a block must come before what names it"
                )
            } else {
                format!("shared {number} is named more often than its `used by` count says")
            };
            return Err(syntax(&self.path, n, message));
        };
        held.left -= 1;
        let taken = (held.block.clone(), held.sum);
        if held.left == 0 {
            self.held.remove(&number);
        }
        Ok(taken)
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
        self.block = Section::None;
        if line.is_empty() || line.starts_with('#') || line == "tests:" || line == "tests: []" {
            self.keep(line);
            return Ok(None);
        }
        if line == "error_revealing:" || line == "error_revealing: []" {
            let item = self.close()?;
            self.errors_section = true;
            return Ok(item);
        }
        if let Some(rest) = line.strip_prefix(SHARED) {
            let item = self.close()?;
            return self.begin_block(rest, line, n).map(|()| item);
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

    /// Opens the block entry whose first line is `line`.
    fn begin_block(&mut self, rest: &str, line: &str, n: usize) -> Result<(), SuiteError> {
        if self.errors_section {
            return Err(syntax(
                &self.path,
                n,
                "a shared block among the error-revealing tests",
            ));
        }
        let (number, uses) = parse_shared(rest)
            .filter(|&(_, uses)| uses > 0)
            .ok_or_else(|| syntax(&self.path, n, "bad shared block line"))?;
        if number != self.blocks + 1 {
            let message = format!(
                "shared {number} out of order: blocks are numbered 1, 2, 3… and the next is {}",
                self.blocks + 1
            );
            return Err(syntax(&self.path, n, message));
        }
        self.blocks = number;
        self.entry = Some(Entry {
            line: n,
            block: Some((number, uses)),
            ..Entry::default()
        });
        self.keep(line);
        Ok(())
    }

    /// Adds a line to the open entry's text, which its sum line covers.
    fn keep(&mut self, line: &str) {
        if let Some(e) = self.entry.as_mut().filter(|e| !e.summed) {
            e.text.push_str(line);
            e.text.push('\n');
        }
    }

    /// Ends the last entry, at the end of the file; every block must have been named as
    /// often as it says.
    pub fn finish(&mut self) -> Result<Option<Item>, SuiteError> {
        let item = self.close()?;
        if let Some((number, h)) = self.held.iter().min_by_key(|(n, _)| **n) {
            let message = format!(
                "shared {number} says it is used {} more time(s) than the file names it",
                h.left
            );
            return Err(syntax(&self.path, h.line, message));
        }
        Ok(item)
    }

    /// Fails if the current entry's sum line was read: nothing of a test may follow it.
    fn not_summed(&self, n: usize) -> Result<(), SuiteError> {
        match &self.entry {
            Some(e) if e.summed => Err(syntax(
                &self.path,
                n,
                format!("{}: a line after its sum line", e.name()),
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
        entry.text.push_str(&entry.refs);
        if digest(entry.text.as_bytes()) != expected {
            return Err(syntax(
                path,
                entry.line,
                format!(
                    "{}: lines {}-{n} do not match their checksum: it was changed after it was recorded; record the suite again",
                    entry.name(),
                    entry.line
                ),
            ));
        }
        entry.summed = true;
        entry.sum = expected;
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
            "  code: |" => self.block = Section::Code,
            _ if entry.block.is_some() => {
                return Err(syntax(
                    path,
                    n,
                    format!("unexpected line in a shared block: {line}"),
                ));
            }
            "  observe: |" if !errors => self.block = Section::Observe,
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
        if block == Section::Code && is_ref(content.as_bytes()) {
            return self.reference(content, n);
        }
        let (code, expected) = split_expected(content);
        let varies = expected == Some(VARIES);
        let expected = match expected.filter(|_| !varies) {
            Some(text) => Some(parse_observed(text).map_err(at)?),
            None => None,
        };
        match block {
            Section::Code => {
                let s = parse_statement(code, entry.statements.len()).map_err(at)?;
                if entry.block.is_some() {
                    entry.own.push_str(content);
                    entry.own.push('\n');
                }
                if varies {
                    entry.varies.push(entry.statements.len());
                }
                entry.statements.push(s);
                entry.expected_steps.push(expected);
            }
            Section::Observe => {
                let o = parse_observer(code).map_err(at)?;
                if expected.is_none() && !varies {
                    return Err(at("an observer without its value".into()));
                }
                entry.observers.push(o);
                entry.observations.push(expected);
            }
            Section::None => return Err(at("indented line outside `code` or `observe`".into())),
        }
        Ok(())
    }

    /// Expands the block a code line names into the entry.
    fn reference(&mut self, content: &str, n: usize) -> Result<(), SuiteError> {
        let at = |m: String| syntax(&self.path, n, m);
        if self.errors_section {
            return Err(at("error-revealing tests do not name shared blocks".into()));
        }
        let (first, last, number) = parse_ref(content).map_err(at)?;
        let next = self.entry.as_ref().map_or(0, |e| e.statements.len());
        if first != next {
            return Err(at(format!("v{first}..: the next variable is v{next}")));
        }
        let (block, sum) = self.take(number, n)?;
        if last + 1 - first != block.len {
            let m = format!(
                "shared {number} has {} statements, not {}",
                block.len,
                last + 1 - first
            );
            return Err(syntax(&self.path, n, m));
        }
        if next + block.len > MAX_EXPANDED {
            let m = format!("the statements named expand to more than {MAX_EXPANDED}");
            return Err(syntax(&self.path, n, m));
        }
        let Some(e) = self.entry.as_mut() else {
            return Err(syntax(&self.path, n, "statement outside a test"));
        };
        block
            .expand(
                next,
                &mut e.statements,
                &mut e.expected_steps,
                &mut e.varies,
            )
            .map_err(|m| syntax(&self.path, n, format!("shared {number}: {m}")))?;
        e.refs.push_str(&format!("{sum:016x}\n"));
        e.named.push((next, block));
        Ok(())
    }

    /// Ends the current entry and checks it.
    fn close(&mut self) -> Result<Option<Item>, SuiteError> {
        let Some(e) = self.entry.take() else {
            return Ok(None);
        };
        let name = e.name();
        let bad = |m: &str| syntax(&self.path, e.line, format!("{name}: {m}"));
        if !e.summed {
            return Err(bad("no sum line"));
        }
        if e.statements.is_empty() {
            return Err(bad("no statements"));
        }
        check_references(&e).map_err(|m| bad(&m))?;
        if let Some((number, left)) = e.block {
            let (line, sum) = (e.line, e.sum);
            let make = || hold(&e.own, e.statements.len(), e.named);
            let block = match &self.pool {
                Some(pool) => pool.share(number, sum, make),
                None => Arc::new(make()),
            };
            let held = Held {
                block,
                sum,
                left,
                line,
            };
            self.held.insert(number, held);
            return Ok(None);
        }
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

impl Entry {
    fn name(&self) -> String {
        match self.block {
            Some((n, _)) => format!("shared {n}"),
            None => format!("test {}", self.id),
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
