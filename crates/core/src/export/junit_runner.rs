//! Compiling and running exported tests, for difftest's own tests and `difftest bench
//! export`: the JUnit jars (fetched once from Maven Central into the cache with the target
//! module's Maven helper), a javac that supports the suite's `--release`, and a JUnit run
//! on a target's `bin/java` with the worker's locale, time zone and encoding, reporting the
//! tests that failed.

use super::{JAVA_PROPERTIES, Junit};
use crate::targets::TargetError;
use crate::targets::cache::CacheLayout;
use crate::targets::closure::{self, Places};
use crate::targets::maven::MavenCoordinate;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// JUnit 4.13.2 and the Hamcrest it needs.
pub(crate) const JUNIT4: [&str; 2] = ["junit:junit:4.13.2", "org.hamcrest:hamcrest-core:1.3"];
/// The JUnit Platform console launcher with Jupiter (JUnit 5.10.2).
pub(crate) const JUNIT5: [&str; 1] =
    ["org.junit.platform:junit-platform-console-standalone:1.10.2"];

/// Why compiling or running failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// JUnit's jars could not be fetched.
    #[error(transparent)]
    Fetch(#[from] TargetError),
    /// A tool could not be started.
    #[error("cannot run {tool}: {source}")]
    Spawn {
        /// The tool.
        tool: String,
        /// The error.
        source: std::io::Error,
    },
    /// No javac of the needed release was found.
    #[error("no javac supports --release {0} (set JAVA_HOME to a JDK {0} or newer)")]
    NoJavac(u32),
    /// javac failed.
    #[error("javac failed: {0}")]
    Javac(String),
    /// JUnit could not run.
    #[error("JUnit did not report its results: {0}")]
    Junit(String),
}

/// What a JUnit run gave.
#[derive(Clone, Debug, Default)]
pub struct JunitRun {
    /// Tests run.
    pub tests: usize,
    /// `Class.method` of every test that failed (fully qualified class).
    pub failed: BTreeSet<String>,
    /// How long compiling and running took.
    pub elapsed: Duration,
    /// What JUnit printed.
    pub output: String,
}

/// The jars a JUnit flavour needs (their runtime closure), resolved into the cache if missing.
pub fn junit_jars(cache_root: &Path, junit: Junit, echo: bool) -> Result<Vec<PathBuf>, RunError> {
    let cache = CacheLayout::new(cache_root.to_path_buf());
    let coordinates: &[&str] = match junit {
        Junit::Four => &JUNIT4,
        Junit::Five => &JUNIT5,
    };
    let coords = coordinates
        .iter()
        .map(|c| MavenCoordinate::parse(c).map_err(RunError::Junit))
        .collect::<Result<Vec<_>, _>>()?;
    let (maven_root, closures, tmp) = (cache.maven(), cache.closures(), cache.tmp());
    let places = Places {
        maven_root: &maven_root,
        closures: &closures,
        tmp: &tmp,
    };
    let closure = closure::resolve("junit", &coords, &places, echo)?;
    Ok(closure.into_iter().map(|a| a.path).collect())
}

/// The feature release a `javac` compiles for at most (`javac 17.0.9` → 17).
fn javac_release(javac: &Path) -> Option<u32> {
    let out = Command::new(javac).arg("-version").output().ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let version = text.split_whitespace().nth(1)?;
    super::java::major_release(version)
}

/// A javac that supports `--release release`: `$JAVA_HOME`'s, the one on PATH, then any
/// under `/usr/lib/jvm`, the oldest that is new enough.
pub fn find_javac(release: u32) -> Result<PathBuf, RunError> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(home) = std::env::var_os("JAVA_HOME") {
        candidates.push(Path::new(&home).join("bin/javac"));
    }
    candidates.push(PathBuf::from("javac"));
    if let Ok(dirs) = std::fs::read_dir("/usr/lib/jvm") {
        let mut found: Vec<PathBuf> = dirs.flatten().map(|d| d.path().join("bin/javac")).collect();
        found.sort();
        candidates.extend(found);
    }
    let mut best: Option<(u32, PathBuf)> = None;
    for c in candidates {
        match javac_release(&c) {
            Some(r) if r >= release && best.as_ref().is_none_or(|(b, _)| r < *b) => {
                best = Some((r, c));
            }
            _ => {}
        }
    }
    best.map(|(_, p)| p).ok_or(RunError::NoJavac(release))
}

fn join(classpath: &[PathBuf]) -> String {
    let parts: Vec<String> = classpath.iter().map(|p| p.display().to_string()).collect();
    parts.join(":")
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            java_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
}

/// Compiles every `.java` file under `sources` into `classes`; returns how long it took.
pub fn javac(
    javac: &Path,
    release: u32,
    classpath: &[PathBuf],
    sources: &Path,
    classes: &Path,
) -> Result<Duration, RunError> {
    let mut files = Vec::new();
    java_files(sources, &mut files);
    files.sort();
    let list: Vec<String> = files
        .iter()
        .map(|f| format!("\"{}\"", f.display()))
        .collect();
    let argfile = classes.join("difftest-sources.txt");
    let spawn = |source| RunError::Spawn {
        tool: javac.display().to_string(),
        source,
    };
    std::fs::create_dir_all(classes).map_err(spawn)?;
    crate::atomic::write(&argfile, list.join("\n")).map_err(spawn)?;
    let began = Instant::now();
    let out = Command::new(javac)
        .args([
            "--release",
            &release.to_string(),
            "-nowarn",
            "-encoding",
            "UTF-8",
        ])
        .arg("-cp")
        .arg(join(classpath))
        .arg("-d")
        .arg(classes)
        .arg(format!("@{}", argfile.display()))
        .output()
        .map_err(spawn)?;
    let elapsed = began.elapsed();
    let _ = std::fs::remove_file(&argfile);
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stderr);
        let head: Vec<&str> = text.lines().take(20).collect();
        return Err(RunError::Javac(head.join("\n")));
    }
    Ok(elapsed)
}

/// Runs `classes` with JUnit on `java`; `classpath` holds the compiled tests, the JUnit
/// jars and the target's own classpath.
pub fn junit(
    java: &Path,
    junit: Junit,
    classpath: &[PathBuf],
    classes: &[String],
) -> Result<JunitRun, RunError> {
    let spawn = |source| RunError::Spawn {
        tool: java.display().to_string(),
        source,
    };
    let reports = tempfile::tempdir().map_err(spawn)?;
    let mut cmd = junit_command(java, junit, classpath, classes, reports.path());
    let began = Instant::now();
    let out = cmd.output().map_err(spawn)?;
    let elapsed = began.elapsed();
    let output =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let (tests, failed) = match junit {
        Junit::Four => parse_junit4(&output),
        Junit::Five => parse_junit5_reports(reports.path()),
    }
    .ok_or_else(|| RunError::Junit(output.lines().take(20).collect::<Vec<_>>().join("\n")))?;
    Ok(JunitRun {
        tests,
        failed,
        elapsed,
        output,
    })
}

/// `java … JUnitCore classes…` or `java -jar console-standalone.jar execute …`, with the
/// worker's properties and environment.
fn junit_command(
    java: &Path,
    junit: Junit,
    classpath: &[PathBuf],
    classes: &[String],
    reports: &Path,
) -> Command {
    let mut cmd = Command::new(java);
    cmd.args(JAVA_PROPERTIES)
        .arg("-Djava.awt.headless=true")
        .envs([("TZ", "UTC"), ("LANG", "C.UTF-8"), ("LC_ALL", "C.UTF-8")]);
    for v in ["JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"] {
        cmd.env_remove(v);
    }
    match junit {
        Junit::Four => {
            cmd.arg("-cp").arg(join(classpath));
            cmd.arg("org.junit.runner.JUnitCore").args(classes);
        }
        Junit::Five => {
            let (jars, rest): (Vec<PathBuf>, Vec<PathBuf>) = classpath
                .iter()
                .cloned()
                .partition(|p| p.to_string_lossy().contains("console-standalone"));
            cmd.arg("-jar").arg(join(&jars)).arg("execute");
            cmd.arg("--class-path").arg(join(&rest));
            cmd.args(["--disable-banner", "--details=none", "--reports-dir"]);
            cmd.arg(reports);
            for c in classes {
                cmd.arg("--select-class").arg(c);
            }
        }
    }
    cmd
}

/// JUnitCore's `N) method(Class)` failure headers and its `OK (N tests)` or
/// `Tests run: N,  Failures: F` summary.
pub(crate) fn parse_junit4(output: &str) -> Option<(usize, BTreeSet<String>)> {
    let mut failed = BTreeSet::new();
    let mut tests = None;
    for line in output.lines() {
        if let Some(n) = line.strip_prefix("OK (").and_then(|r| r.split(' ').next()) {
            tests = n.parse().ok();
        }
        if let Some(n) = line
            .strip_prefix("Tests run: ")
            .and_then(|r| r.split(',').next())
        {
            tests = n.trim().parse().ok();
        }
        let Some((num, rest)) = line.split_once(") ") else {
            continue;
        };
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Some((method, class)) = rest.strip_suffix(')').and_then(|r| r.split_once('(')) {
            failed.insert(format!("{class}.{method}"));
        }
    }
    Some((tests?, failed))
}

/// The legacy XML reports of the console launcher: one `<testcase>` per test, with a
/// `<failure>` or `<error>` inside when it failed.
pub(crate) fn parse_junit5_reports(dir: &Path) -> Option<(usize, BTreeSet<String>)> {
    let mut text = String::new();
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        if e.path().extension().is_some_and(|x| x == "xml") {
            text.push_str(&std::fs::read_to_string(e.path()).ok()?);
        }
    }
    if text.is_empty() {
        return None;
    }
    let attr = |tag: &str, name: &str| -> Option<String> {
        let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        let len = tag[start..].find('"')?;
        Some(tag[start..start + len].to_string())
    };
    let mut tests = 0;
    let mut failed = BTreeSet::new();
    for case in text.split("<testcase").skip(1) {
        tests += 1;
        let open_end = case.find('>').unwrap_or(case.len());
        let tag = &case[..open_end];
        let body = case.split("</testcase>").next().unwrap_or("");
        let self_closing = tag.ends_with('/');
        if !self_closing && (body.contains("<failure") || body.contains("<error")) {
            let name = attr(tag, "name")?;
            let method = name.strip_suffix("()").unwrap_or(&name);
            failed.insert(format!("{}.{method}", attr(tag, "classname")?));
        }
    }
    Some((tests, failed))
}
