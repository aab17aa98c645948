//! The one support module of the end-to-end tests, included by each as `mod common;`:
//! real targets, provisioned into the cache that `.ci/run` fills, fixtures compiled with
//! the machine's javac ([`javac`] honours `JAVA_HOME`), the `difftest` binary and suites
//! ([`support`]), and a hand-built report ([`report`]).

#![allow(dead_code)]

pub mod report;
pub mod support;

#[allow(unused_imports)]
pub use support::{config, repo};

use difftest::pool::{Pool, PoolConfig};
use difftest::targets::{Provisioned, TargetStore};
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

/// The Debian JDK 17 the test targets that need a JDK on a path (not a wheel) run on.
pub const JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

/// `javac`: `$JAVA_HOME/bin/javac` when there is one, else the one on `PATH`.
pub fn javac() -> PathBuf {
    jdk_tool("javac")
}

/// A JDK tool (`javac`, `jar`): `$JAVA_HOME/bin/NAME` when there is one, else NAME on `PATH`.
pub fn jdk_tool(name: &str) -> PathBuf {
    match std::env::var_os("JAVA_HOME") {
        Some(home) if Path::new(&home).join("bin").join(name).exists() => {
            Path::new(&home).join("bin").join(name)
        }
        _ => PathBuf::from(name),
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
