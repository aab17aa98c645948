//! A list of `u64` words in a scratch file (`atomic::scratch`: unnamed, gone with the
//! process), for what grows with a record's tests: memory holds only the words waiting to be
//! written, so the list costs the same few kilobytes at a thousand tests and at ten million.
//! The kept tests' index (`spool`) is one. Reading a word is one positioned read, served by
//! the page cache; a failure to create or write the file is kept and reported by every later
//! read, as the spool does.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Words gathered before they are written, and words read at once while retaining.
const BLOCK: usize = 1 << 13;

/// Bytes a word takes in the file.
const WORD: usize = 8;

/// The list; see the module comment.
pub(crate) struct ScratchWords {
    file: Option<File>,
    /// Words in the file.
    flushed: usize,
    /// Words after `flushed`, not yet written.
    pending: Vec<u64>,
    /// The first failure to create, read or write the file.
    failed: Option<io::ErrorKind>,
}

impl ScratchWords {
    /// An empty list in a scratch file in `dir`.
    pub(crate) fn in_dir(dir: &Path) -> ScratchWords {
        let file = crate::atomic::scratch(dir);
        ScratchWords {
            failed: file.as_ref().err().map(io::Error::kind),
            file: file.ok(),
            flushed: 0,
            pending: Vec::new(),
        }
    }

    /// Words in the list.
    pub(crate) fn len(&self) -> usize {
        self.flushed + self.pending.len()
    }

    /// The first failure to create, read or write the file, if any.
    pub(crate) fn failed(&self) -> Option<io::ErrorKind> {
        self.failed
    }

    /// Bytes held in memory: the words waiting to be written.
    pub(crate) fn heap_bytes(&self) -> u64 {
        (self.pending.capacity() * WORD) as u64
    }

    /// Appends `word`.
    pub(crate) fn push(&mut self, word: u64) {
        self.pending.push(word);
        if self.pending.len() >= BLOCK {
            self.flush();
        }
    }

    /// Word `i` (`i < len`).
    pub(crate) fn get(&self, i: usize) -> io::Result<u64> {
        self.check()?;
        if i >= self.flushed {
            return Ok(self.pending[i - self.flushed]);
        }
        let mut bytes = [0u8; WORD];
        self.file()?.read_exact_at(&mut bytes, (i * WORD) as u64)?;
        Ok(u64::from_le_bytes(bytes))
    }

    /// The `n` words from `start` on (`start + n <= len`), in one positioned read.
    pub(crate) fn range(&self, start: usize, n: usize) -> io::Result<Vec<u64>> {
        self.check()?;
        let in_file = self.flushed.saturating_sub(start).min(n);
        let mut bytes = vec![0u8; in_file * WORD];
        if in_file > 0 {
            self.file()?
                .read_exact_at(&mut bytes, (start * WORD) as u64)?;
        }
        let mut words: Vec<u64> = bytes
            .chunks_exact(WORD)
            .map(|b| u64::from_le_bytes(b.try_into().expect("a word is eight bytes")))
            .collect();
        let from = (start + in_file).saturating_sub(self.flushed);
        let pending = self.pending.get(from..from + (n - in_file));
        words.extend(pending.ok_or(io::ErrorKind::UnexpectedEof)?);
        Ok(words)
    }

    /// Replaces word `i` (`i < len`).
    pub(crate) fn set(&mut self, i: usize, word: u64) {
        if i >= self.flushed {
            self.pending[i - self.flushed] = word;
            return;
        }
        let written = self
            .file()
            .and_then(|f| f.write_all_at(&word.to_le_bytes(), (i * WORD) as u64));
        self.note(written);
    }

    /// Keeps the words `keep(i, word)` accepts, in order: one pass over the file, each kept
    /// word written back at or before where it was read.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(usize, u64) -> bool) {
        self.flush();
        let (mut read, mut kept) = (0, 0);
        let mut block = vec![0u8; BLOCK * WORD];
        while read < self.flushed && self.failed.is_none() {
            let n = BLOCK.min(self.flushed - read);
            let bytes = &mut block[..n * WORD];
            if let Err(e) = self
                .file()
                .and_then(|f| f.read_exact_at(bytes, (read * WORD) as u64))
            {
                self.failed = Some(e.kind());
                break;
            }
            let words = bytes
                .chunks_exact(WORD)
                .map(|b| u64::from_le_bytes(b.try_into().expect("a word is eight bytes")));
            let out: Vec<u8> = (read..)
                .zip(words)
                .filter(|&(i, w)| keep(i, w))
                .flat_map(|(_, w)| w.to_le_bytes())
                .collect();
            let written = self
                .file()
                .and_then(|f| f.write_all_at(&out, (kept * WORD) as u64));
            self.note(written);
            kept += out.len() / WORD;
            read += n;
        }
        // After a failure the list keeps its length, so that reading it reports the
        // failure rather than finding it empty.
        if self.failed.is_none() {
            self.flushed = kept;
        }
    }

    /// Keeps the first `n` words.
    pub(crate) fn truncate(&mut self, n: usize) {
        if n >= self.flushed {
            self.pending.truncate(n - self.flushed);
        } else {
            self.pending.clear();
            self.flushed = n;
        }
    }

    /// Writes the pending words.
    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let bytes: Vec<u8> = self.pending.iter().flat_map(|w| w.to_le_bytes()).collect();
        let written = self
            .file()
            .and_then(|f| f.write_all_at(&bytes, (self.flushed * WORD) as u64));
        self.note(written);
        self.flushed += self.pending.len();
        self.pending.clear();
    }

    fn check(&self) -> io::Result<()> {
        match self.failed {
            Some(kind) => Err(kind.into()),
            None => Ok(()),
        }
    }

    fn file(&self) -> io::Result<&File> {
        self.file
            .as_ref()
            .ok_or_else(|| io::ErrorKind::NotFound.into())
    }

    fn note(&mut self, result: io::Result<()>) {
        if let Err(e) = result {
            self.failed.get_or_insert(e.kind());
        }
    }

    /// The scratch file, for the tests that damage it.
    #[cfg(test)]
    pub(crate) fn file_for_tests(&mut self) -> &File {
        self.flush();
        self.file.as_ref().expect("a scratch file")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: u64) -> ScratchWords {
        let mut w = ScratchWords::in_dir(&std::env::temp_dir());
        (0..n).for_each(|x| w.push(x * 10));
        w
    }

    #[test]
    fn words_read_back_set_retained_and_truncated_across_the_file_and_the_buffer() {
        let n = 3 * BLOCK as u64 + 17;
        let mut w = words(n);
        assert_eq!(w.len(), n as usize);
        assert_eq!(w.get(5).unwrap(), 50, "from the file");
        assert_eq!(
            w.get(n as usize - 1).unwrap(),
            (n - 1) * 10,
            "from the buffer"
        );
        w.set(7, 1);
        w.set(n as usize - 2, 2);
        assert_eq!((w.get(7).unwrap(), w.get(n as usize - 2).unwrap()), (1, 2));
        w.retain(|i, x| i % 3 == 0 || x < 10);
        let left: Vec<u64> = (0..w.len()).map(|i| w.get(i).unwrap()).collect();
        let want: Vec<u64> = (0..n)
            .map(|i| match i {
                7 => 1,
                _ if i == n - 2 => 2,
                _ => i * 10,
            })
            .enumerate()
            .filter(|&(i, x)| i % 3 == 0 || x < 10)
            .map(|(_, x)| x)
            .collect();
        assert_eq!(left, want);
        w.push(99);
        assert_eq!(
            w.get(want.len()).unwrap(),
            99,
            "appended after the kept words"
        );
        w.truncate(4);
        assert_eq!((w.len(), w.get(3).unwrap()), (4, want[3]));
        w.truncate(100);
        assert_eq!(w.len(), 4, "truncating to more keeps all");
    }

    #[test]
    fn a_range_reads_from_the_file_the_buffer_or_both() {
        let n = 2 * BLOCK + 9;
        let w = words(n as u64);
        let want = |start: usize, len: usize| -> Vec<u64> {
            (start..start + len).map(|i| i as u64 * 10).collect()
        };
        for (start, len) in [
            (0, 0),
            (3, 5),
            (BLOCK * 2 - 3, 7),
            (BLOCK * 2 + 1, 8),
            (0, n),
        ] {
            let got: Vec<u64> = w.range(start, len).unwrap();
            assert_eq!(got, want(start, len), "{start}+{len}");
        }
        assert!(
            w.range(n - 2, 3).is_err(),
            "past the end is an error, not a short list"
        );
        let mut cut = words(n as u64);
        cut.file_for_tests().set_len(16).unwrap();
        assert!(cut.range(1, 4).is_err(), "a file cut short is an error");
    }

    #[test]
    fn memory_holds_one_block_however_long_the_list() {
        let w = words(40 * BLOCK as u64);
        assert!(
            w.heap_bytes() <= (BLOCK * WORD) as u64,
            "{}",
            w.heap_bytes()
        );
    }

    #[test]
    fn a_list_that_cannot_be_read_back_keeps_its_length_and_reports_the_failure() {
        let mut w = words(2 * BLOCK as u64);
        w.file_for_tests().set_len(100).unwrap();
        w.retain(|_, _| false);
        assert_eq!(w.len(), 2 * BLOCK, "not silently empty");
        assert!(w.failed().is_some() && w.get(0).is_err());
    }

    #[test]
    fn a_file_cut_short_is_an_error_on_read() {
        let mut w = words(2 * BLOCK as u64);
        w.file_for_tests().set_len(100).unwrap();
        assert!(w.get(BLOCK).is_err());
        assert_eq!(w.get(3).unwrap(), 30, "what is left still reads");
    }
}
