//! `TargetError`: every way loading, validating or provisioning a target can fail, each with
//! a one-line message that names the file, target, path or command involved.

use std::path::PathBuf;
use thiserror::Error;

/// An error from the `target` module. Every message is a single line meant for a person.
#[derive(Debug, Error)]
pub enum TargetError {
    /// An explicitly given targets directory does not exist.
    #[error("targets directory {0} does not exist")]
    TargetsDirMissing(PathBuf),

    /// No cache directory could be derived (no `DIFFTEST_CACHE`, `XDG_CACHE_HOME` or `HOME`).
    #[error(
        "cannot choose a cache directory: set DIFFTEST_CACHE, XDG_CACHE_HOME or HOME, or pass --cache-dir"
    )]
    NoCacheDir,

    /// A file-system operation failed.
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// No `NAME.yaml` exists in the folders searched.
    #[error("unknown target '{name}'{suggestion} in {dir}; known targets: {known}")]
    UnknownTarget {
        name: String,
        /// The folders searched, joined by "and".
        dir: String,
        /// ` (did you mean 'NAME'?)` for a near miss, else empty.
        suggestion: String,
        known: String,
    },

    /// A target name that cannot be a file stem (path separators, leading dot, …).
    #[error("invalid target name '{name}': {reason}")]
    InvalidName { name: String, reason: String },

    /// The YAML could not be parsed or has an unknown key; `location` is `file:line:column`.
    #[error("{location}: {message}")]
    Parse { location: String, message: String },

    /// The file parsed but says something impossible; `location` is `file` or `file:line:column`.
    #[error("{location}: {message}")]
    Invalid { location: String, message: String },

    /// A program difftest needs to provision a target is not installed.
    #[error("target '{target}' needs `{tool}` to {purpose}, but it is not on PATH")]
    ToolMissing {
        target: String,
        tool: &'static str,
        purpose: &'static str,
    },

    /// `pip download` failed; `last_line` is pip's last line on stderr.
    #[error("target '{target}': pip could not download {requirement}: {last_line}{hint}")]
    Pip {
        target: String,
        requirement: String,
        last_line: String,
        hint: &'static str,
    },

    /// The unpacked wheel has no `bin/` at the JDK home the target names.
    #[error("target '{target}': the wheel {wheel} has no JDK at {home} (set `home:` under `jdk:`)")]
    WheelLayout {
        target: String,
        wheel: String,
        home: PathBuf,
    },

    /// A provisioning step ran a command and it failed.
    #[error("target '{target}': `{command}` failed ({status}): {last_line}")]
    CommandFailed {
        target: String,
        command: String,
        status: String,
        last_line: String,
    },

    /// An apt package must be installed and we are not root.
    #[error(
        "target '{target}' needs the Debian package {package}, which is not installed; run as root: `apt-get install -y --no-install-recommends {package}` (then retry)"
    )]
    NotRoot { target: String, package: String },

    /// The JVM shared library the target names does not exist.
    #[error("target '{target}': no JVM library at {path}")]
    LibjvmMissing { target: String, path: PathBuf },

    /// `system: true` but neither `$JAVA_HOME` nor `java` on PATH gives a JDK.
    #[error("target '{target}': no system JDK: JAVA_HOME is unset and no `java` is on PATH")]
    NoSystemJava { target: String },

    /// `bin/java` did not run, or its output could not be read as a fingerprint.
    #[error("target '{target}': {java} does not work: {detail}")]
    JavaBroken {
        target: String,
        java: PathBuf,
        detail: String,
    },

    /// Maven could not fetch a classpath artifact.
    #[error("target '{target}': cannot fetch {coordinate} with mvn: {detail}")]
    Maven {
        target: String,
        coordinate: String,
        detail: String,
    },

    /// A `path:` classpath entry does not exist.
    #[error("target '{target}': classpath entry {path} does not exist")]
    ClasspathMissing { target: String, path: PathBuf },
}

impl TargetError {
    /// True when the user can fix it by changing what they gave (a flag, a name, a target
    /// file: exit code 2); false for failures of the machine or the network (exit code 3).
    pub fn is_bad_input(&self) -> bool {
        use TargetError::*;
        matches!(
            self,
            TargetsDirMissing(_)
                | UnknownTarget { .. }
                | InvalidName { .. }
                | Parse { .. }
                | Invalid { .. }
                | WheelLayout { .. }
                | ClasspathMissing { .. }
                | LibjvmMissing { .. }
                | NoSystemJava { .. }
        )
    }

    /// Wraps an `io::Error` with what was being done and to which path.
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        TargetError::Io {
            action,
            path: path.into(),
            source,
        }
    }
}
