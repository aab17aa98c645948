//! JDKs from Debian packages: `apt-get install` the package when its libjvm is absent,
//! running `apt-get update` once if the first attempt fails (stale package lists).

use super::error::TargetError;
use super::tools;
use std::process::Command;

/// Installs `package` with apt-get. Needs root; otherwise says which command to run.
pub(super) fn install(target: &str, package: &str, echo: bool) -> Result<(), TargetError> {
    if !tools::on_path("apt-get") {
        return Err(TargetError::ToolMissing {
            target: target.to_string(),
            tool: "apt-get",
            purpose: "install Debian JDK packages",
        });
    }
    if !is_root() {
        return Err(TargetError::NotRoot {
            target: target.to_string(),
            package: package.to_string(),
        });
    }
    if echo {
        eprintln!("provisioning {target}: installing Debian package {package} with apt-get");
    }
    let first = apt_get(&["install", "-y", "--no-install-recommends", package], echo)?;
    if first.status.success() {
        return Ok(());
    }
    if echo {
        eprintln!(
            "provisioning {target}: apt-get install failed ({}); running apt-get update once and retrying",
            first.last_line()
        );
    }
    let update = apt_get(&["update"], echo)?;
    if !update.status.success() {
        return Err(failed(target, "apt-get update", &update));
    }
    let second = apt_get(&["install", "-y", "--no-install-recommends", package], echo)?;
    if second.status.success() {
        return Ok(());
    }
    let cmd = format!("apt-get install -y --no-install-recommends {package}");
    Err(failed(target, &cmd, &second))
}

fn apt_get(args: &[&str], echo: bool) -> Result<tools::Output, TargetError> {
    let mut cmd = Command::new("apt-get");
    cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    tools::tee(&mut cmd, echo).map_err(|e| TargetError::io("cannot run", "apt-get", e))
}

fn failed(target: &str, command: &str, out: &tools::Output) -> TargetError {
    TargetError::CommandFailed {
        target: target.to_string(),
        command: command.to_string(),
        status: tools::status_text(&out.status),
        last_line: out.last_line(),
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}
