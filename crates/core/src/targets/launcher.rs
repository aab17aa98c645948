//! The target's own `java` launcher, run beside the embedded JVM: to measure its
//! fingerprint, read its data versions and start Espresso's host.

use super::spec::DEFAULT_LIBJVM;
use super::tools;
use std::path::Path;
use std::process::Command;

/// `<home>/bin/java`, told to use the VM in `libjvm`'s folder when that is not the default
/// server VM (`-XXaltjvm=<dir>`, which the launcher accepts for a VM inside the same home),
/// with JVM-altering variables cleared.
pub(super) fn java_command(java_home: &Path, libjvm: &Path) -> Command {
    let mut cmd = Command::new(java_home.join("bin/java"));
    for var in tools::JVM_ENV_TO_CLEAR {
        cmd.env_remove(var);
    }
    if libjvm != java_home.join(DEFAULT_LIBJVM)
        && let Some(dir) = libjvm.parent()
    {
        cmd.arg(format!("-XXaltjvm={}", dir.display()));
    }
    cmd
}
