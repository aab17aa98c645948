//! The kept regression tests, on disk as they are kept (each with its statements, so the
//! sequence store is not needed to read it back): a scratch file (`atomic::scratch`,
//! unnamed, so it disappears with the process however it ends and two records never share
//! one) in the output's folder, one record per test version, each with its length and an
//! XXH3 sum. Memory holds only where each test's current version is (16 bytes a test), so
//! a record's memory no longer grows by a whole test for each test generation keeps.
//! Reduction, the reruns and the suite writer read the tests back one at a time; a rerun
//! that changes a test appends its new version. A record that does not read back whole
//! (the file truncated or overwritten) is an error naming the test, never a wrong suite.

use super::kept::{KeptTest, ObsRef};
use super::store::SeqId;
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
    #[error("kept tests' scratch file in {}: {source}", dir.display())]
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

/// Where one test's current version is.
#[derive(Clone, Copy, Debug)]
struct Slot {
    offset: u64,
    len: u32,
    seq: SeqId,
}

/// The kept tests, in order, on disk.
pub struct KeptTests {
    dir: PathBuf,
    file: Option<File>,
    slots: Vec<Slot>,
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
            slots: Vec::new(),
            written: 0,
            pending: Vec::new(),
        }
    }

    /// Tests kept.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Estimated bytes held in memory: where each test is, and what waits to be written.
    pub(crate) fn heap_bytes(&self) -> u64 {
        (self.slots.capacity() * std::mem::size_of::<Slot>() + self.pending.capacity()) as u64
    }

    /// Appends `t`.
    pub(crate) fn push(&mut self, t: &KeptTest) {
        let slot = self.append(t);
        self.slots.push(slot);
    }

    /// Replaces test `i` with `t` (its new version is appended).
    pub(crate) fn set(&mut self, i: usize, t: &KeptTest) {
        self.slots[i] = self.append(t);
    }

    /// Keeps the tests `keep(i, seq)` accepts, in order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(usize, SeqId) -> bool) {
        let mut i = 0;
        self.slots.retain(|s| {
            i += 1;
            keep(i - 1, s.seq)
        });
    }

    /// Keeps the first `n` tests.
    pub(crate) fn truncate(&mut self, n: usize) {
        self.slots.truncate(n);
    }

    /// An error if the file could not be created or written.
    pub(crate) fn check(&self) -> Result<(), SpoolError> {
        match self.failed {
            Some(kind) => Err(self.io(kind.into())),
            None => Ok(()),
        }
    }

    /// Test `i`, read back and checked.
    pub(crate) fn get(&self, i: usize) -> Result<KeptTest, SpoolError> {
        self.check()?;
        let slot = self.slots[i];
        let mut bytes = vec![0u8; slot.len as usize];
        if slot.offset >= self.written {
            let at = (slot.offset - self.written) as usize;
            bytes.copy_from_slice(&self.pending[at..at + slot.len as usize]);
        } else if let Some(file) = &self.file {
            match file.read_exact_at(&mut bytes, slot.offset) {
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    return Err(self.corrupt(i, "is cut short"));
                }
                other => other.map_err(|e| self.io(e))?,
            }
        }
        decode(&bytes).map_err(|what| self.corrupt(i, what))
    }

    /// Every test, in order, read back one at a time.
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

    fn append(&mut self, t: &KeptTest) -> Slot {
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
        Slot {
            offset,
            len: (HEAD + body.len()) as u32,
            seq: t.seq,
        }
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

    fn io(&self, source: io::Error) -> SpoolError {
        SpoolError::Io {
            dir: self.dir.clone(),
            source,
        }
    }

    fn corrupt(&self, index: usize, what: &'static str) -> SpoolError {
        SpoolError::Corrupt {
            dir: self.dir.clone(),
            index,
            offset: self.slots[index].offset,
            what,
        }
    }

    /// The scratch file, for the tests that damage it.
    #[cfg(test)]
    pub(crate) fn file(&mut self) -> &File {
        self.flush();
        self.file.as_ref().expect("a scratch file")
    }
}

/// A test's record body: little-endian words.
fn encode(t: &KeptTest) -> Vec<u8> {
    let mut w: Vec<u32> = vec![t.id as u32, (t.id >> 32) as u32, t.seq];
    let list = |w: &mut Vec<u32>, items: &mut dyn Iterator<Item = u32>, n: usize| {
        w.push(n as u32);
        w.extend(items);
    };
    list(&mut w, &mut t.code.iter().copied(), t.code.len());
    let checks = t.checks.iter().flat_map(|&(s, v)| [s, v]);
    list(&mut w, &mut checks.into_iter(), t.checks.len());
    let obs = t.observers.iter().flat_map(|o| [o.stmt, o.class, o.method]);
    list(&mut w, &mut obs.into_iter(), t.observers.len());
    list(
        &mut w,
        &mut t.observations.iter().copied(),
        t.observations.len(),
    );
    list(&mut w, &mut t.varies.iter().copied(), t.varies.len());
    let contents = t.contents.iter().flat_map(|&(s, d)| [s, d as u32]);
    list(&mut w, &mut contents.into_iter(), t.contents.len());
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Reads words off a record body.
struct Words<'a>(&'a [u8]);

impl Words<'_> {
    fn next(&mut self) -> Result<u32, &'static str> {
        let (word, rest) = self.0.split_first_chunk::<4>().ok_or("ends early")?;
        self.0 = rest;
        Ok(u32::from_le_bytes(*word))
    }

    /// A list of `n` items of `width` words each, `n` read first.
    fn list<T>(
        &mut self,
        width: usize,
        item: impl Fn(&[u32]) -> T,
    ) -> Result<Vec<T>, &'static str> {
        let n = self.next()? as usize;
        if n.saturating_mul(width * 4) > self.0.len() {
            return Err("ends early");
        }
        let words: Vec<u32> = (0..n * width)
            .map(|_| self.next())
            .collect::<Result<_, _>>()?;
        Ok(words.chunks(width).map(item).collect())
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
    let mut w = Words(body);
    let id = u64::from(w.next()?) | (u64::from(w.next()?) << 32);
    let seq = w.next()?;
    let test = KeptTest {
        id,
        seq,
        code: w.list(1, |x| x[0])?,
        checks: w.list(2, |x| (x[0], x[1]))?,
        observers: w.list(3, |x| ObsRef {
            stmt: x[0],
            class: x[1],
            method: x[2],
        })?,
        observations: w.list(1, |x| x[0])?,
        varies: w.list(1, |x| x[0])?,
        contents: w.list(2, |x| (x[0], x[1] as i32))?,
    };
    match w.0.is_empty() {
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
            checks: vec![(0, 7), (2, 9)],
            observers: vec![ObsRef {
                stmt: 2,
                class: 4,
                method: 5,
            }],
            observations: vec![11],
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
        let damaged = err.contains("checksum") || err.contains("another length");
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
