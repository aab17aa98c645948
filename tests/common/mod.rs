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

/// The home of a JDK 17 with a server VM, for the test targets that need a JDK on a path
/// (not a wheel): found the way [`javac`] is — `$JAVA_HOME`, else the JDK of the `javac` on
/// `PATH` — when that is a 17, else the JDK the shipped `openjdk17` target names (Debian's,
/// which `.ci/run` installs). Panics naming where it looked when there is none.
pub fn jdk17() -> PathBuf {
    let from_env = std::env::var_os("JAVA_HOME").map(PathBuf::from);
    let from_path = which("javac")
        .and_then(|javac| std::fs::canonicalize(javac).ok())
        .and_then(|javac| Some(javac.parent()?.parent()?.to_path_buf()));
    let candidates: Vec<PathBuf> = [from_env, from_path, shipped_openjdk17()]
        .into_iter()
        .flatten()
        .collect();
    candidates
        .iter()
        .find(|home| is_jdk(home, "17"))
        .cloned()
        .unwrap_or_else(|| {
            panic!("no JDK 17 with a server VM at {candidates:?}: set JAVA_HOME to one")
        })
}

/// The Debian JDK 17 the shipped `openjdk17` target names, for the tests of that target;
/// none, after saying the test is skipped, when it is not installed.
pub fn debian_jdk17() -> Option<PathBuf> {
    let home = shipped_openjdk17().expect("targets/openjdk17.yaml names a path");
    if is_jdk(&home, "17") {
        return Some(home);
    }
    eprintln!(
        "skipped: the openjdk17 target's JDK (Debian's openjdk-17-jdk-headless) is not installed at {}",
        home.display()
    );
    None
}

/// The JDK home the shipped `openjdk17` target names.
fn shipped_openjdk17() -> Option<PathBuf> {
    match store().load("openjdk17").ok()?.jdk {
        difftest::targets::spec::JdkSource::Path { home } => Some(home),
        _ => None,
    }
}

/// Whether `home` is a JDK of feature release `version` with a server VM, by its `release`.
fn is_jdk(home: &Path, version: &str) -> bool {
    let release = std::fs::read_to_string(home.join("release")).unwrap_or_default();
    let wanted = format!("JAVA_VERSION=\"{version}");
    let feature = release.lines().any(|l| {
        l.strip_prefix(&wanted)
            .is_some_and(|rest| rest.starts_with(['.', '"']))
    });
    feature && home.join("lib/server/libjvm.so").is_file()
}

/// The first `name` on `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The text of a target file `name` on [`jdk17`] with `classpath` (a folder or jar).
pub fn jdk17_target(name: &str, description: &str, classpath: &Path) -> String {
    format!(
        "name: {name}\ndescription: {description}\njdk:\n  path: {}\nclasspath:\n  - path: {}\n",
        jdk17().display(),
        classpath.display()
    )
}

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
