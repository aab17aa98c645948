//! Running the helper programs provisioning needs (pip, apt-get, mvn, java): finding them
//! on PATH, passing their progress through to our stderr while keeping the tail of what they
//! said for error messages, and temporary folders inside the cache.

use super::error::TargetError;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

/// How much of a child's stderr is kept for the error message.
const TAIL_BYTES: usize = 16 * 1024;

/// Variables that would change what a JVM does behind the target's back.
pub(super) const JVM_ENV_TO_CLEAR: &[&str] =
    &["JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"];

/// What a finished child said.
pub(super) struct Output {
    pub status: ExitStatus,
    /// For [`capture`]: stdout then stderr. For [`tee`]: the tail of stderr.
    pub text: String,
}

impl Output {
    /// The last line with something in it (progress-bar carriage returns resolved).
    pub(super) fn last_line(&self) -> String {
        last_line(&self.text).unwrap_or_else(|| status_text(&self.status))
    }
}

/// The full path of `tool` if an executable of that name is on PATH.
pub(super) fn which(tool: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(tool))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// Whether `tool` is on PATH.
pub(super) fn on_path(tool: &str) -> bool {
    which(tool).is_some()
}

/// A fresh folder `tmp/<target>@XXXXXX`, removed when dropped.
pub(super) fn temp_dir_in(tmp: &Path, target: &str) -> Result<tempfile::TempDir, TargetError> {
    std::fs::create_dir_all(tmp).map_err(|e| TargetError::io("cannot create", tmp, e))?;
    tempfile::Builder::new()
        .prefix(&super::cache::CacheLayout::tmp_prefix(target))
        .tempdir_in(tmp)
        .map_err(|e| TargetError::io("cannot create a temporary folder in", tmp, e))
}

/// Runs `cmd` to completion, capturing stdout and stderr.
pub(super) fn capture(cmd: &mut Command) -> std::io::Result<Output> {
    let out = cmd.stdin(Stdio::null()).output()?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok(Output {
        status: out.status,
        text,
    })
}

/// Runs `cmd`; when `echo`, its stdout and stderr go to our stderr as they come (so a person
/// sees progress, and our stdout stays clean for machine-readable output). Keeps stderr's tail.
pub(super) fn tee(cmd: &mut Command, echo: bool) -> std::io::Result<Output> {
    let stdout = if echo {
        Stdio::from(std::io::stderr())
    } else {
        Stdio::null()
    };
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()?;
    let mut tail: Vec<u8> = Vec::new();
    if let Some(mut err) = child.stderr.take() {
        let mut buf = [0u8; 4096];
        loop {
            let n = match err.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if echo {
                let _ = std::io::stderr().write_all(&buf[..n]);
            }
            tail.extend_from_slice(&buf[..n]);
            if tail.len() > 2 * TAIL_BYTES {
                tail.drain(..tail.len() - TAIL_BYTES);
            }
        }
    }
    let status = child.wait()?;
    Ok(Output {
        status,
        text: String::from_utf8_lossy(&tail).into_owned(),
    })
}

/// The last non-blank line of `text`, after carriage-return overwrites and colour codes.
pub(super) fn last_line(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .filter_map(|l| l.rsplit('\r').map(str::trim).find(|s| !s.is_empty()))
        .map(strip_ansi)
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
}

/// `text` without ANSI escape sequences (`ESC [ … letter`).
pub(super) fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        if chars.next() == Some('[') {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        }
    }
    out
}

/// "exit code 1" or "killed by signal 9".
pub(super) fn status_text(status: &ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => "failed".to_string(),
    }
}

/// `program arg arg …` for messages.
pub(super) fn command_line(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_line_skips_blanks_progress_and_colour() {
        let text = "Collecting x\n 10%\r 50%\r100%\n\u{1b}[31mERROR: No matching distribution\u{1b}[0m\n\n";
        assert_eq!(
            last_line(text).as_deref(),
            Some("ERROR: No matching distribution")
        );
        assert_eq!(last_line("\n \n"), None);
    }

    #[test]
    fn tee_keeps_stderr_tail_and_status() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo first >&2; echo last >&2; exit 3"]);
        let out = tee(&mut cmd, false).unwrap();
        assert_eq!(out.status.code(), Some(3));
        assert_eq!(out.last_line(), "last");
        assert!(!out.text.contains("out"));
    }

    #[test]
    fn which_finds_sh_and_not_nonsense() {
        assert!(on_path("sh"));
        assert!(!on_path("difftest-no-such-tool-xyz"));
    }
}
