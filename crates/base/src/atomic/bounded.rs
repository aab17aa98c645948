//! The one bounded reader of files difftest did not just write (reports, accepted lists,
//! target files, class and pair lists, journals): only a regular file is read, opened
//! without blocking (a named pipe is refused, not waited on), and never more than a limit
//! the caller names — checked on the size before reading and again on the bytes read, so
//! `/dev/zero`, a sparse file of a terabyte or a file growing while read costs at most the
//! limit. Each error names the file and, when too large, the limit.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The largest file people write that difftest reads whole (an accepted list, a class
/// list, literals, a target file, a list of changes): a few KiB in use; a larger one (a
/// sparse file, a wrong path) is refused before it is read.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// A file that was not read, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct ReadError {
    pub path: PathBuf,
    pub problem: Problem,
}

/// Why a file was not read (the error without the file's name).
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    #[error("cannot read the {what}: {source}")]
    Io {
        what: &'static str,
        source: io::Error,
    },
    #[error("not a regular file; a {what} is a file")]
    NotAFile { what: &'static str },
    #[error("{size} bytes or more, more than the {} a {what} may hold", size_text(*.limit))]
    TooLarge {
        what: &'static str,
        size: u64,
        limit: u64,
    },
    #[error("the {what} is not UTF-8 text (byte {at})")]
    NotUtf8 { what: &'static str, at: usize },
}

impl ReadError {
    /// The file does not exist (callers for which that means "empty" check this).
    pub fn is_not_found(&self) -> bool {
        matches!(&self.problem, Problem::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

/// `64 MiB`, `64 KiB` or `N bytes`.
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// `path` opened for reading, with its metadata, if it is a regular file; `None` for a
/// device, pipe, socket or folder. The open does not block on a named pipe (`O_NONBLOCK`,
/// which a regular file ignores). The bounded reads here and the suite's one open share it.
pub fn open_regular(path: &Path) -> io::Result<Option<(File, Metadata)>> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    Ok(meta.is_file().then_some((file, meta)))
}

/// The bytes of the regular file `path`, at most `limit` of them; `what` names the kind
/// of file in errors ("report", "accepted list").
pub fn read_bytes(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let error = |problem| ReadError {
        path: path.to_path_buf(),
        problem,
    };
    let io = |source| error(Problem::Io { what, source });
    let too_large = |size| error(Problem::TooLarge { what, size, limit });
    let Some((file, meta)) = open_regular(path).map_err(io)? else {
        return Err(error(Problem::NotAFile { what }));
    };
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The text of the regular file `path`, at most `limit` bytes of UTF-8 (see [`read_bytes`]).
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, ReadError> {
    String::from_utf8(read_bytes(path, limit, what)?).map_err(|e| ReadError {
        path: path.to_path_buf(),
        problem: Problem::NotUtf8 {
            what,
            at: e.utf8_error().valid_up_to(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_pipes_and_large_files_are_refused_naming_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let zero = read_bytes(Path::new("/dev/zero"), 1 << 20, "report").unwrap_err();
        assert!(matches!(zero.problem, Problem::NotAFile { .. }), "{zero}");
        let sparse = dir.path().join("sparse");
        std::fs::File::create(&sparse)
            .unwrap()
            .set_len(1 << 40)
            .unwrap();
        let err = read_text(&sparse, 64 << 20, "report")
            .unwrap_err()
            .to_string();
        assert!(err.contains("sparse") && err.contains("64 MiB"), "{err}");
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            read_bytes(&fifo, 10, "list").unwrap_err().problem,
            Problem::NotAFile { .. }
        ));
    }

    #[test]
    fn small_files_are_read_and_missing_ones_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "hello").unwrap();
        assert_eq!(read_text(&path, 5, "list").unwrap(), "hello");
        assert!(read_text(&path, 4, "list").is_err());
        assert!(
            read_text(&dir.path().join("none"), 4, "list")
                .unwrap_err()
                .is_not_found()
        );
        std::fs::write(&path, [0xff, b'a']).unwrap();
        assert!(matches!(
            read_text(&path, 5, "list").unwrap_err().problem,
            Problem::NotUtf8 { at: 0, .. }
        ));
    }
}
