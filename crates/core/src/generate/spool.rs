//! The kept regression tests, on disk as they are kept (each with its statements, so the
//! sequence store is not needed to read it back): a scratch file (`atomic::scratch`,
//! unnamed, so it disappears with the process however it ends and two records never share
//! one) in the output's folder, one record per test version, each with its length and an
//! XXH3 sum. Where each test's current version starts is in a second scratch file
//! (`scratch_words`), and memory holds the sequence only of the tests whose sequence the
//! store still holds, so generation's memory does not grow with the tests it keeps.
//! Reduction, the reruns and the suite writer read the tests back one at a time; a rerun
//! that changes a test appends its new version. A record that does not read back whole
//! (the file truncated or overwritten) is an error naming the test, never a wrong suite.

use super::kept::{KeptTest, ObsRef};
use super::scratch_words::ScratchWords;
use super::store::SeqId;
use crate::sequence::{ClasspathFault, Observed};
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Appended records are written to the file in pieces of about this many bytes.
const FLUSH_AT: usize = 1 << 16;

/// Bytes before a record's body: its length (`u32`) and the XXH3 sum of the body (`u64`).
const HEAD: usize = 12;

/// Why the kept tests could not be written or read back.
#[derive(Debug, thiserror::Error)]
pub enum SpoolError {
    /// The scratch file could not be created, written or read.
    #[error("kept tests' scratch file in {}: {source}; no suite is written", dir.display())]
    Io {
        /// The folder it is in.
        dir: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A test read back is not what was written.
    #[error(
        "kept tests' scratch file in {}: test {index} (at byte {offset}) {what}; the file was \
         changed or truncated while the record ran, so no suite is written",
        dir.display()
    )]
    Corrupt {
        /// The folder it is in.
        dir: PathBuf,
        /// The test's position among the kept tests.
        index: usize,
        /// Where its record starts.
        offset: u64,
        /// What is wrong.
        what: &'static str,
    },
}

/// The sequence of a test whose stored sequence generation forgot (`compact`): no later
/// sequence can contain it, so it is no longer lexically redundant unless it was already.
pub(crate) const FINAL: SeqId = SeqId::MAX;

/// The kept tests, in order, on disk.
pub struct KeptTests {
    dir: PathBuf,
    file: Option<File>,
    /// Where each test's current record starts, plus one, in a scratch file of its own.
    offsets: ScratchWords,
    /// `(position, sequence)` of the tests whose sequence the store still holds, in order;
    /// every other test's sequence is [`FINAL`]. A test's sequence is stored until a
    /// compaction forgets it, so this holds at most one entry per stored sequence.
    live: Vec<(usize, SeqId)>,
    /// Bytes in the file.
    written: u64,
    /// Records appended after `written`, not yet in the file.
    pending: Vec<u8>,
    /// The first failure to create or write the file; reported by every later read.
    failed: Option<io::ErrorKind>,
}

impl KeptTests {
    /// An empty list in a scratch file in `dir`; a failure to create it is reported by
    /// [`KeptTests::check`] and every read.
    pub(crate) fn in_dir(dir: &Path) -> KeptTests {
        let file = crate::atomic::scratch(dir);
        KeptTests {
            dir: dir.to_path_buf(),
            failed: file.as_ref().err().map(io::Error::kind),
            file: file.ok(),
            offsets: ScratchWords::in_dir(dir),
            live: Vec::new(),
            written: 0,
            pending: Vec::new(),
        }
    }

    /// Tests kept.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Estimated bytes held in memory: the live tests' sequences, and what waits to be
    /// written.
    pub(crate) fn heap_bytes(&self) -> u64 {
        let live = self.live.capacity() * std::mem::size_of::<(usize, SeqId)>();
        self.offsets.heap_bytes() + (live + self.pending.capacity()) as u64
    }

    /// Appends `t`.
    pub(crate) fn push(&mut self, t: &KeptTest) {
        if t.seq != FINAL {
            self.live.push((self.len(), t.seq));
        }
        let offset = self.append(t);
        self.offsets.push(offset + 1);
    }

    /// Replaces test `i` with `t` (its new version is appended).
    pub(crate) fn set(&mut self, i: usize, t: &KeptTest) {
        let offset = self.append(t);
        self.offsets.set(i, offset + 1);
    }

    /// Keeps the tests `keep(i, seq)` accepts, in order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(usize, SeqId) -> bool) {
        let mut live = std::mem::take(&mut self.live).into_iter().peekable();
        let (mut kept, mut now_live) = (0, Vec::new());
        self.offsets.retain(|i, _| {
            let seq = live.next_if(|&(at, _)| at == i).map_or(FINAL, |(_, s)| s);
            let keeps = keep(i, seq);
            if keeps {
                if seq != FINAL {
                    now_live.push((kept, seq));
                }
                kept += 1;
            }
            keeps
        });
        self.live = now_live;
    }

    /// Gives each test the sequence `rename` makes of its own.
    pub(crate) fn rename_seqs(&mut self, rename: impl Fn(SeqId) -> SeqId) {
        self.live.retain_mut(|(_, seq)| {
            *seq = rename(*seq);
            *seq != FINAL
        });
        self.live.shrink_to_fit();
    }

    /// Keeps the first `n` tests.
    pub(crate) fn truncate(&mut self, n: usize) {
        self.offsets.truncate(n);
        let live = self.live.partition_point(|&(at, _)| at < n);
        self.live.truncate(live);
    }

    /// An error if a scratch file could not be created or written.
    pub(crate) fn check(&self) -> Result<(), SpoolError> {
        match self.failed.or(self.offsets.failed()) {
            Some(kind) => Err(self.io(kind.into())),
            None => Ok(()),
        }
    }

    /// Test `i`, read back and checked.
    pub(crate) fn get(&self, i: usize) -> Result<KeptTest, SpoolError> {
        self.check()?;
        let word = self.offsets.get(i).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => self.corrupt(i, 0, "has no place left in the index"),
            _ => self.io(e),
        })?;
        // Offsets are kept one up, so that a hole of zeros in the index (the file cut short
        // and written past its end) is no place rather than the first test's.
        let offset = word
            .checked_sub(1)
            .ok_or_else(|| self.corrupt(i, 0, "has no place in the index"))?;
        let mut head = [0u8; HEAD];
        self.read_at(i, offset, &mut head)?;
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as u64;
        if offset + (HEAD as u64) + len > self.written + self.pending.len() as u64 {
            return Err(self.corrupt(i, offset, "is cut short"));
        }
        let mut record = vec![0u8; HEAD + len as usize];
        let (head_part, body) = record.split_at_mut(HEAD);
        head_part.copy_from_slice(&head);
        self.read_at(i, offset + HEAD as u64, body)?;
        decode(&record).map_err(|what| self.corrupt(i, offset, what))
    }

    /// Every test, in order, read back one at a time (unit tests; passes over the tests
    /// read them on every core: `in_order`).
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = Result<KeptTest, SpoolError>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Every test, in memory (unit tests).
    #[cfg(test)]
    pub(crate) fn all(&self) -> Vec<KeptTest> {
        self.iter()
            .map(|t| t.expect("kept tests read back"))
            .collect()
    }

    /// Fills `bytes` from `offset`, in the file or in what waits to be written (a record is
    /// wholly in one or the other).
    fn read_at(&self, i: usize, offset: u64, bytes: &mut [u8]) -> Result<(), SpoolError> {
        if offset >= self.written {
            let at = (offset - self.written) as usize;
            let from = self.pending.get(at..at + bytes.len());
            bytes.copy_from_slice(from.ok_or_else(|| self.corrupt(i, offset, "is cut short"))?);
            return Ok(());
        }
        let file = self
            .file
            .as_ref()
            .ok_or_else(|| self.io(io::ErrorKind::NotFound.into()))?;
        match file.read_exact_at(bytes, offset) {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                Err(self.corrupt(i, offset, "is cut short"))
            }
            other => other.map_err(|e| self.io(e)),
        }
    }

    /// Appends `t`'s record and returns where it starts.
    fn append(&mut self, t: &KeptTest) -> u64 {
        let body = encode(t);
        let offset = self.written + self.pending.len() as u64;
        self.pending
            .extend_from_slice(&(body.len() as u32).to_le_bytes());
        self.pending
            .extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&body).to_le_bytes());
        self.pending.extend_from_slice(&body);
        if self.pending.len() >= FLUSH_AT {
            self.flush();
        }
        offset
    }

    fn flush(&mut self) {
        if let (None, Some(file)) = (self.failed, &self.file)
            && let Err(e) = file.write_all_at(&self.pending, self.written)
        {
            self.failed = Some(e.kind());
        }
        // After a failure nothing is read back (`check`), so nothing more is held either.
        self.written += self.pending.len() as u64;
        self.pending.clear();
    }

    /// A scratch list of words beside the tests (a pass's keys), and how its failures read.
    pub(crate) fn words_beside(&self) -> ScratchWords {
        ScratchWords::in_dir(&self.dir)
    }

    /// The error for a failure `source` of a scratch file beside the tests.
    pub(crate) fn io(&self, source: io::Error) -> SpoolError {
        SpoolError::Io {
            dir: self.dir.clone(),
            source,
        }
    }

    fn corrupt(&self, index: usize, offset: u64, what: &'static str) -> SpoolError {
        SpoolError::Corrupt {
            dir: self.dir.clone(),
            index,
            offset,
            what,
        }
    }

    /// The scratch file, for the tests that damage it.
    #[cfg(test)]
    pub(crate) fn file(&mut self) -> &File {
        self.flush();
        self.file.as_ref().expect("a scratch file")
    }

    /// The offsets' scratch file, for the tests that damage it.
    #[cfg(test)]
    pub(crate) fn offsets_file(&mut self) -> &File {
        self.offsets.file_for_tests()
    }
}

/// A test's record body: little-endian words, and each expected value as a tag byte and its
/// fields (strings as a length and UTF-8 bytes).
fn encode(t: &KeptTest) -> Vec<u8> {
    let mut w = Body::default();
    w.word(t.id as u32);
    w.word((t.id >> 32) as u32);
    w.word(t.seq);
    w.list(&t.code, |w, &x| w.word(x));
    w.list(&t.checks, |w, (s, v)| {
        w.word(*s);
        w.value(v);
    });
    w.list(&t.observers, |w, o| {
        w.word(o.stmt);
        w.word(o.class);
        w.word(o.method);
    });
    w.list(&t.observations, |w, v| match v {
        Some(v) => {
            w.0.push(1);
            w.value(v);
        }
        None => w.0.push(0),
    });
    w.list(&t.varies, |w, &x| w.word(x));
    w.list(&t.contents, |w, &(s, d)| {
        w.word(s);
        w.word(d as u32);
    });
    w.0
}

/// A record body being written.
#[derive(Default)]
struct Body(Vec<u8>);

impl Body {
    fn word(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }

    fn text(&mut self, s: &str) {
        self.word(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }

    fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.word(items.len() as u32);
        items.iter().for_each(|x| item(self, x));
    }

    fn value(&mut self, v: &Observed) {
        match v {
            Observed::Void => self.0.push(0),
            Observed::Null => self.0.push(1),
            Observed::Value { class, text } => {
                self.0.push(2);
                self.text(class);
                self.text(text);
            }
            Observed::Object { class } => {
                self.0.push(3);
                self.text(class);
            }
            Observed::Large {
                class,
                prefix,
                length,
                digest,
            } => {
                self.0.push(4);
                self.text(class);
                self.text(prefix);
                self.0.extend_from_slice(&length.to_le_bytes());
                self.0.extend_from_slice(&digest.to_le_bytes());
            }
            Observed::Threw {
                class,
                message,
                classpath,
            } => {
                self.0.push(5);
                self.text(class);
                self.option(message.as_deref());
                self.option(classpath.as_ref().map(|c| c.missing.as_str()));
                self.option(classpath.as_ref().map(|c| c.needed_by.as_str()));
            }
            Observed::Missing { what } => {
                self.0.push(6);
                self.text(what);
            }
        }
    }

    fn option(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.0.push(1);
                self.text(s);
            }
            None => self.0.push(0),
        }
    }
}

/// Reads a record body back.
struct Reader<'a>(&'a [u8]);

type Read<T> = Result<T, &'static str>;

impl Reader<'_> {
    fn bytes(&mut self, n: usize) -> Read<&[u8]> {
        let (head, rest) = self.0.split_at_checked(n).ok_or("ends early")?;
        self.0 = rest;
        Ok(head)
    }

    fn byte(&mut self) -> Read<u8> {
        Ok(self.bytes(1)?[0])
    }

    fn word(&mut self) -> Read<u32> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn long(&mut self) -> Read<u64> {
        Ok(u64::from(self.word()?) | (u64::from(self.word()?) << 32))
    }

    fn text(&mut self) -> Read<String> {
        let n = self.word()? as usize;
        let bytes = self.bytes(n)?.to_vec();
        String::from_utf8(bytes).map_err(|_| "holds text that is not UTF-8")
    }

    fn option(&mut self) -> Read<Option<String>> {
        match self.byte()? {
            0 => Ok(None),
            1 => self.text().map(Some),
            _ => Err("holds an unknown tag"),
        }
    }

    /// A list: its length, then each item (each at least a byte, so a length beyond what
    /// is left is refused before anything is allocated).
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Read<T>) -> Read<Vec<T>> {
        let n = self.word()? as usize;
        if n > self.0.len() {
            return Err("ends early");
        }
        (0..n).map(|_| item(self)).collect()
    }

    fn value(&mut self) -> Read<Observed> {
        Ok(match self.byte()? {
            0 => Observed::Void,
            1 => Observed::Null,
            2 => Observed::Value {
                class: self.text()?,
                text: self.text()?,
            },
            3 => Observed::Object {
                class: self.text()?,
            },
            4 => Observed::Large {
                class: self.text()?.into(),
                prefix: self.text()?.into(),
                length: self.long()?,
                digest: self.long()?,
            },
            5 => {
                let (class, message) = (self.text()?, self.option()?);
                let (missing, needed_by) = (self.option()?, self.option()?);
                let classpath = missing.map(|missing| {
                    let needed_by = needed_by.unwrap_or_default();
                    Box::new(ClasspathFault { missing, needed_by })
                });
                Observed::Threw {
                    class,
                    message,
                    classpath,
                }
            }
            6 => Observed::Missing { what: self.text()? },
            _ => return Err("holds an unknown tag"),
        })
    }
}

/// A record (length, sum, body) back into a test.
fn decode(record: &[u8]) -> Result<KeptTest, &'static str> {
    let (head, body) = record.split_at_checked(HEAD).ok_or("is cut short")?;
    let len = u32::from_le_bytes(head[..4].try_into().unwrap_or_default());
    let sum = u64::from_le_bytes(head[4..].try_into().unwrap_or_default());
    if len as usize != body.len() {
        return Err("has another length than was written");
    }
    if xxhash_rust::xxh3::xxh3_64(body) != sum {
        return Err("does not match its checksum");
    }
    let mut r = Reader(body);
    let test = KeptTest {
        id: r.long()?,
        seq: r.word()?,
        code: r.list(Reader::word)?,
        checks: r.list(|r| Ok((r.word()?, r.value()?)))?,
        observers: r.list(|r| {
            Ok(ObsRef {
                stmt: r.word()?,
                class: r.word()?,
                method: r.word()?,
            })
        })?,
        observations: r.list(|r| match r.byte()? {
            0 => Ok(None),
            1 => r.value().map(Some),
            _ => Err("holds an unknown tag"),
        })?,
        varies: r.list(Reader::word)?,
        contents: r.list(|r| Ok((r.word()?, r.word()? as i32)))?,
    };
    match r.0.is_empty() {
        true => Ok(test),
        false => Err("has bytes after its end"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(id: u64) -> KeptTest {
        KeptTest {
            id,
            seq: id as u32 * 3,
            code: vec![1 << 31 | 4, 0, 1 << 31 | 9, 1, 0],
            checks: vec![(0, Observed::Null), (2, Observed::threw("E", Some("é")))],
            observers: vec![ObsRef {
                stmt: 2,
                class: 4,
                method: 5,
            }],
            observations: vec![
                None,
                Some(Observed::Large {
                    class: "java.lang.String".into(),
                    prefix: "abc".into(),
                    length: 1 << 40,
                    digest: u64::MAX - 1,
                }),
            ],
            varies: vec![1],
            contents: vec![(2, -5)],
        }
    }

    fn spool(n: u64) -> KeptTests {
        let mut s = KeptTests::in_dir(&std::env::temp_dir());
        (1..=n).for_each(|id| s.push(&test(id << 33 | id)));
        s
    }

    #[test]
    fn tests_read_back_as_kept_replaced_and_retained() {
        let mut s = spool(5000);
        assert_eq!(s.len(), 5000);
        let t = s.get(4321).unwrap();
        assert_eq!(format!("{t:?}"), format!("{:?}", test(4322 << 33 | 4322)));
        let mut changed = s.get(10).unwrap();
        changed.checks.clear();
        s.set(10, &changed);
        assert!(s.get(10).unwrap().checks.is_empty());
        s.retain(|i, _| i % 2 == 0);
        assert_eq!(s.len(), 2500);
        assert_eq!(s.get(5).unwrap().checks.len(), 0, "test 10 as replaced");
    }

    /// Each test's position and sequence, as `retain` sees them (keeping all).
    fn seqs(s: &mut KeptTests) -> Vec<(usize, SeqId)> {
        let mut seen = Vec::new();
        s.retain(|i, seq| {
            seen.push((i, seq));
            true
        });
        seen
    }

    #[test]
    fn sequences_follow_their_tests_through_retain_rename_and_truncate() {
        let mut s = KeptTests::in_dir(&std::env::temp_dir());
        for id in 0..10u64 {
            let seq = if id % 4 == 3 { FINAL } else { id as u32 };
            s.push(&KeptTest { seq, ..test(id) });
        }
        s.retain(|i, _| i != 2);
        s.rename_seqs(|seq| if seq == 5 { FINAL } else { seq + 100 });
        let f = FINAL;
        let want = [100, 101, f, 104, f, 106, f, 108, 109];
        assert_eq!(
            seqs(&mut s),
            want.into_iter().enumerate().collect::<Vec<_>>()
        );
        assert_eq!(
            s.get(2).unwrap().id,
            3,
            "the records moved with their tests"
        );
        s.truncate(4);
        assert_eq!(seqs(&mut s), vec![(0, 100), (1, 101), (2, f), (3, 104)]);
    }

    #[test]
    fn memory_does_not_grow_with_final_tests() {
        let mut s = KeptTests::in_dir(&std::env::temp_dir());
        for id in 0..100_000 {
            s.push(&KeptTest {
                seq: FINAL,
                ..test(id)
            });
        }
        assert!(s.heap_bytes() < 1 << 18, "{} bytes", s.heap_bytes());
        assert_eq!(s.get(99_999).unwrap().id, 99_999);
    }

    #[test]
    fn an_index_cut_short_is_an_error_naming_the_test() {
        let mut s = spool(20_000);
        s.offsets_file().set_len(7).unwrap();
        let err = s.get(12_000).unwrap_err().to_string();
        assert!(err.contains("test 12000") && err.contains("index"), "{err}");
        assert!(err.contains("no suite is written"), "{err}");
        s.retain(|_, _| true);
        let err = s.check().unwrap_err().to_string();
        assert!(err.contains("no suite is written"), "{err}");
        assert_eq!(s.len(), 20_000, "not silently empty");
    }

    #[test]
    fn an_index_cut_short_and_written_past_its_end_is_an_error_not_the_first_test() {
        let mut s = spool(10_000);
        s.offsets_file().set_len(0).unwrap();
        for id in 10_001..=20_000 {
            s.push(&test(id << 33 | id));
        }
        let _ = s.offsets_file(); // written past the end: a hole of zeros before
        let err = s.get(5000).unwrap_err().to_string();
        assert!(
            err.contains("test 5000") && err.contains("no place"),
            "{err}"
        );
        assert_eq!(s.get(19_999).unwrap().id, 20_000 << 33 | 20_000);
    }

    #[test]
    fn a_damaged_offset_is_an_error_naming_the_test() {
        let mut s = spool(5000);
        s.offsets_file()
            .write_all_at(&7u64.to_le_bytes(), 8 * 1234)
            .unwrap();
        let err = s.get(1234).unwrap_err().to_string();
        assert!(err.contains("test 1234"), "{err}");
    }

    #[test]
    fn a_record_that_sums_right_but_lies_about_its_lists_is_refused() {
        let record = |body: &[u8]| {
            let mut r = (body.len() as u32).to_le_bytes().to_vec();
            r.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(body).to_le_bytes());
            r.extend_from_slice(body);
            decode(&r)
        };
        let mut body = encode(&test(7));
        assert_eq!(record(&body).unwrap(), test(7));
        // The code list (after id and seq) claims four billion words.
        body[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(record(&body).unwrap_err(), "ends early");
        let mut body = encode(&test(7));
        // After the Large value's tag: its class and prefix (length and bytes), length and
        // digest; then the varies and contents lists.
        let tag = body.len() - (4 + 16) - (4 + 3) - 16 - 8 - 12 - 1;
        assert_eq!(
            body[tag], 4,
            "the Large value's tag, as this fixture lays it out"
        );
        body[tag] = 9;
        assert_eq!(record(&body).unwrap_err(), "holds an unknown tag");
    }

    #[test]
    fn two_lists_in_one_folder_keep_their_own_tests() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, mut b) = (KeptTests::in_dir(dir.path()), KeptTests::in_dir(dir.path()));
        for id in 1..3000 {
            a.push(&test(id));
            b.push(&test(id + 100_000));
        }
        assert_eq!(a.get(2500).unwrap().id, 2501);
        assert_eq!(b.get(2500).unwrap().id, 102_501);
        let names = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(names, 0, "no folder names a scratch file");
    }

    #[test]
    fn a_changed_or_truncated_file_is_an_error_naming_the_test() {
        let mut s = spool(5000);
        let file = s.file();
        file.write_all_at(b"\xff\xff", 100 * 80 + 20).unwrap();
        let err = s.iter().find_map(Result::err).unwrap().to_string();
        let damaged = ["checksum", "another length", "cut short"]
            .iter()
            .any(|w| err.contains(w));
        assert!(damaged && err.contains("scratch file in"), "{err}");
        let file = s.file();
        file.set_len(1000).unwrap();
        let err = s.get(4000).unwrap_err().to_string();
        assert!(
            err.contains("test 4000") && err.contains("cut short"),
            "{err}"
        );
    }
}
