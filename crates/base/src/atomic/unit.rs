//! A set of files replaced as one unit (a report's JSON, Markdown, HTML and JUnit): a reader
//! finds all files of one write, never some of two, even when the writer is killed between
//! its renames. Under the lock of `DIR/STEM`, each file is written and synced to
//! `DIR/.NAME.staged`; then the journal `DIR/STEM.journal`, naming the files, is written
//! atomically — the commit point; then each staged file is renamed over its name, and the
//! journal removed. Whoever takes the lock next ([`Unit::open`] to write, [`settle`] to
//! read) finishes a commit whose journal it finds (rolls forward) and removes staged files
//! no journal names (rolls back a write killed before its commit point).

use super::{AtomicFile, FileLock, Finished, folder, lock, remove_stale_temporaries};
use std::io;
use std::path::{Path, PathBuf};

/// The first line of a journal.
const JOURNAL_HEADER: &str = "difftest unit 1";

/// A journal is a few names; anything larger was not written by difftest.
const MAX_JOURNAL_BYTES: u64 = 64 << 10;

/// Test-only hook: when set to a path, a commit creates that file after its first rename
/// and waits there for a minute, so a test can kill the writer between two renames.
const PAUSE_HOOK: &str = "DIFFTEST_TEST_PAUSE_BETWEEN_RENAMES";

/// The files `DIR/STEM.EXT` (one per extension), or any named files of one folder
/// ([`Unit::open_files`]), written as one unit under the lock and journal of `DIR/STEM`.
pub struct Unit {
    dir: PathBuf,
    stem: String,
    /// The unit's file names (no folder).
    names: Vec<String>,
    _lock: FileLock,
}

impl Unit {
    /// Takes the lock of the unit `DIR/STEM.EXT` (waiting for another writer) and settles
    /// an interrupted earlier write (see the module doc).
    pub fn open(dir: &Path, stem: &str, exts: &[&str]) -> io::Result<Unit> {
        Unit::open_files(dir, stem, &file_names(stem, exts))
    }

    /// As [`Unit::open`], for the files `DIR/NAME` of `names` (a summary's `summary.md`
    /// and `index.html`), under the lock and journal of `DIR/STEM`.
    pub fn open_files(dir: &Path, stem: &str, names: &[String]) -> io::Result<Unit> {
        std::fs::create_dir_all(dir)?;
        let unit = Unit {
            dir: dir.to_path_buf(),
            stem: stem.to_string(),
            names: names.to_vec(),
            _lock: lock(&dir.join(stem))?,
        };
        unit.recover()?;
        Ok(unit)
    }

    /// `DIR/STEM.EXT`.
    pub fn path(&self, ext: &str) -> PathBuf {
        self.dir.join(format!("{}.{ext}", self.stem))
    }

    /// Starts writing the unit's file of extension `ext` (to its staged name).
    pub fn create(&self, ext: &str) -> io::Result<AtomicFile> {
        self.create_file(&format!("{}.{ext}", self.stem))
    }

    /// Starts writing the unit's file `DIR/NAME` (to its staged name).
    pub fn create_file(&self, name: &str) -> io::Result<AtomicFile> {
        let staged = staged(&self.dir.join(name));
        remove_stale_temporaries(&staged);
        AtomicFile::create(&staged)
    }

    /// Makes `files` (from [`Unit::create`], finished) the unit's files, all or none.
    pub fn commit(self, files: Vec<Finished>) -> io::Result<()> {
        let names: Vec<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
        files.into_iter().try_for_each(Finished::rename)?;
        super::sync_folder(&self.dir)?;
        let mut journal = String::from(JOURNAL_HEADER);
        for staged in &names {
            journal.push('\n');
            let name = final_name(staged);
            journal.push_str(&name.file_name().unwrap_or_default().to_string_lossy());
        }
        journal.push('\n');
        super::write(&self.journal(), journal)?;
        self.roll_forward(&names)
    }

    /// `DIR/STEM.journal`.
    fn journal(&self) -> PathBuf {
        self.path("journal")
    }

    /// Finishes a commit whose journal is there; removes staged files of none.
    fn recover(&self) -> io::Result<()> {
        let journal = self.journal();
        remove_stale_temporaries(&journal);
        if let Some(names) = self.read_journal()? {
            self.roll_forward(&names)?;
        }
        for name in &self.names {
            let staged = staged(&self.dir.join(name));
            remove_stale_temporaries(&staged);
            match std::fs::remove_file(&staged) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }

    /// Renames each staged file still there over its name, then removes the journal.
    fn roll_forward(&self, staged_paths: &[PathBuf]) -> io::Result<()> {
        for (i, staged) in staged_paths.iter().enumerate() {
            match std::fs::rename(staged, final_name(staged)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
            if i == 0 {
                pause_for_tests();
            }
        }
        super::sync_folder(&self.dir)?;
        match std::fs::remove_file(self.journal()) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        super::sync_folder(&self.dir)
    }

    /// The staged paths a journal names; `None` when there is none. A journal naming a
    /// file outside this unit is refused: difftest did not write it.
    fn read_journal(&self) -> io::Result<Option<Vec<PathBuf>>> {
        let path = self.journal();
        let text = match super::bounded::read_text(&path, MAX_JOURNAL_BYTES, "journal") {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string())),
        };
        let invalid = |why: String| {
            let message = format!("{}: {why}; remove it to go on", path.display());
            io::Error::new(io::ErrorKind::InvalidData, message)
        };
        let mut lines = text.lines();
        if lines.next() != Some(JOURNAL_HEADER) {
            return Err(invalid("not a difftest journal".into()));
        }
        lines
            .map(|name| match self.names.iter().any(|k| k == name) {
                true => Ok(staged(&self.dir.join(name))),
                false => Err(invalid(format!(
                    "names {:?}, not a file of this set",
                    name.chars().take(80).collect::<String>()
                ))),
            })
            .collect::<io::Result<Vec<_>>>()
            .map(Some)
    }
}

/// Settles the unit `DIR/STEM` before it is read: when a writer ever locked it (its lock
/// file is there), takes the lock and finishes or removes an interrupted write.
pub fn settle(dir: &Path, stem: &str, exts: &[&str]) -> io::Result<()> {
    let lock_file = super::lock_path(&dir.join(stem));
    if !lock_file.exists() {
        return Ok(());
    }
    match Unit::open(dir, stem, exts) {
        Ok(_) => Ok(()),
        // A folder this user cannot write (or a read-only mount) holds no write of theirs
        // to finish, unless a journal says otherwise.
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            match dir.join(format!("{stem}.journal")).exists() {
                true => Err(e),
                false => Ok(()),
            }
        }
        Err(e) => Err(e),
    }
}

/// `STEM.EXT` for each of `exts`.
fn file_names(stem: &str, exts: &[&str]) -> Vec<String> {
    exts.iter().map(|e| format!("{stem}.{e}")).collect()
}

/// `DIR/.NAME.staged` for `DIR/NAME`.
fn staged(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    folder(path).join(format!(".{name}.staged"))
}

/// `DIR/NAME` for `DIR/.NAME.staged`.
fn final_name(staged: &Path) -> PathBuf {
    let name = staged.file_name().unwrap_or_default().to_string_lossy();
    let name = name.strip_prefix('.').unwrap_or(&name);
    let name = name.strip_suffix(".staged").unwrap_or(name);
    folder(staged).join(name)
}

/// See [`PAUSE_HOOK`].
fn pause_for_tests() {
    if let Some(marker) = std::env::var_os(PAUSE_HOOK) {
        let _ = std::fs::write(marker, "paused");
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const EXTS: [&str; 2] = ["json", "md"];

    fn write_set(dir: &Path, text: &str) {
        let unit = Unit::open(dir, "r", &EXTS).unwrap();
        let files = EXTS.map(|ext| {
            let mut f = unit.create(ext).unwrap();
            f.write_all(text.as_bytes()).unwrap();
            f.finish().unwrap()
        });
        unit.commit(files.into()).unwrap();
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    fn read(dir: &Path, name: &str) -> String {
        std::fs::read_to_string(dir.join(name)).unwrap()
    }

    #[test]
    fn a_commit_replaces_every_file_and_leaves_only_the_set_and_its_lock() {
        let dir = tempfile::tempdir().unwrap();
        write_set(dir.path(), "one");
        write_set(dir.path(), "two");
        assert_eq!(names(dir.path()), ["r.json", "r.lock", "r.md"]);
        assert_eq!(read(dir.path(), "r.md"), "two");
    }

    #[test]
    fn a_journal_found_is_rolled_forward_by_the_next_reader() {
        let dir = tempfile::tempdir().unwrap();
        write_set(dir.path(), "old");
        // As a writer killed after its first rename: the JSON is new, the Markdown staged.
        std::fs::write(dir.path().join("r.json"), "new").unwrap();
        std::fs::write(dir.path().join(".r.md.staged"), "new").unwrap();
        std::fs::write(
            dir.path().join("r.journal"),
            "difftest unit 1\nr.json\nr.md\n",
        )
        .unwrap();
        settle(dir.path(), "r", &EXTS).unwrap();
        assert_eq!(names(dir.path()), ["r.json", "r.lock", "r.md"]);
        assert_eq!(read(dir.path(), "r.md"), "new");
    }

    #[test]
    fn staged_files_without_a_journal_are_rolled_back() {
        let dir = tempfile::tempdir().unwrap();
        write_set(dir.path(), "old");
        std::fs::write(dir.path().join(".r.json.staged"), "new").unwrap();
        settle(dir.path(), "r", &EXTS).unwrap();
        assert_eq!(names(dir.path()), ["r.json", "r.lock", "r.md"]);
        assert_eq!(read(dir.path(), "r.json"), "old");
    }

    #[test]
    fn a_journal_naming_another_file_is_refused_naming_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        write_set(dir.path(), "old");
        let journal = dir.path().join("r.journal");
        std::fs::write(&journal, "difftest unit 1\n../../etc/passwd\n").unwrap();
        let err = settle(dir.path(), "r", &EXTS).unwrap_err().to_string();
        assert!(
            err.contains("r.journal") && err.contains("not a file of this set"),
            "{err}"
        );
        std::fs::write(&journal, "garbage").unwrap();
        let err = settle(dir.path(), "r", &EXTS).unwrap_err().to_string();
        assert!(err.contains("not a difftest journal"), "{err}");
    }

    #[test]
    fn a_unit_of_named_files_is_committed_and_rolled_forward_under_its_stem() {
        let dir = tempfile::tempdir().unwrap();
        let files = ["summary.md".to_string(), "index.html".to_string()];
        let unit = Unit::open_files(dir.path(), "summary", &files).unwrap();
        let done = files.clone().map(|name| {
            let mut f = unit.create_file(&name).unwrap();
            f.write_all(b"one").unwrap();
            f.finish().unwrap()
        });
        unit.commit(done.into()).unwrap();
        assert_eq!(
            names(dir.path()),
            ["index.html", "summary.lock", "summary.md"]
        );
        // Killed after its first rename: the next writer finishes it before its own.
        std::fs::write(dir.path().join("summary.md"), "two").unwrap();
        std::fs::write(dir.path().join(".index.html.staged"), "two").unwrap();
        let journal = "difftest unit 1\nsummary.md\nindex.html\n";
        std::fs::write(dir.path().join("summary.journal"), journal).unwrap();
        drop(Unit::open_files(dir.path(), "summary", &files).unwrap());
        assert_eq!(read(dir.path(), "index.html"), "two");
        assert_eq!(
            names(dir.path()),
            ["index.html", "summary.lock", "summary.md"]
        );
    }

    #[test]
    fn a_folder_never_written_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("r.json"), "{}").unwrap();
        settle(dir.path(), "r", &EXTS).unwrap();
        assert_eq!(names(dir.path()), ["r.json"]);
    }
}
