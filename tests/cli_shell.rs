//! The shell-facing conventions: completion scripts, man pages, `--color` and `NO_COLOR`.
//! No JVM: these only read the command-line definitions.

use std::process::{Command, Output};

fn difftest(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.args(args).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("difftest runs")
}

#[test]
fn completions_for_each_shell_name_the_subcommands() {
    for (shell, needle) in [
        ("bash", "complete -F _difftest"),
        ("zsh", "#compdef difftest"),
        ("fish", "complete -c difftest"),
    ] {
        let out = difftest(&["completions", shell], &[]);
        assert!(out.status.success());
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(needle), "{shell}");
        for sub in ["record", "replay", "explain", "targets"] {
            assert!(script.contains(sub), "{shell}: {sub}");
        }
    }
    let out = difftest(&["completions", "tcsh"], &[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn completion_offers_the_target_names_for_impl() {
    for shell in ["bash", "zsh", "fish"] {
        let out = difftest(&["completions", shell], &[]);
        assert!(out.status.success());
        let script = String::from_utf8(out.stdout).unwrap();
        for name in ["temurin17", "openjdk17-zero", "temurin25-xcomp"] {
            assert!(script.contains(name), "{shell}: {name}");
        }
    }
}

#[test]
fn man_pages_have_exit_status_and_examples() {
    let out = difftest(&["man"], &[]);
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".SH \"EXIT STATUS\""), "{page}");
    assert!(page.contains(".SH EXAMPLES"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    let out = difftest(&["man", "--out", dir.path().to_str().unwrap()], &[]);
    assert!(out.status.success());
    let replay = std::fs::read_to_string(dir.path().join("difftest-replay.1")).unwrap();
    assert!(replay.contains(".SH \"EXIT STATUS\"") && replay.contains(".SH EXAMPLES"));
    assert!(
        replay.contains("difftest replay \\-\\-impl temurin21"),
        "{replay}"
    );
}

#[test]
fn man_pages_are_roff_one_per_command() {
    let out = difftest(&["man"], &[]);
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH difftest 1") && page.contains("\\-\\-color"));
    let dir = tempfile::tempdir().unwrap();
    let out = difftest(&["man", "--out", dir.path().to_str().unwrap()], &[]);
    assert!(out.status.success());
    let new = std::fs::read_to_string(dir.path().join("difftest-targets-new.1")).unwrap();
    assert!(
        new.contains("\\-\\-jvm\\-option") || new.contains("--jvm-option"),
        "{new}"
    );
    assert!(
        !dir.path().join("difftest-__worker.1").exists(),
        "hidden stays hidden"
    );
}

#[test]
fn color_is_on_only_when_asked_or_on_a_terminal_without_no_color() {
    // A merge of no parts is bad input before any colour; the gate line needs a report,
    // so this checks the flag's parsing and that NO_COLOR never breaks a command.
    let out = difftest(
        &["--color", "always", "targets", "list"],
        &[("NO_COLOR", "1")],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = difftest(&["--color", "rainbow", "targets", "list"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'--color <WHEN>'"));
}
