//! Colour on stdout (`--color auto|always|never`): `auto` colours only a terminal, and the
//! `NO_COLOR` convention (<https://no-color.org>: set and not empty) turns `auto` off. Only
//! a few words are coloured (the gate's verdict), so output stays readable in logs.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

static ON: AtomicBool = AtomicBool::new(false);

/// The `--color` choice.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Choice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Whether to colour, given the choice, `NO_COLOR` and whether stdout is a terminal.
pub fn decide(choice: Choice, no_color: Option<&std::ffi::OsStr>, terminal: bool) -> bool {
    match choice {
        Choice::Always => true,
        Choice::Never => false,
        Choice::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
    }
}

/// Sets colour for this process from the flag, the environment and stdout.
pub fn set(choice: Choice) {
    let no_color = std::env::var_os("NO_COLOR");
    let on = decide(choice, no_color.as_deref(), std::io::stdout().is_terminal());
    ON.store(on, Ordering::Relaxed);
}

/// Whether stdout is coloured.
pub fn enabled() -> bool {
    ON.load(Ordering::Relaxed)
}

/// `gate: FAIL` in bold red and `gate: PASS` in green, when colour is on.
pub fn gate(line: &str) -> String {
    if !enabled() {
        return line.to_string();
    }
    line.replace("gate: FAIL", "gate: \x1b[1;31mFAIL\x1b[0m")
        .replace("gate: PASS", "gate: \x1b[32mPASS\x1b[0m")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn no_color_turns_auto_off_but_not_always() {
        assert!(decide(Choice::Auto, None, true));
        assert!(!decide(Choice::Auto, None, false));
        assert!(!decide(Choice::Auto, Some(OsStr::new("1")), true));
        assert!(decide(Choice::Auto, Some(OsStr::new("")), true));
        assert!(decide(Choice::Always, Some(OsStr::new("1")), false));
        assert!(!decide(Choice::Never, None, true));
    }
}
