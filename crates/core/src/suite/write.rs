//! Writes suite files: the header and exception table through serde_yaml (small), then each
//! test as a YAML block of Java-like lines written by hand and closed by its checksum,
//! streamed to a temporary file that replaces the target only when everything, and the end
//! line with the counts and the whole file's checksum ([`super::checksum`]), is written.
//! A path ending in `.zst` gets the same text zstd-compressed ([`super::compress`]).
//!
//! ```yaml
//! tests:
//! - id: 12
//!   code: |
//!     v0 = new java.util.ArrayList()
//!     v1 = (int) 10
//!     v2 = ((java.util.ArrayList) v0).add((java.lang.Object) v1)  // true
//!   observe: |
//!     ((java.util.ArrayList) v0).size()  // 1
//!   sum: 5f0c1b2e4d6a7980
//! ```

use super::blocks::{ref_line, shared_line};
use super::checksum::{Running, SUM, digest, end_line, sum_line};
use super::compress::Sink;
use super::share::{Plan, Seg};
use super::syntax::{EXPECT, VARIES, write_expr, write_observed, write_observer};
use super::{ErrorTest, Header, SuiteError, Test};
use crate::contracts::ExceptionKind;
use crate::sequence::{Observed, Statement};
use serde::Serialize;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first line of every suite file.
pub(crate) const BANNER: &str = "# difftest suite: method-call sequences and what the reference gave. \
Lines are Java-like; `// x` is the expected value.";

#[derive(Serialize)]
struct Preamble<'a> {
    header: &'a Header,
    exceptions: &'a BTreeMap<String, ExceptionKind>,
}

#[derive(PartialEq, PartialOrd)]
enum Section {
    Preamble,
    Tests,
    Errors,
}

/// A block already written.
struct Written {
    number: u64,
    sum: String,
    left: u32,
    len: usize,
}

/// A suite being written; nothing replaces the target until [`Writer::finish`].
pub struct Writer {
    path: PathBuf,
    out: Sink,
    section: Section,
    buf: String,
    total: Running,
    tests: usize,
    errors: usize,
    /// Which blocks to write and name ([`super::share`]); none writes every test in full.
    plan: Option<Plan>,
    /// Regression tests written so far.
    written: usize,
    /// Blocks written and still to be named, by their index in the plan.
    blocks: HashMap<u32, Written>,
    /// Blocks written so far.
    defined: u64,
    /// The sums of the blocks the entry in `buf` names, which its own sum covers too.
    refs: String,
}

impl Writer {
    /// Starts a suite at `path` (its folder is created if needed).
    pub fn create(
        path: &Path,
        header: &Header,
        exceptions: &BTreeMap<String, ExceptionKind>,
    ) -> Result<Writer, SuiteError> {
        let io = |source| SuiteError::Io {
            path: path.to_path_buf(),
            source,
        };
        let out = Sink::create(path).map_err(io)?;
        // The file gets checksums, so it is of the current format whatever `header` says.
        let header = &Header {
            format: super::FORMAT_VERSION,
            ..header.clone()
        };
        let yaml = serde_yaml::to_string(&Preamble { header, exceptions })
            .map_err(|e| io(std::io::Error::other(e)))?;
        let mut w = Writer {
            path: path.to_path_buf(),
            out,
            section: Section::Preamble,
            buf: String::with_capacity(1 << 16),
            total: Running::default(),
            tests: 0,
            errors: 0,
            plan: None,
            written: 0,
            blocks: HashMap::new(),
            defined: 0,
            refs: String::new(),
        };
        w.emit(format!("{BANNER}\n").as_bytes())?;
        w.emit(yaml.as_bytes())?;
        Ok(w)
    }

    /// Writes bytes covered by the end line's checksum.
    fn emit(&mut self, bytes: &[u8]) -> Result<(), SuiteError> {
        self.total.update(bytes);
        self.out.write_all(bytes).map_err(|e| self.io(e))
    }

    /// Shares statements between the next regression tests as `plan` says; they must then
    /// be written in the plan's order, all of them before the next plan.
    pub fn share(&mut self, plan: Plan) -> Result<(), SuiteError> {
        if let Some((id, _)) = self.plan.as_ref().and_then(|p| p.tests.get(self.written)) {
            return Err(self.invalid(*id, "the sharing plan before it was not written whole"));
        }
        self.plan = Some(plan);
        self.written = 0;
        Ok(())
    }

    /// Writes the entry in `self.buf` followed by its sum line (over its text and the sums
    /// of the blocks it names); returns the sum.
    fn emit_entry(&mut self) -> Result<String, SuiteError> {
        let mut buf = std::mem::take(&mut self.buf);
        let sum = if self.refs.is_empty() {
            sum_line(&buf)
        } else {
            let mut text = buf.clone();
            text.push_str(&self.refs);
            self.refs.clear();
            format!("{SUM}{:016x}\n", digest(text.as_bytes()))
        };
        buf.push_str(&sum);
        let written = self.emit(buf.as_bytes());
        self.buf = buf;
        written.map(|()| sum[SUM.len()..SUM.len() + 16].to_string())
    }

    fn io(&self, source: std::io::Error) -> SuiteError {
        SuiteError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Opens `section` for items, closing the lists before it (an empty list is `[]`).
    fn open(&mut self, section: Section) -> Result<(), SuiteError> {
        let mut text = String::new();
        if self.section == Section::Preamble {
            text.push_str(if section == Section::Tests {
                "tests:\n"
            } else {
                "tests: []\n"
            });
        }
        if section == Section::Errors && self.section != Section::Errors {
            text.push_str("error_revealing:\n");
        }
        self.section = section;
        self.emit(text.as_bytes())
    }

    /// Appends a regression test; all of them come before the error-revealing ones.
    pub fn test(&mut self, t: &Test) -> Result<(), SuiteError> {
        if self.section > Section::Tests {
            return Err(self.invalid(t.id, "regression tests must come first"));
        }
        if t.observers.len() != t.expected_observations.len() {
            return Err(self.invalid(t.id, "observers and observations differ in number"));
        }
        self.open(Section::Tests)?;
        let Some(plan) = self.plan.take() else {
            self.buf.clear();
            format_test(&mut self.buf, t);
            self.tests += 1;
            return self.emit_entry().map(drop);
        };
        let written = self.shared_test(&plan, t);
        self.plan = Some(plan);
        written
    }

    /// Writes `t` as `plan` covers it, and before it the blocks it names first.
    fn shared_test(&mut self, plan: &Plan, t: &Test) -> Result<(), SuiteError> {
        let cover = match plan.tests.get(self.written) {
            Some((id, cover)) if *id == t.id => plan.effective(cover),
            _ => return Err(self.invalid(t.id, "not the test the sharing plan has next")),
        };
        self.written += 1;
        for seg in &cover {
            if let Seg::Block { block, start } = *seg {
                self.define(plan, block, t, start as usize)?;
            }
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.push_str(&format!("- id: {}\n", t.id));
        self.segments(&mut buf, &cover, t, 0);
        format_observers(&mut buf, t);
        self.buf = buf;
        self.tests += 1;
        self.emit_entry().map(drop)
    }

    /// Writes block `block` (first the blocks it names) from `t`'s statements at `at`.
    fn define(&mut self, plan: &Plan, block: u32, t: &Test, at: usize) -> Result<(), SuiteError> {
        if self.blocks.contains_key(&block) {
            return Ok(());
        }
        let b = &plan.blocks[block as usize];
        let cover = plan.effective(&b.cover);
        for seg in &cover {
            if let Seg::Block { block, start } = *seg {
                self.define(plan, block, t, at + start as usize)?;
            }
        }
        self.defined += 1;
        let n = self.defined;
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.push_str(&shared_line(n, b.uses));
        self.segments(&mut buf, &cover, t, at);
        self.buf = buf;
        let sum = self.emit_entry()?;
        let written = Written {
            number: n,
            sum,
            left: b.uses,
            len: b.len as usize,
        };
        self.blocks.insert(block, written);
        Ok(())
    }

    /// Appends the code block of statements `at…` of `t` as `cover` says, numbered from 0
    /// (blocks named by reference), and notes the sums of the blocks named.
    fn segments(&mut self, out: &mut String, cover: &[Seg], t: &Test, at: usize) {
        out.push_str("  code: |\n");
        for seg in cover {
            match *seg {
                Seg::Own { start, len } => {
                    for i in start as usize..(start + len) as usize {
                        let s = t.statements[at + i].remap(|v| v - at);
                        let expected = t.expected_steps.get(at + i).and_then(Option::as_ref);
                        format_step(out, i, &s, expected, t.varies_at(at + i));
                    }
                }
                Seg::Block { block, start } => {
                    // Defined before any entry that names it.
                    let Some(w) = self.blocks.get_mut(&block) else {
                        continue;
                    };
                    ref_line(out, start as usize, w.len, w.number);
                    self.refs.push_str(&w.sum);
                    self.refs.push('\n');
                    w.left -= 1;
                    if w.left == 0 {
                        self.blocks.remove(&block);
                    }
                }
            }
        }
    }

    /// Appends an error-revealing test.
    pub(crate) fn error_test(&mut self, e: &ErrorTest) -> Result<(), SuiteError> {
        self.open(Section::Errors)?;
        self.buf.clear();
        format_error_test(&mut self.buf, e);
        self.errors += 1;
        self.emit_entry().map(drop)
    }

    /// Closes the lists, flushes and renames the file into place.
    pub fn finish(mut self) -> Result<(), SuiteError> {
        let tail = match self.section {
            Section::Preamble => "tests: []\nerror_revealing: []\n",
            Section::Tests => "error_revealing: []\n",
            Section::Errors => "",
        };
        self.emit(tail.as_bytes())?;
        let end = end_line(self.tests, self.errors, self.total.value());
        self.out.write_all(end.as_bytes()).map_err(|e| self.io(e))?;
        self.out.commit().map_err(|source| SuiteError::Io {
            path: self.path.clone(),
            source,
        })
    }

    fn invalid(&self, id: u64, message: &str) -> SuiteError {
        SuiteError::Invalid {
            path: self.path.clone(),
            id,
            message: message.to_string(),
        }
    }
}

/// Appends statement line `i` with its expected value (or `varies`).
fn format_step(
    out: &mut String,
    i: usize,
    s: &Statement,
    expected: Option<&Observed>,
    varies: bool,
) {
    out.push_str("    v");
    out.push_str(&i.to_string());
    out.push_str(" = ");
    write_expr(out, s);
    if let Some(o) = expected {
        out.push_str(EXPECT);
        write_observed(out, o);
    } else if varies {
        out.push_str(EXPECT);
        out.push_str(VARIES);
    }
    out.push('\n');
}

fn format_code(
    out: &mut String,
    statements: &[Statement],
    expected: &[Option<Observed>],
    varies: &[usize],
) {
    out.push_str("  code: |\n");
    for (i, s) in statements.iter().enumerate() {
        let e = expected.get(i).and_then(Option::as_ref);
        format_step(out, i, s, e, varies.binary_search(&i).is_ok());
    }
}

/// Appends one regression test entry, every statement written out.
pub(crate) fn format_test(out: &mut String, t: &Test) {
    out.push_str("- id: ");
    out.push_str(&t.id.to_string());
    out.push('\n');
    format_code(out, &t.statements, &t.expected_steps, &t.varies);
    format_observers(out, t);
}

/// Appends the `observe` block of a regression test, if it has observers.
fn format_observers(out: &mut String, t: &Test) {
    if t.observers.is_empty() {
        return;
    }
    out.push_str("  observe: |\n");
    for (o, expected) in t.observers.iter().zip(&t.expected_observations) {
        out.push_str("    ");
        write_observer(out, o);
        out.push_str(EXPECT);
        match expected {
            Some(e) => write_observed(out, e),
            None => out.push_str(VARIES),
        }
        out.push('\n');
    }
}

/// Appends one error-revealing test entry; the detail is a single-quoted YAML scalar.
pub(crate) fn format_error_test(out: &mut String, e: &ErrorTest) {
    let v = &e.violation;
    out.push_str(&format!(
        "- id: {}\n  contract: {}\n  stmt: {}\n  detail: '{}'\n",
        e.id,
        v.contract,
        v.stmt,
        v.detail.replace('\'', "''")
    ));
    format_code(out, &e.statements, &[], &[]);
}
