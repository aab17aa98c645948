//! Data versions: the Unicode and time-zone data versions a JDK reports, read once when it
//! is fingerprinted by running the agent's `difftest.DataVersions` program (which prints
//! `unicode=15.0` and `tzdata=2024a` lines) on the target's own `bin/java`. The labelling
//! rules use them to tell a data-version change (`Unicode data 13.0 → 15.0`) from a
//! difference between two runtimes with the same data.

use super::launcher::java_command;
use super::tools;
use std::collections::BTreeMap;
use std::path::Path;

/// The program's class.
const PROGRAM: &str = "difftest.DataVersions";

/// The versions `java_home`'s Java on `libjvm` reports; empty when it cannot say (a JVM
/// that cannot run the program is reported by the rest of provisioning, not here).
pub(crate) fn read(java_home: &Path, libjvm: &Path) -> BTreeMap<String, String> {
    let Ok(dir) = tempfile::tempdir() else {
        return BTreeMap::new();
    };
    if crate::agent::install(dir.path()).is_err() {
        return BTreeMap::new();
    }
    let mut cmd = java_command(java_home, libjvm);
    cmd.arg("-cp").arg(dir.path()).arg(PROGRAM);
    match tools::capture(&mut cmd) {
        Ok(out) if out.status.success() => parse(&out.text),
        _ => BTreeMap::new(),
    }
}

/// `name=value` lines whose name and value are short and plain; anything else is ignored.
pub(crate) fn parse(text: &str) -> BTreeMap<String, String> {
    let plain = |s: &str| {
        !s.is_empty()
            && s.len() <= 32
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    };
    text.lines()
        .filter_map(|line| line.trim().split_once('='))
        .filter(|(k, v)| plain(k) && plain(v))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_name_value_lines_count() {
        let got = parse("unicode=15.0\ntzdata=2024a\nWarning: something = else\n=x\n");
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got["unicode"], "15.0");
        assert_eq!(got["tzdata"], "2024a");
    }
}
