//! The temporary file behind an atomic write: unnamed (`O_TMPFILE`) where the file system
//! allows, so a writer killed before its commit — SIGKILL, a power cut — leaves no file at
//! all (the kernel frees an inode no folder names); it gets a name only at the commit,
//! for the instant before the rename. Where unnamed files are not supported (or `/proc`
//! is absent, which naming one needs), a named temporary as before, which the next writer
//! under the lock removes (`remove_stale_temporaries`).

use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// A temporary file in the destination's folder.
pub(super) enum Temp {
    /// No folder names it until [`Temp::persist`].
    Unnamed {
        file: File,
        dir: PathBuf,
        prefix: String,
        suffix: &'static str,
    },
    /// `PREFIXrandomSUFFIX` in the folder.
    Named(tempfile::NamedTempFile),
}

impl Temp {
    /// A new temporary in `dir`, mode `0666` less the umask; its name, when it has one (or
    /// gets one), is `PREFIX` + random letters + `SUFFIX`.
    pub(super) fn create(dir: &Path, prefix: &str, suffix: &'static str) -> io::Result<Temp> {
        if Path::new("/proc/self/fd").is_dir() {
            let unnamed = OpenOptions::new()
                .read(true)
                .write(true)
                .mode(0o666)
                .custom_flags(libc::O_TMPFILE)
                .open(dir);
            match unnamed {
                Ok(file) => {
                    return Ok(Temp::Unnamed {
                        file,
                        dir: dir.to_path_buf(),
                        prefix: prefix.to_string(),
                        suffix,
                    });
                }
                Err(e) if !unsupported(&e) => return Err(e),
                Err(_) => {}
            }
        }
        tempfile::Builder::new()
            .prefix(prefix)
            .suffix(suffix)
            // The kernel takes the umask off, as for any file a program creates.
            .permissions(std::fs::Permissions::from_mode(0o666))
            .tempfile_in(dir)
            .map(Temp::Named)
    }

    /// The open file.
    pub(super) fn as_file(&self) -> &File {
        match self {
            Temp::Unnamed { file, .. } => file,
            Temp::Named(named) => named.as_file(),
        }
    }

    /// Puts the file at `dest`, replacing what was there in one rename. An unnamed file is
    /// first linked under a fresh temporary name (random letters, retried if taken).
    pub(super) fn persist(self, dest: &Path) -> io::Result<()> {
        let (file, dir, prefix, suffix) = match self {
            Temp::Named(named) => return named.persist(dest).map(drop).map_err(|e| e.error),
            Temp::Unnamed {
                file,
                dir,
                prefix,
                suffix,
            } => (file, dir, prefix, suffix),
        };
        let source = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
        let named = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(suffix)
            .make_in(&dir, |path| link(&source, path))?;
        // The name is ours now: a failed rename removes it again (`name` dropped).
        let (_, name) = named.into_parts();
        std::fs::rename(&name, dest)?;
        // Renamed: nothing is left under the temporary name to remove.
        name.keep().map(drop).map_err(|e| e.error)
    }
}

/// `linkat(2)` of the open file behind `/proc/self/fd/N` to `path`.
fn link(source: &CString, path: &Path) -> io::Result<()> {
    let target = CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: both are valid NUL-terminated paths; AT_SYMLINK_FOLLOW resolves the fd link.
    let done = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            source.as_ptr(),
            libc::AT_FDCWD,
            target.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Whether `open(O_TMPFILE)` failed because the file system (or kernel) has no unnamed
/// files, rather than for a reason a named file would meet too (no space, no permission).
fn unsupported(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
    )
}

impl Write for Temp {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Temp::Unnamed { file, .. } => file.write(buf),
            Temp::Named(named) => named.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Temp::Unnamed { file, .. } => file.flush(),
            Temp::Named(named) => named.flush(),
        }
    }
}
