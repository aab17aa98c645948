//! zstd-compressed suites (`NAME.yaml.zst`). The compressed file is the readable suite,
//! byte for byte, inside one zstd frame with zstd's own content checksum: `zstd -d` gives
//! the `.yaml` back, and the per-test sums and the end line's checksum (which cover the
//! uncompressed text) mean what they mean in a plain file. The reader tells a compressed
//! file by its first four bytes, whatever its name; the writer compresses when the name ends
//! in `.zst`.

use super::SuiteError;
use super::file::SuiteFile;
use crate::atomic::AtomicFile;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

/// The first four bytes of a zstd frame.
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// The compression level: level 9 writes a suite at a few tens of MB/s on one core (a
/// 300 MB suite in seconds, small next to the reruns) and compresses better than 3.
pub(crate) const LEVEL: i32 = 9;

/// Threads that compress while the writer goes on making text: one, so compressing
/// overlaps the rest of the writing. The compressed bytes depend on this number, never on
/// timing, so a seed still gives one file.
const COMPRESSING_THREADS: u32 = 1;

/// Text handed to the compressing thread at a time. zstd's default for level 9 held some
/// 60 MiB more than compressing in line (a 244,064-test suite); 4 MiB jobs hold about 13
/// MiB more, for a file 1 % larger than in line.
const JOB_BYTES: u32 = 4 << 20;

/// Whether a suite written to `path` is compressed: its name ends in `.zst`.
pub fn wanted(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "zst")
}

/// The most uncompressed text read per byte of a compressed file. Real suites compress 10
/// to 50 times; zstd's best case (a run of one byte) is about 32,000, so a file above this
/// ratio is a decompression bomb, not a suite, and is refused before it fills memory or time.
pub(crate) const MAX_RATIO: u64 = 4096;

/// Text any compressed file may give, whatever its size (a small file of a large suite of
/// repeated tests).
pub(crate) const MIN_BOUND: u64 = 1 << 30;

/// Opens a suite file for reading through its one open descriptor, decompressing it when
/// it starts with [`MAGIC`]; the text is bounded ([`MAX_RATIO`], [`MIN_BOUND`]).
pub(crate) fn open(file: &SuiteFile) -> Result<(Box<dyn BufRead + Send>, bool), SuiteError> {
    let io = |source| SuiteError::Io {
        path: file.path().to_path_buf(),
        source,
    };
    let mut bytes = file.bytes()?;
    let mut head = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match bytes.read(&mut head[got..]).map_err(io)? {
            0 => break,
            n => got += n,
        }
    }
    let start = io::Cursor::new(head[..got].to_vec()).chain(bytes);
    if got == 4 && head == MAGIC {
        let decoder = zstd::stream::read::Decoder::new(start).map_err(io)?;
        let bound = file.len().saturating_mul(MAX_RATIO).max(MIN_BOUND);
        let bounded = Bounded {
            inner: decoder,
            left: bound,
        };
        Ok((Box::new(BufReader::with_capacity(1 << 16, bounded)), true))
    } else {
        Ok((Box::new(BufReader::with_capacity(1 << 16, start)), false))
    }
}

/// A reader that fails once it has given `left` bytes.
struct Bounded<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.left = self.left.checked_sub(n as u64).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("it decompresses to more than {MAX_RATIO} times its size"),
            )
        })?;
        Ok(n)
    }
}

/// Where a suite's bytes go: straight to the file, or through zstd.
pub(crate) enum Sink {
    Plain(AtomicFile),
    Zstd(zstd::stream::write::Encoder<'static, AtomicFile>),
}

impl Sink {
    /// A sink for `path`, compressed when [`wanted`].
    pub(crate) fn create(path: &Path) -> io::Result<Sink> {
        let file = AtomicFile::create(path)?;
        if !wanted(path) {
            return Ok(Sink::Plain(file));
        }
        let mut encoder = zstd::stream::write::Encoder::new(file, LEVEL)?;
        encoder.multithread(COMPRESSING_THREADS)?;
        encoder.set_parameter(zstd::stream::raw::CParameter::JobSize(JOB_BYTES))?;
        encoder.include_checksum(true)?;
        encoder.include_contentsize(false)?;
        Ok(Sink::Zstd(encoder))
    }

    /// Ends the frame (if any) and renames the file into place.
    pub(crate) fn commit(self) -> io::Result<()> {
        match self {
            Sink::Plain(f) => f.commit(),
            Sink::Zstd(e) => e.finish()?.commit(),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Plain(f) => f.write(buf),
            Sink::Zstd(e) => e.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Plain(f) => f.flush(),
            Sink::Zstd(e) => e.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::suite::{Suite, SuiteError};

    /// The sample suite with its test repeated under many ids, so the compressed file spans
    /// several zstd blocks.
    pub(super) fn big() -> Suite {
        let mut suite = crate::suite::tests::sample();
        let one = suite.tests[0].clone();
        suite.tests = (0..2000)
            .map(|i| {
                let mut t = one.clone();
                t.id = 1000 + i;
                t
            })
            .collect();
        suite.header.counts.insert("tests".into(), 2000);
        suite
    }

    #[test]
    fn a_zst_name_writes_zstd_that_reads_back_as_the_plain_text() {
        let dir = tempfile::tempdir().unwrap();
        let (plain, packed) = (dir.path().join("s.yaml"), dir.path().join("s.yaml.zst"));
        let suite = big();
        suite.save(&plain).unwrap();
        suite.save(&packed).unwrap();
        let bytes = std::fs::read(&packed).unwrap();
        assert_eq!(bytes[..4], super::MAGIC);
        let text = zstd::decode_all(&bytes[..]).unwrap();
        assert_eq!(text, std::fs::read(&plain).unwrap(), "the same text inside");
        assert!(
            bytes.len() * 10 < text.len(),
            "{} of {}",
            bytes.len(),
            text.len()
        );
        assert_eq!(Suite::load(&packed).unwrap(), suite);
        // The name does not decide on reading: the magic number does.
        let renamed = dir.path().join("renamed.yaml");
        std::fs::rename(&packed, &renamed).unwrap();
        assert_eq!(Suite::load(&renamed).unwrap(), suite);
    }

    #[test]
    fn decompressed_text_stops_at_its_bound() {
        use std::io::Read;
        let text = vec![b'\n'; 10_000];
        let mut within = super::Bounded {
            inner: &text[..],
            left: 10_000,
        };
        assert_eq!(within.read_to_end(&mut Vec::new()).unwrap(), 10_000);
        let mut beyond = super::Bounded {
            inner: &text[..],
            left: 9_999,
        };
        let err = beyond.read_to_end(&mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("4096 times its size"), "{err}");
    }

    fn one_line_naming(err: SuiteError, name: &str) -> String {
        let m = err.to_string();
        assert!(!m.contains('\n'), "{m}");
        assert!(m.contains(name), "{m}");
        m
    }

    #[test]
    fn cut_or_corrupt_compressed_suites_are_refused_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let packed = dir.path().join("s.yaml.zst");
        let suite = big();
        suite.save(&packed).unwrap();
        let bytes = std::fs::read(&packed).unwrap();
        let bad = dir.path().join("bad.yaml.zst");
        for cut in [5, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
            std::fs::write(&bad, &bytes[..cut]).unwrap();
            let err = Suite::load(&bad).expect_err(&format!("cut at {cut}"));
            let m = one_line_naming(err, "bad.yaml.zst:");
            assert!(
                m.contains("cut or corrupt") || m.contains("truncated"),
                "{m}"
            );
        }
        for at in (4..bytes.len()).step_by(bytes.len() / 40 + 1) {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            std::fs::write(&bad, &flipped).unwrap();
            // A flipped bit zstd ignores (a reserved header bit) still gives the same text.
            match Suite::load(&bad) {
                Ok(read) => assert!(read == suite, "byte {at} flipped: a different suite"),
                Err(err) => drop(one_line_naming(err, "bad.yaml.zst")),
            }
        }
    }
}

#[cfg(test)]
mod skip_tests {
    use crate::suite::entries::Entries;
    use crate::suite::read::SuiteReader;

    /// Two readers taking turns over segments, as replay threads do, see every test once
    /// and reach the end line without an error (skipped tests count towards it).
    #[test]
    fn readers_that_skip_segments_see_every_test_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.yaml.zst");
        let suite = super::tests::big();
        suite.save(&path).unwrap();
        for (segment, odd_only) in [(300, false), (7, true), (2000, false)] {
            let mut readers: Vec<(SuiteReader, Entries)> = (0..2)
                .map(|_| {
                    let mut r = SuiteReader::open(&path).unwrap();
                    if odd_only {
                        r.filter(Box::new(|id| id % 2 == 1));
                    }
                    (r, Entries::new(&path))
                })
                .collect();
            let mut seen = Vec::new();
            for k in 0.. {
                let (r, e) = &mut readers[k % 2];
                if !r.skip_to(e, k * segment).unwrap() {
                    break;
                }
                for _ in 0..segment {
                    match r.next_test(e).unwrap() {
                        Some(t) => seen.push(t.id),
                        None => break,
                    }
                }
            }
            let want: Vec<u64> = suite
                .tests
                .iter()
                .map(|t| t.id)
                .filter(|id| !odd_only || id % 2 == 1)
                .collect();
            assert_eq!(seen, want, "segment {segment}");
            for (r, e) in &mut readers {
                while r.next_item(e).unwrap().is_some() {}
            }
        }
    }
}
