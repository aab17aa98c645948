//! Reads suite files as a stream: [`SuiteReader`] hands out one test at a time, so a replay
//! holds only the tests it is running, whatever the size of the file. A file that starts
//! with the zstd magic number is decompressed on the way ([`super::compress`]), whatever its
//! name. The small preamble (header and exception table) goes through serde_yaml; the tests
//! go through [`super::entries`]. Integrity is checked as the file is read
//! ([`super::checksum`]): each test against its sum line, ids against earlier ones, and at
//! the end the counts and the whole file (its uncompressed text) against the end line. The
//! reader says the file is whole only when [`SuiteReader::next_item`] returns `None`; any
//! error before that is an error naming the file and line, and whoever read tests until then
//! must drop what it did with them.

use super::blocks::{SHARED, is_ref, parse_ref, parse_shared};
use super::checksum::{END, Running, parse_end};
use super::entries::{Entries, Item, syntax};
use super::file::SuiteFile;
use super::{FORMAT_VERSION, Header, MIN_FORMAT_VERSION, Suite, SuiteError, Test};
use crate::contracts::ExceptionKind;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Preamble {
    header: Header,
    #[serde(default)]
    exceptions: BTreeMap<String, ExceptionKind>,
}

/// A suite file being read, test by test.
pub struct SuiteReader {
    lines: Lines,
    header: Header,
    exceptions: BTreeMap<String, ExceptionKind>,
    tests: usize,
    errors: usize,
    done: bool,
    /// Which regression tests to hand out, by id (all by default).
    wanted: Box<dyn Fn(u64) -> bool + Send>,
    /// Wanted regression test entries begun so far (their `- id:` line read).
    begun: usize,
}

/// The longest line read. Lines are bounded so that a file without newlines (a sparse
/// file, a stream of zeros) is refused at once rather than read whole into memory; a value
/// longer than this on one line is not a suite difftest wrote.
pub(crate) const MAX_LINE: usize = 64 << 20;

/// The most text read before the `tests:` line (header and exception table).
pub(crate) const MAX_PREAMBLE: usize = 64 << 20;

/// The lines of a suite file and the running checksum of all but the last one.
struct Lines {
    path: PathBuf,
    /// The file read, checked for changes at the end and on any error (`None` for text
    /// given in memory).
    file: Option<SuiteFile>,
    input: Box<dyn BufRead + Send>,
    compressed: bool,
    /// Lines read so far.
    n: usize,
    /// The last line read, not yet in `total` (it may be the end line).
    last: Vec<u8>,
    total: Running,
    raw: Vec<u8>,
}

impl SuiteReader {
    /// Opens a suite file (plain or zstd) and reads its preamble.
    pub fn open(path: &Path) -> Result<SuiteReader, SuiteError> {
        SuiteReader::of(&SuiteFile::open(path)?)
    }

    /// Reads a suite file already open from its start, independently of other readers.
    pub fn of(file: &SuiteFile) -> Result<SuiteReader, SuiteError> {
        let (input, compressed) = super::compress::open(file)?;
        let mut lines = Lines::new(file.path(), input, compressed);
        lines.file = Some(file.clone());
        SuiteReader::with_lines(lines)
    }

    /// Reads a suite from `input`, named `path` in errors.
    pub fn new(
        path: &Path,
        input: Box<dyn BufRead + Send>,
        compressed: bool,
    ) -> Result<SuiteReader, SuiteError> {
        SuiteReader::with_lines(Lines::new(path, input, compressed))
    }

    /// Reads the preamble from `lines`.
    fn with_lines(mut lines: Lines) -> Result<SuiteReader, SuiteError> {
        let path = lines.path.clone();
        let mut text = String::new();
        loop {
            if !lines.read_line()? {
                return Err(syntax(&path, 1, "no `tests:` list"));
            }
            let line = lines.line_text()?;
            if line.starts_with("tests:") {
                break;
            }
            if text.len() + line.len() > MAX_PREAMBLE {
                let message = format!(
                    "no `tests:` list in the first {} MiB: not a suite",
                    MAX_PREAMBLE >> 20
                );
                return Err(syntax(&path, lines.n, message));
            }
            text.push_str(line);
            text.push('\n');
        }
        let (header, exceptions) = preamble(&text, &path)?;
        Ok(SuiteReader {
            lines,
            header,
            exceptions,
            tests: 0,
            errors: 0,
            done: false,
            wanted: Box::new(|_| true),
            begun: 0,
        })
    }

    /// The suite's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// How each exception class the tests expect looks.
    pub fn exceptions(&self) -> &BTreeMap<String, ExceptionKind> {
        &self.exceptions
    }

    /// The suite's path.
    pub fn path(&self) -> &Path {
        &self.lines.path
    }

    /// Whether the file was zstd-compressed.
    pub fn compressed(&self) -> bool {
        self.lines.compressed
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> usize {
        self.lines.n
    }

    /// The next test or error-revealing test; `None` once the whole file is read and
    /// verified.
    pub fn next_item(&mut self, entries: &mut Entries) -> Result<Option<Item>, SuiteError> {
        while !self.done {
            if !self.lines.read_line()? {
                return self.end(entries);
            }
            let line = self.lines.line_text()?;
            if !entries.in_errors() && self.is_wanted(line.as_bytes()) {
                self.begun += 1;
            }
            if let Some(item) = entries.line(line, self.lines.n)? {
                return Ok(Some(self.count(item)));
            }
        }
        Ok(None)
    }

    /// Hands out only the regression tests whose id `wanted` accepts (a shard); set it
    /// before reading tests.
    pub fn filter(&mut self, wanted: Box<dyn Fn(u64) -> bool + Send>) {
        self.wanted = wanted;
    }

    /// Whether `line` begins a wanted test entry.
    fn is_wanted(&self, line: &[u8]) -> bool {
        line.strip_prefix(b"- id: ")
            .and_then(|id| std::str::from_utf8(id).ok()?.parse::<u64>().ok())
            .is_some_and(|id| (self.wanted)(id))
    }

    /// The next wanted regression test; `None` at the error-revealing tests or the end.
    pub fn next_test(&mut self, entries: &mut Entries) -> Result<Option<Test>, SuiteError> {
        while let Some(item) = self.next_item(entries)? {
            match item {
                Item::Test(t) if (self.wanted)(t.id) => return Ok(Some(t)),
                Item::Test(_) => {}
                Item::Error(_) => return Ok(None),
            }
        }
        Ok(None)
    }

    /// Moves on, without parsing, to the `index`-th (from 0) wanted regression test, so that
    /// [`Self::next_test`] returns it next. Only forward; false when there is no such test.
    /// Tests skipped are not checked here: whoever reads them checks them, and [`verify`]
    /// checked the whole file. Shared blocks are read and checked all the same (a later
    /// test may name them), and the blocks a skipped test names are counted as used.
    pub fn skip_to(&mut self, entries: &mut Entries, index: usize) -> Result<bool, SuiteError> {
        if self.begun == index + 1 && entries.open() {
            return Ok(true); // the entry already begun
        }
        if entries.open() {
            self.tests += 1; // counted as read: the end line counts every test
        }
        entries.discard();
        while !self.done && self.begun <= index {
            if !self.lines.read_line()? || self.lines.last.starts_with(b"error_revealing:") {
                self.done = true;
                return Ok(false);
            }
            let last = &self.lines.last;
            if last.starts_with(SHARED.as_bytes())
                || (entries.open_block() && !last.starts_with(b"- "))
            {
                let line = self.lines.line_text()?;
                entries.line(line, self.lines.n)?;
                continue;
            }
            if !last.starts_with(b"- id: ") {
                if let Some(content) = last.strip_prefix(b"    ").filter(|c| is_ref(c)) {
                    let content = std::str::from_utf8(content).unwrap_or_default();
                    entries.skipped_line(content, self.lines.n)?;
                }
                continue;
            }
            entries.end_block()?;
            if !self.is_wanted(&self.lines.last) {
                self.tests += 1;
                continue;
            }
            self.begun += 1;
            if self.begun == index + 1 {
                let line = self.lines.line_text()?;
                entries.line(line, self.lines.n)?;
                return Ok(true);
            }
            self.tests += 1;
        }
        Ok(false)
    }

    fn count(&mut self, item: Item) -> Item {
        match &item {
            Item::Test(_) => self.tests += 1,
            Item::Error(_) => self.errors += 1,
        }
        item
    }

    /// At the end of the file: the last line must be the end line, and agree.
    fn end(&mut self, entries: &mut Entries) -> Result<Option<Item>, SuiteError> {
        let n = self.lines.n;
        let end = std::str::from_utf8(&self.lines.last)
            .ok()
            .and_then(parse_end)
            .ok_or_else(|| self.lines.truncated(n))?;
        if let Some(item) = entries.finish()? {
            return Ok(Some(self.count(item)));
        }
        self.done = true;
        let found = (self.tests, self.errors);
        if (end.tests, end.errors) != found {
            return Err(syntax(
                &self.lines.path,
                n,
                format!(
                    "the end line says {} tests and {} error-revealing, the file holds {} and {}: tests were deleted or added",
                    end.tests, end.errors, found.0, found.1
                ),
            ));
        }
        if self.lines.total.value() != end.total {
            return Err(syntax(
                &self.lines.path,
                n,
                "the file does not match the checksum on its end line: the header or the lines between tests were edited; record the suite again",
            ));
        }
        header_counts(&self.header, &self.lines.path, found)?;
        Ok(None)
    }

    /// Every test of the file, for callers that need them all; verified to the end.
    pub fn for_each(
        mut self,
        mut f: impl FnMut(Item) -> Result<(), SuiteError>,
    ) -> Result<(Header, BTreeMap<String, ExceptionKind>), SuiteError> {
        let path = self.lines.path.clone();
        let mut entries = Entries::new(&path);
        while let Some(item) = self.next_item(&mut entries)? {
            f(item)?;
        }
        Ok((self.header, self.exceptions))
    }
}

impl Lines {
    fn new(path: &Path, input: Box<dyn BufRead + Send>, compressed: bool) -> Lines {
        Lines {
            path: path.to_path_buf(),
            file: None,
            input,
            compressed,
            n: 0,
            last: Vec::new(),
            total: Running::default(),
            raw: Vec::with_capacity(256),
        }
    }

    /// Reads the next line into `self.last` (without its newline), adding the line before
    /// it to the running checksum; false at the end of the file.
    /// The last line may lack its newline: if it is the end line, nothing is missing.
    fn read_line(&mut self) -> Result<bool, SuiteError> {
        self.raw.clear();
        let bound = MAX_LINE as u64 + 1;
        let input: &mut (dyn BufRead + Send) = &mut *self.input;
        let read = std::io::Read::take(input, bound).read_until(b'\n', &mut self.raw);
        let at = self.n + 1;
        if matches!(read, Ok(0) | Err(_)) {
            self.unchanged()?;
        }
        match read {
            Err(e) if self.compressed => {
                let message = format!(
                    "the compressed file is cut or corrupt ({e}); nothing read from it is used"
                );
                return Err(syntax(&self.path, at, message));
            }
            Err(source) => {
                return Err(SuiteError::Io {
                    path: self.path.clone(),
                    source,
                });
            }
            Ok(0) => return Ok(false),
            Ok(_) => {}
        }
        let ended = self.raw.last() == Some(&b'\n');
        if !ended && self.raw.len() > MAX_LINE {
            self.unchanged()?;
            let what = if self.compressed {
                "the compressed file is corrupt or not a suite"
            } else {
                "not a suite"
            };
            let message = format!("a line longer than {} MiB: {what}", MAX_LINE >> 20);
            return Err(syntax(&self.path, at, message));
        }
        if self.n > 0 {
            self.total.update(&self.last);
            self.total.update(b"\n");
        }
        if ended {
            self.raw.pop();
        }
        std::mem::swap(&mut self.last, &mut self.raw);
        self.n = at;
        Ok(true)
    }

    /// Fails if the file read was written over since it was opened.
    fn unchanged(&self) -> Result<(), SuiteError> {
        self.file.as_ref().map_or(Ok(()), SuiteFile::unchanged)
    }

    /// The last line read, as text.
    fn line_text(&self) -> Result<&str, SuiteError> {
        std::str::from_utf8(&self.last).map_err(|_| syntax(&self.path, self.n, "not UTF-8 text"))
    }

    fn truncated(&self, line: usize) -> SuiteError {
        syntax(
            &self.path,
            line.max(1),
            format!(
                "no end line (`{END}…`): the file is truncated, or was not written by difftest"
            ),
        )
    }
}

/// What [`verify`] found in a suite file that checks out.
#[derive(Debug)]
pub struct Verified {
    /// The suite's header.
    pub header: Header,
    /// Regression tests in the file.
    pub tests: usize,
    /// Regression tests whose id the caller wanted.
    pub selected: usize,
}

/// Checks a whole suite file quickly, without parsing its tests: its preamble and format,
/// that no id appears twice, that it ends with an end line whose counts and checksum match,
/// and that the header's counts say the same, so a cut, corrupt or edited file is refused
/// before anything runs. Every byte is read before anything is parsed, so a compressed file
/// whose frame does not check out is reported as such, not as whatever its garbled text
/// looks like. The tests themselves (and their sums) are checked by the [`SuiteReader`]
/// that reads them; only a file edited by hand and sealed again can fail there.
pub fn verify(file: &SuiteFile, wanted: impl Fn(u64) -> bool) -> Result<Verified, SuiteError> {
    let path = file.path();
    let (input, compressed) = super::compress::open(file)?;
    let mut lines = Lines::new(path, input, compressed);
    lines.file = Some(file.clone());
    let scan = Scan::of(&mut lines, wanted)?;
    let header = SuiteReader::of(file)?.header;
    // Reading the tests names the reference, block, line or id that is wrong.
    let read_all = || SuiteReader::of(file)?.for_each(|_| Ok(()));
    if scan.suspect {
        read_all()?;
    }
    let n = lines.n;
    let end = std::str::from_utf8(&lines.last)
        .ok()
        .and_then(parse_end)
        .ok_or_else(|| lines.truncated(n))?;
    if end.tests + end.errors != scan.entries || lines.total.value() != end.total {
        read_all()?;
        return Err(syntax(
            path,
            n,
            "the file does not match the counts or the checksum on its end line: it was cut, \
             corrupted or edited; record the suite again",
        ));
    }
    header_counts(&header, path, (end.tests, end.errors))?;
    Ok(Verified {
        header,
        tests: end.tests,
        selected: scan.selected,
    })
}

/// What a pass over every line of a suite finds without parsing it.
struct Scan {
    /// Test and error-revealing entries.
    entries: usize,
    /// Regression tests wanted.
    selected: usize,
    /// Whether something is wrong that only parsing can name: a block named but not held,
    /// a duplicate id, a block never used up.
    suspect: bool,
}

impl Scan {
    /// Reads `lines` to their end.
    fn of(lines: &mut Lines, wanted: impl Fn(u64) -> bool) -> Result<Scan, SuiteError> {
        let mut scan = Scan {
            entries: 0,
            selected: 0,
            suspect: false,
        };
        let mut errors_section = false;
        let mut ids = std::collections::HashSet::new();
        let mut blocks = Uses::default();
        while lines.read_line()? {
            let line = &lines.last;
            scan.suspect |= !blocks.line(line);
            if line.starts_with(b"error_revealing:") {
                errors_section = true;
            }
            if let Some(id) = line.strip_prefix(b"- id: ") {
                scan.entries += 1;
                let id = std::str::from_utf8(id)
                    .ok()
                    .and_then(|t| t.parse::<u64>().ok());
                scan.suspect |= id.is_some_and(|id| !ids.insert(id));
                if !errors_section && id.is_some_and(&wanted) {
                    scan.selected += 1;
                }
            }
        }
        scan.suspect |= !blocks.left.is_empty();
        Ok(scan)
    }
}

/// The header's counts of tests and error-revealing tests, where it gives them, must be
/// those `found` in the file.
fn header_counts(header: &Header, path: &Path, found: (usize, usize)) -> Result<(), SuiteError> {
    let kinds = [
        ("tests", "tests", found.0),
        ("error-revealing", "error-revealing tests", found.1),
    ];
    for (key, noun, found) in kinds {
        if let Some(&said) = header.counts.get(key).filter(|&&c| c != found as u64) {
            return Err(syntax(
                path,
                1,
                format!("the header says {said} {noun}, the file holds {found}: it was edited"),
            ));
        }
    }
    Ok(())
}

/// The uses of shared blocks, counted without parsing: each block's `used by` count against
/// the references that follow it.
#[derive(Default)]
struct Uses {
    left: std::collections::HashMap<u64, u32>,
    /// The block being read: named only once it ends.
    open: Option<(u64, u32)>,
}

impl Uses {
    /// Takes a line; false when it names a block not held, or begins a malformed block.
    fn line(&mut self, line: &[u8]) -> bool {
        let text = || std::str::from_utf8(line).ok();
        if !line.starts_with(b" ")
            && let Some((n, uses)) = self.open.take()
        {
            self.left.insert(n, uses);
        }
        if let Some(rest) = line.strip_prefix(SHARED.as_bytes()) {
            let parsed = std::str::from_utf8(rest).ok().and_then(parse_shared);
            let fresh = parsed.is_some_and(|(n, _)| !self.left.contains_key(&n));
            self.open = parsed;
            return fresh;
        }
        if !line.strip_prefix(b"    ").is_some_and(is_ref) {
            return true;
        }
        let number = text()
            .and_then(|t| parse_ref(t.trim_start()).ok())
            .map(|r| r.2);
        let Some((n, left)) = number.and_then(|n| Some(n).zip(self.left.get_mut(&n))) else {
            return false;
        };
        if *left == 0 {
            return false; // more references than the block's `used by` declared
        }
        *left -= 1;
        if *left == 0 {
            self.left.remove(&n);
        }
        true
    }
}

/// Reads every test of a suite into memory.
pub fn collect(reader: SuiteReader) -> Result<Suite, SuiteError> {
    let (mut tests, mut error_revealing) = (Vec::new(), Vec::new());
    let (header, exceptions) = reader.for_each(|item| {
        match item {
            Item::Test(t) => tests.push(t),
            Item::Error(e) => error_revealing.push(e),
        }
        Ok(())
    })?;
    Ok(Suite {
        header,
        tests,
        error_revealing,
        exceptions,
    })
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
