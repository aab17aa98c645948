//! Helpers shared by the end-to-end tests: real targets, provisioned into the cache that
//! `.ci/run` fills, and fixtures compiled with the machine's javac.

#![allow(dead_code)]

#[path = "../replay_support.rs"]
pub mod support;

#[allow(unused_imports)]
pub use support::{config, repo};

use difftest::pool::{Pool, PoolConfig};
use difftest::target::{Provisioned, TargetStore};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The targets shipped with difftest, provisioned into the default cache.
pub fn store() -> TargetStore {
    TargetStore::new(Some(repo().join("targets")), None).expect("target store")
}

/// Provisions a shipped target.
pub fn provision(name: &str) -> Provisioned {
    support::provision(name, None)
}

/// A pool on a shipped target, with extra classpath entries.
pub fn pool(name: &str, classpath: &[PathBuf], config: PoolConfig) -> Pool {
    let mut jvm = provision(name).jvm;
    jvm.classpath.extend(classpath.iter().cloned());
    Pool::start(name, jvm, config).expect("pool starts")
}

/// Compiles the Java sources under `tests/fixtures/<dir>` into a fresh folder.
pub fn compile_fixtures(dir: &str) -> tempfile::TempDir {
    let out = tempfile::tempdir().expect("temp dir");
    let sources: Vec<PathBuf> = walk(&repo().join("tests/fixtures").join(dir));
    let status = Command::new(javac())
        .args(["--release", "11", "-d"])
        .arg(out.path())
        .args(&sources)
        .status()
        .expect("javac runs");
    assert!(status.success(), "fixtures in {dir} compile");
    out
}

fn javac() -> PathBuf {
    match std::env::var_os("JAVA_HOME") {
        Some(home) if Path::new(&home).join("bin/javac").exists() => {
            Path::new(&home).join("bin/javac")
        }
        _ => PathBuf::from("javac"),
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("fixture dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "java") {
            files.push(path);
        }
    }
    files.sort();
    files
}
