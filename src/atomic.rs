//! Every file difftest writes goes through here: a temporary file with a unique name in the
//! destination's folder, written, flushed and `fsync`ed, then renamed over the destination
//! and the folder `fsync`ed. A reader (or a crash) sees the old file or the new one, never
//! half of one, and two writers never share a temporary name. Read-modify-write cycles
//! (`difftest accept`) also hold a [`FileLock`] on a lock file beside the file they edit.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written; nothing replaces the destination until [`AtomicFile::commit`].
/// Dropped without a commit, the temporary file is removed and the destination untouched.
pub struct AtomicFile {
    path: PathBuf,
    out: BufWriter<tempfile::NamedTempFile>,
}

/// The folder `path` lives in (`.` for a bare file name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl AtomicFile {
    /// Starts writing `path`, creating its folder if needed.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let dir = folder(path);
        std::fs::create_dir_all(&dir)?;
        let name = path
            .file_name()
            .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
        let file = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(&dir)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(1 << 20, file),
        })
    }

    /// The destination.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs and renames the file into place, then syncs the folder.
    pub fn commit(self) -> io::Result<()> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.as_file().sync_all()?;
        file.persist(&self.path).map_err(|e| e.error)?;
        sync_folder(&folder(&self.path))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Makes a rename in `dir` durable.
fn sync_folder(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Writes `bytes` to `path` atomically.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes.as_ref())?;
    f.commit()
}

/// An exclusive advisory lock (`flock`) on `PATH.lock`, released when dropped. The lock
/// file is never removed: removing it would let two processes hold "the" lock at once.
pub struct FileLock {
    _file: File,
}

/// The lock file guarding `path`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// Waits for and takes the exclusive lock guarding `path` (see [`lock_path`]).
pub fn lock(path: &Path) -> io::Result<FileLock> {
    std::fs::create_dir_all(folder(path))?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path(path))?;
    file.lock()?;
    Ok(FileLock { _file: file })
}

/// Test support: runs each of `writers` on its own thread while `read` runs over and over on
/// another, until every writer is done (`read` asserts what a reader must always see).
#[cfg(test)]
pub(crate) fn race(writers: &[&(dyn Fn() + Sync)], read: &(dyn Fn() + Sync)) {
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                read();
            }
        });
        let running: Vec<_> = writers.iter().map(|w| s.spawn(*w)).collect();
        running.into_iter().for_each(|w| w.join().unwrap());
        done.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_whole_files_and_leave_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/list.yaml");
        write(&path, "one").unwrap();
        write(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["list.yaml"], "no temporary file left");
    }

    #[test]
    fn an_uncommitted_file_leaves_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        write(&path, "old").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new, half written").unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_writer_killed_mid_write_leaves_the_old_file_and_blocks_no_later_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("accepted.yaml");
        write(&path, "old").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(&[b'x'; 3 << 20]).unwrap(); // past the buffer: bytes on disk
        std::mem::forget(f); // as a killed process: no commit, no clean-up
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        write(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn concurrent_writers_use_distinct_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let a = AtomicFile::create(&path).unwrap();
        let b = AtomicFile::create(&path).unwrap();
        assert_ne!(a.out.get_ref().path(), b.out.get_ref().path());
    }

    #[test]
    fn the_lock_is_exclusive() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.yaml");
        let held = lock(&path).unwrap();
        let other = File::options().write(true).open(lock_path(&path)).unwrap();
        assert!(other.try_lock().is_err(), "held elsewhere");
        drop(held);
        assert!(other.try_lock().is_ok(), "released on drop");
    }
}
