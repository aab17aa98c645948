//! The one open of a suite file. A replay checks the suite whole, then reads it again many
//! times (each replay thread, the confirmation reruns, the groups' examples); every one of
//! those reads goes through the descriptor opened here, never through the path again, so
//! what was checked is what is replayed: a file renamed over the path (as `record` and every
//! atomic writer do) changes nothing, and a file written over in place changes its size or
//! modification time, which each read checks against the open's ([`SuiteFile::unchanged`]).
//! Only regular files are opened: a device, pipe or socket has no end to check.

use super::SuiteError;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A suite file opened once; cheap to clone, every clone reads the same open file.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    path: PathBuf,
    file: Arc<File>,
    identity: Identity,
}

/// What must not change while a suite is read: the file's size and modification time (the
/// device and inode cannot change under a held descriptor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Identity {
    size: u64,
    modified: (i64, i64),
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Identity {
        Identity {
            size: meta.len(),
            modified: (meta.mtime(), meta.mtime_nsec()),
        }
    }
}

impl SuiteFile {
    /// Opens the suite at `path`; anything but a regular file is refused. The open does not
    /// block on a FIFO (`O_NONBLOCK`, which a regular file ignores).
    pub fn open(path: &Path) -> Result<SuiteFile, SuiteError> {
        let io = |source| SuiteError::Io {
            path: path.to_path_buf(),
            source,
        };
        let Some((file, meta)) = crate::atomic::bounded::open_regular(path).map_err(io)? else {
            return Err(SuiteError::NotAFile {
                path: path.to_path_buf(),
            });
        };
        Ok(SuiteFile {
            path: path.to_path_buf(),
            file: Arc::new(file),
            identity: Identity::of(&meta),
        })
    }

    /// A suite held in memory (piped in, fetched from a store, or a fuzzer's input), read
    /// through the same checked path as a file: the bytes go into an anonymous in-memory
    /// file (`memfd_create`), a regular file that nothing else can write, named `name` in
    /// errors.
    pub fn from_bytes(name: &Path, bytes: &[u8]) -> Result<SuiteFile, SuiteError> {
        use std::io::Write;
        use std::os::fd::FromRawFd;
        let io = |source| SuiteError::Io {
            path: name.to_path_buf(),
            source,
        };
        // SAFETY: the name is a valid NUL-terminated string and the returned descriptor,
        // when valid, is owned by the `File` made from it and by nothing else.
        let fd = unsafe { libc::memfd_create(c"difftest-suite".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io(io::Error::last_os_error()));
        }
        // SAFETY: see above.
        let mut file = unsafe { File::from_raw_fd(fd) };
        file.write_all(bytes).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        Ok(SuiteFile {
            path: name.to_path_buf(),
            file: Arc::new(file),
            identity: Identity::of(&meta),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's size when it was opened.
    pub fn len(&self) -> u64 {
        self.identity.size
    }

    /// Whether the file holds nothing.
    pub fn is_empty(&self) -> bool {
        self.identity.size == 0
    }

    /// The file's bytes from the start, read independently of every other reader, and no
    /// further than the size it had when opened. Fails if the file changed since.
    pub fn bytes(&self) -> Result<FileBytes, SuiteError> {
        self.unchanged()?;
        Ok(FileBytes {
            file: self.file.clone(),
            at: 0,
            end: self.identity.size,
        })
    }

    /// Fails if the open file's size or modification time is no longer what it was when
    /// opened: it was written over in place.
    pub fn unchanged(&self) -> Result<(), SuiteError> {
        let meta = self.file.metadata().map_err(|source| SuiteError::Io {
            path: self.path.clone(),
            source,
        })?;
        let now = Identity::of(&meta);
        if now == self.identity {
            return Ok(());
        }
        Err(SuiteError::Changed {
            path: self.path.clone(),
            what: if now.size == self.identity.size {
                "its modification time changed".into()
            } else {
                format!(
                    "its size went from {} to {} bytes",
                    self.identity.size, now.size
                )
            },
        })
    }
}

/// One reader's position in a [`SuiteFile`] (positional reads on the shared descriptor).
pub struct FileBytes {
    file: Arc<File>,
    at: u64,
    end: u64,
}

impl Read for FileBytes {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_sub(self.at);
        let n = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        if n == 0 {
            return Ok(0);
        }
        let got = self.file.read_at(&mut buf[..n], self.at)?;
        self.at += got as u64;
        Ok(got)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_renamed_over_the_path_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let (path, other) = (dir.path().join("s.yaml"), dir.path().join("o.yaml"));
        std::fs::write(&path, "checked\n").unwrap();
        let file = SuiteFile::open(&path).unwrap();
        std::fs::write(&other, "another suite\n").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let mut text = String::new();
        file.bytes().unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "checked\n");
    }

    #[test]
    fn a_file_written_over_in_place_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.yaml");
        std::fs::write(&path, "checked\n").unwrap();
        let file = SuiteFile::open(&path).unwrap();
        std::fs::write(&path, "another suite\n").unwrap();
        let err = file.bytes().err().expect("changed");
        assert!(matches!(err, SuiteError::Changed { .. }), "{err}");
        assert!(err.to_string().contains("s.yaml"), "{err}");
    }

    #[test]
    fn a_suite_in_memory_reads_like_a_file() {
        let file = SuiteFile::from_bytes(Path::new("piped.yaml"), b"in memory\n").unwrap();
        assert_eq!(file.len(), 10);
        assert_eq!(file.path(), Path::new("piped.yaml"));
        let mut text = String::new();
        file.bytes().unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "in memory\n");
    }

    #[test]
    fn devices_and_folders_are_refused() {
        for path in ["/dev/zero", "/dev/null", "/tmp"] {
            let err = SuiteFile::open(Path::new(path)).expect_err(path);
            assert!(matches!(err, SuiteError::NotAFile { .. }), "{path}: {err}");
        }
    }
}
