//! Every file difftest writes goes through here: a temporary file in the destination's
//! folder — unnamed (`O_TMPFILE`) where the file system allows, so a writer killed before
//! its commit leaves nothing behind, else with a unique name — written, flushed and
//! `fsync`ed, then named and renamed over the destination and the folder `fsync`ed. A reader (or a crash) sees the old file or the new one, never
//! half of one, and two writers never share a temporary name. Files are created with mode
//! `0666` less the user's umask, like any other program's files. Read-modify-write cycles
//! (`difftest accept`) and sets of files written as one unit (a report's JSON, Markdown, HTML
//! and JUnit, [`unit`]) also hold a [`FileLock`] on a lock file beside them; under it,
//! temporaries a killed writer left are removed ([`remove_stale_temporaries`]). Files
//! difftest did not just write are read through [`bounded`].

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub mod bounded;
pub mod unit;
mod unnamed;
use unnamed::Temp;

/// A scratch file in folder `dir` (created if needed) for data that lives only while this
/// process runs: unnamed (`O_TMPFILE`) where the file system allows, else named and removed
/// at once, so no folder names it and the kernel frees it when the process ends, however it
/// ends (Ctrl-C, SIGKILL); two processes never share one. Never renamed into place: what
/// must be whole is written with [`AtomicFile`].
pub fn scratch(dir: &Path) -> io::Result<File> {
    std::fs::create_dir_all(dir)?;
    tempfile::tempfile_in(dir)
}

/// The suffix of every temporary file.
const TMP_SUFFIX: &str = ".tmp";

/// A file being written; nothing replaces the destination until [`AtomicFile::commit`].
/// Dropped without a commit, the temporary file is removed and the destination untouched.
pub struct AtomicFile {
    path: PathBuf,
    out: BufWriter<Temp>,
}

/// The folder `path` lives in (`.` for a bare file name).
pub fn folder(path: &Path) -> PathBuf {
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
        let file = Temp::create(&dir, &temporary_prefix(path), TMP_SUFFIX)?;
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
        let path = self.path.clone();
        self.finish()?.rename()?;
        sync_folder(&folder(&path))
    }

    /// Flushes and syncs the file, not yet renamed: a set of files is finished whole (a
    /// full disk fails here, before any of them replaces its destination), then renamed.
    pub fn finish(self) -> io::Result<Finished> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.as_file().sync_all()?;
        Ok(Finished {
            path: self.path,
            file,
        })
    }
}

/// A file written and synced, waiting to be renamed over its destination; dropped, it is
/// removed and the destination untouched.
pub struct Finished {
    path: PathBuf,
    file: Temp,
}

impl Finished {
    /// Renames the file over its destination (the caller syncs the folder).
    pub fn rename(self) -> io::Result<()> {
        self.file.persist(&self.path)
    }
}

/// `.NAME.` for the destination `FOLDER/NAME`: the start of its temporaries' names.
fn temporary_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    format!(".{name}.")
}

/// Removes the temporaries of `path` (`.NAME.XXXXXX.tmp` beside it) that a killed writer
/// left. Only for a caller that holds the lock every writer of `path` takes ([`lock`]):
/// then no temporary of `path` belongs to a live writer. Best effort: a temporary that
/// cannot be removed is left.
pub fn remove_stale_temporaries(path: &Path) {
    let prefix = temporary_prefix(path);
    let Ok(entries) = std::fs::read_dir(folder(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(random) = name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(TMP_SUFFIX))
        else {
            continue;
        };
        if !random.is_empty() && random.chars().all(|c| c.is_ascii_alphanumeric()) {
            let _ = std::fs::remove_file(entry.path());
        }
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

/// An exclusive advisory lock (`flock`) on `PATH.lock`, released when dropped — also by the
/// kernel when its holder is killed, so a lock file left behind is harmless: it holds no
/// lock. The lock file is never removed: removing it would let two processes hold "the"
/// lock at once (one on the removed file, one on a new one).
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
#[cfg(any(test, feature = "test-support"))]
pub fn race(writers: &[&(dyn Fn() + Sync)], read: &(dyn Fn() + Sync)) {
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
    use std::os::unix::fs::PermissionsExt;

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
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            names,
            ["accepted.yaml"],
            "an unnamed temporary leaves no file"
        );
        write(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn files_are_created_with_the_umask_not_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("suite.yaml");
        write(&path, "x").unwrap();
        // SAFETY: umask only reads and sets this process's mask; restored at once.
        let mask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !(mask as u32), "mode {mode:o}");
    }

    #[test]
    fn stale_temporaries_of_one_file_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ref.accepted.yaml");
        write(&path, "list").unwrap();
        std::mem::forget(AtomicFile::create(&path).unwrap()); // a killed writer's
        let others = [
            ".ref.yaml.abc123.tmp",
            "ref.accepted.yaml.lock",
            ".ref.accepted.yaml.x.y.tmp",
        ];
        for name in others {
            std::fs::write(dir.path().join(name), "keep").unwrap();
        }
        remove_stale_temporaries(&path);
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let mut expected: Vec<_> = others.iter().map(|s| s.to_string()).collect();
        expected.push("ref.accepted.yaml".into());
        expected.sort();
        assert_eq!(names, expected);
    }

    #[test]
    fn concurrent_writers_use_distinct_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let mut a = AtomicFile::create(&path).unwrap();
        let mut b = AtomicFile::create(&path).unwrap();
        a.write_all(b"from a").unwrap();
        b.write_all(b"from b").unwrap();
        a.commit().unwrap();
        b.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "from b");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
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
