//! The JaCoCo jars `record --coverage` uses: the agent (`org.jacoco.agent`, classifier
//! `runtime`) that workers load with `-javaagent:` and the command line (`org.jacoco.cli`,
//! classifier `nodeps`) that turns execution data into a report. Fetched through Maven
//! into the cache like any closure (offline after the first run) and checked to be whole
//! jars holding their entry classes before use, so a missing or damaged jar is one clear
//! error instead of a worker that cannot start.

use super::cache::CacheLayout;
use super::closure::{self, Artifact};
use super::error::TargetError;
use super::maven::MavenCoordinate;
use std::path::{Path, PathBuf};

/// The JaCoCo release used: the first to read class files of Java 25.
pub(crate) const JACOCO_VERSION: &str = "0.8.14";

/// The two jars, in the cache.
#[derive(Clone, Debug)]
pub(crate) struct JacocoJars {
    pub agent: PathBuf,
    pub cli: PathBuf,
}

/// The agent and command-line jars: from the cache, else resolved with mvn; each checked.
pub(crate) fn jacoco_jars(cache_root: &Path, echo: bool) -> Result<JacocoJars, TargetError> {
    let layout = CacheLayout::new(cache_root.to_path_buf());
    let (maven_root, closures, tmp) = (layout.maven(), layout.closures(), layout.tmp());
    let places = closure::Places {
        maven_root: &maven_root,
        closures: &closures,
        tmp: &tmp,
    };
    let agent = fetch("agent", "runtime", &places, echo)?;
    let cli = fetch("cli", "nodeps", &places, echo)?;
    check_jar(&agent, "org/jacoco/agent/rt/RT.class")?;
    check_jar(&cli, "org/jacoco/cli/internal/Main.class")?;
    Ok(JacocoJars { agent, cli })
}

/// The jar of `org.jacoco.<name>` with `classifier`, out of its resolved closure.
fn fetch(
    name: &str,
    classifier: &str,
    places: &closure::Places,
    echo: bool,
) -> Result<PathBuf, TargetError> {
    let text = format!("org.jacoco:org.jacoco.{name}:{JACOCO_VERSION}:jar:{classifier}");
    let coord = MavenCoordinate::parse(&text).map_err(|detail| maven_error(&text, detail))?;
    let artifacts = closure::resolve("coverage", &[coord], places, echo)?;
    let wanted = |a: &&Artifact| a.coordinate == text;
    artifacts
        .iter()
        .find(wanted)
        .map(|a| a.path.clone())
        .ok_or_else(|| maven_error(&text, "mvn did not list it".to_string()))
}

fn maven_error(coordinate: &str, detail: String) -> TargetError {
    TargetError::Maven {
        target: "coverage".to_string(),
        coordinate: coordinate.to_string(),
        detail,
    }
}

/// A jar is a zip: a local header first, the end-of-central-directory record in its last
/// 64 KiB, and `entry` named in the central directory.
fn check_jar(jar: &Path, entry: &str) -> Result<(), TargetError> {
    let bytes = std::fs::read(jar).map_err(|e| TargetError::io("cannot read", jar, e))?;
    let tail = &bytes[bytes.len().saturating_sub(65_557)..];
    let whole = bytes.starts_with(b"PK\x03\x04")
        && tail.windows(4).any(|w| w == b"PK\x05\x06")
        && bytes.windows(entry.len()).any(|w| w == entry.as_bytes());
    match whole {
        true => Ok(()),
        false => Err(TargetError::io(
            "damaged JaCoCo jar (delete it to fetch it again)",
            jar,
            std::io::Error::new(std::io::ErrorKind::InvalidData, format!("no {entry}")),
        )),
    }
}

/// Runs `<java_home>/bin/java ARGS` (the JVM variables that would change it cleared) in
/// `dir`; its stdout and stderr on success, else their last line as the error.
pub(crate) fn run_java(
    java_home: &Path,
    args: &[std::ffi::OsString],
    dir: &Path,
) -> Result<String, String> {
    let java = java_home.join("bin").join("java");
    let mut cmd = std::process::Command::new(&java);
    cmd.args(args).current_dir(dir);
    for var in super::tools::JVM_ENV_TO_CLEAR {
        cmd.env_remove(var);
    }
    let out = super::tools::capture(&mut cmd)
        .map_err(|e| format!("cannot run {}: {e}", java.display()))?;
    match out.status.success() {
        true => Ok(out.text),
        false => Err(out.last_line()),
    }
}

#[cfg(test)]
mod tests {
    use super::check_jar;

    #[test]
    fn a_truncated_or_foreign_file_is_not_a_jar() {
        let dir = tempfile::tempdir().unwrap();
        let jar = dir.path().join("x.jar");
        std::fs::write(&jar, b"PK\x03\x04 a/B.class PK\x05\x06 tail").unwrap();
        assert!(check_jar(&jar, "a/B.class").is_ok());
        assert!(check_jar(&jar, "a/C.class").is_err());
        std::fs::write(&jar, b"PK\x03\x04 a/B.class").unwrap();
        assert!(check_jar(&jar, "a/B.class").is_err());
        std::fs::write(&jar, b"not a jar").unwrap();
        assert!(check_jar(&jar, "a/B.class").is_err());
    }
}
