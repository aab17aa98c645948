//! The regression suite: tests recorded on a reference implementation with their expected
//! outcomes (`oracles/NAME.yaml`), and the error-revealing tests that broke a contract.
//!
//! The file is YAML, written and read by our own code for speed (see [`write`] and
//! [`read`]): a header mapping, the classification of the exceptions the tests expect, then
//! one entry per test whose statements are a block of Java-like lines ([`syntax`]).

pub(crate) mod blocks;
pub mod checksum;
pub mod chunked;
pub mod compress;
pub mod entries;
pub mod file;
pub mod read;
pub mod share;
pub(crate) mod syntax;
pub(crate) mod write;

use crate::contracts::ExceptionKind;
use crate::message::SeqRequest;
use crate::sequence::{Observed, ObserverCall, Statement, Violation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use write::Writer;

/// Version of the suite file format. 2 added `// varies`; 3 added a checksum to every test
/// and an end line with the counts and the whole file's checksum ([`checksum`]); 4 added
/// shared blocks, statements written once and named by the tests that start from them
/// ([`blocks`], [`share`]); 5 allows `// varies` on an observer, which runs unchecked.
pub const FORMAT_VERSION: u32 = 5;

/// The oldest format read: older suites carry no checksums, so a corrupt byte in them
/// could pass the gate; they are refused and must be recorded again.
pub(crate) const MIN_FORMAT_VERSION: u32 = 3;

/// One regression test: a sequence, the observers called after it, and what the reference
/// gave. `expected_steps[i]` is `None` where step `i` is not checked (an object, or unstable).
/// An expected `Threw` without a message checks the exception's class only (its message
/// changed between reruns on the reference). Steps in `varies` gave different values on the
/// reference from run to run, or read such a value: they are never checked, and one that
/// throws on the target ends the comparison without a difference. An observer whose
/// expected value is `None` varied too, but still runs: an observer may change what it
/// reads (a buffer's relative `getInt()` moves its position), and the checked observers
/// after it were recorded after it ran.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Test {
    /// The test's id, unique in its suite.
    pub id: u64,
    /// The calls, in order.
    pub statements: Vec<Statement>,
    /// Observer calls made on the final values.
    pub observers: Vec<ObserverCall>,
    /// The reference's outcome of each statement; `None` where not checked.
    pub expected_steps: Vec<Option<Observed>>,
    /// The reference's outcome of each observer call; `None` where it runs unchecked.
    pub expected_observations: Vec<Option<Observed>>,
    /// Steps whose value varies on the reference, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub varies: Vec<usize>,
}

impl Test {
    /// Whether step `i`'s value varies on the reference.
    pub fn varies_at(&self, i: usize) -> bool {
        self.varies.binary_search(&i).is_ok()
    }

    /// What a worker must run to replay this test.
    pub fn request(&self) -> SeqRequest {
        SeqRequest {
            statements: self.statements.clone(),
            observers: self.observers.clone(),
        }
    }

    /// Number of values this test checks (expected steps and observations).
    pub fn check_count(&self) -> usize {
        self.expected_steps.iter().flatten().count()
            + self.expected_observations.iter().flatten().count()
    }
}

/// A sequence that broke a contract on the reference (never extended, never replayed as a
/// regression test).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ErrorTest {
    /// The test's id.
    pub id: u64,
    /// The calls, in order.
    pub statements: Vec<Statement>,
    /// The contract broken, and where.
    pub violation: Violation,
}

/// `record --max-value-bytes` by default: the longest escaped value text stored whole.
pub const DEFAULT_MAX_VALUE_BYTES: u64 = 64 * 1024;

/// The header option recording `--max-value-bytes`; a suite without it (written before the
/// limit existed) holds every value whole, and is replayed so.
pub const MAX_VALUE_BYTES_OPTION: &str = "max-value-bytes";

/// The header option saying how the `toString()` observer of an object whose class keeps
/// `Object.toString()` was answered: `class-only` (as `Class@0`, never calling the class's
/// `hashCode()`). A suite without it called `toString()` itself, and is replayed so.
pub const PLAIN_OBJECT_TEXT_OPTION: &str = "plain-object-text";

/// What a suite file says about how it was made.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Header {
    /// [`FORMAT_VERSION`] of the writer.
    pub format: u32,
    /// `difftest X.Y.Z`.
    pub tool: String,
    /// The reference target's name and fingerprint.
    pub reference: String,
    /// The reference's fingerprint when recorded.
    pub fingerprint: crate::targets::Fingerprint,
    /// The seed generation used.
    pub seed: u64,
    /// Classes and packages in scope, as given.
    pub classes: Vec<String>,
    /// Packages in scope, as given.
    pub packages: Vec<String>,
    /// Record options as `name: value` text (time limit, reruns, probabilities …).
    pub options: BTreeMap<String, String>,
    /// Counts: sequences executed, tests kept, observations dropped as unstable, …
    pub counts: BTreeMap<String, u64>,
    /// True when the record was interrupted and the suite holds what was kept until then.
    #[serde(default)]
    pub partial: bool,
}

impl Header {
    /// The value limit the suite was recorded with (`None`: values stored whole), or a
    /// message when the header's option is not a number.
    pub fn max_value_bytes(&self) -> Result<Option<u64>, String> {
        let Some(text) = self.options.get(MAX_VALUE_BYTES_OPTION) else {
            return Ok(None);
        };
        match text.parse::<u64>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!(
                "the header's {MAX_VALUE_BYTES_OPTION} is not a positive number: {text:?}"
            )),
        }
    }

    /// Whether the suite was recorded with plain objects answered as `Class@0`
    /// ([`PLAIN_OBJECT_TEXT_OPTION`]), or a message when the option has another value.
    pub fn plain_class_text(&self) -> Result<bool, String> {
        match self
            .options
            .get(PLAIN_OBJECT_TEXT_OPTION)
            .map(String::as_str)
        {
            None => Ok(false),
            Some("class-only") => Ok(true),
            Some(other) => Err(format!(
                "the header's {PLAIN_OBJECT_TEXT_OPTION} is not `class-only`: {other:?}"
            )),
        }
    }
}

/// A whole suite file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Suite {
    /// How the suite was made.
    pub header: Header,
    /// The regression tests, by id.
    pub tests: Vec<Test>,
    /// Sequences that broke a contract on the reference.
    pub error_revealing: Vec<ErrorTest>,
    /// How each exception class that a test expects looks (JCrasher's classification).
    #[serde(default)]
    pub exceptions: BTreeMap<String, ExceptionKind>,
}

/// Why a suite file could not be read or written. Messages name the file, and the line
/// where there is one.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A line is not valid suite syntax.
    #[error("{}:{line}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    #[error(
        "{}: suite format {found} is newer than this difftest reads ({FORMAT_VERSION}); \
         upgrade difftest or record the suite again",
        path.display()
    )]
    /// A format version that does not exist.reads.
    Format {
        /// The file.
        path: PathBuf,
        /// The version it says.
        found: u64,
    },
    #[error(
        "{}: suite format {found} has no checksums, so its content cannot be verified \
         (this difftest reads format {MIN_FORMAT_VERSION} to {FORMAT_VERSION}); record the suite again",
        path.display()
    )]
    /// A format without checksums.
    Unchecked {
        /// The file.
        path: PathBuf,
        /// The version it says.
        found: u64,
    },
    /// A format version that does not exist.
    #[error("{}: suite format {found} does not exist (this difftest reads format {MIN_FORMAT_VERSION} to {FORMAT_VERSION})", path.display())]
    NoSuchFormat {
        /// The file.
        path: PathBuf,
        /// The version it says.
        found: u64,
    },
    /// The path is not a regular file.
    #[error("{}: not a regular file; a suite is read from a file", path.display())]
    NotAFile {
        /// The file.
        path: PathBuf,
    },
    #[error(
        "{}: the suite changed while it was read ({what}): what was checked is no longer what \
         would be replayed, so nothing of this run is used",
        path.display()
    )]
    /// The file changed while it was read.
    Changed {
        /// The file.
        path: PathBuf,
        /// What changed.
        what: String,
    },
    /// A test does not check out.
    #[error("{}: test {id}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The test's id.
        id: u64,
        /// What is wrong.
        message: String,
    },
}

impl SuiteError {
    /// Whether the file changed under a run that had checked it: not bad input but a broken
    /// run (exit code 3), since the input checked was good.
    pub fn is_change(&self) -> bool {
        matches!(self, SuiteError::Changed { .. })
    }
}

impl Suite {
    /// Reads a whole suite file (plain or zstd) into memory, once [`read::verify`] found it
    /// whole; see [`read::SuiteReader`] to read it test by test.
    pub fn load(path: &Path) -> Result<Suite, SuiteError> {
        let file = file::SuiteFile::open(path)?;
        read::verify(&file, |_| true)?;
        read::collect(read::SuiteReader::of(&file)?)
    }

    /// Every statement of the suite: regression tests first, then error-revealing ones.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> {
        let errors = self.error_revealing.iter().flat_map(|e| &e.statements);
        self.tests.iter().flat_map(|t| &t.statements).chain(errors)
    }

    /// Writes the suite atomically (a temporary file in the same folder, then a rename),
    /// with the statements its tests share written once ([`share`]).
    pub fn save(&self, path: &Path) -> Result<(), SuiteError> {
        let mut w = Writer::create(path, &self.header, &self.exceptions)?;
        chunked::write_tests(&mut w, self.tests.len(), |i| Ok(&self.tests[i]))?;
        for e in &self.error_revealing {
            w.error_test(e)?;
        }
        w.finish()
    }
}

#[cfg(test)]
mod tests;
