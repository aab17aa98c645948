//! `difftest completions SHELL` and `difftest man [--out DIR]`: made from the clap
//! definitions with clap_complete and clap_mangen, so they never drift from the flags.
//! Completion offers the target names found when the script is made (`targets/*.yaml`)
//! for `--impl`, `--jdk` and `targets install|check`; the man pages add EXIT STATUS and
//! EXAMPLES sections.

use crate::cli::{Cli, GlobalArgs};
use crate::exit::Exit;
use crate::targets::TargetStore;
use clap::CommandFactory;
use clap::builder::PossibleValuesParser;
use std::path::Path;

pub fn completions(global: &GlobalArgs, shell: clap_complete::Shell) -> anyhow::Result<Exit> {
    let names = TargetStore::new(global.targets_dir.clone(), global.cache_dir.clone())
        .and_then(|store| store.names())
        .unwrap_or_default();
    let mut cmd = offer_targets(Cli::command(), &names);
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "difftest", &mut script);
    print(&script)
}

/// `cmd` with `names` as the values of every argument that takes a target.
fn offer_targets(cmd: clap::Command, names: &[String]) -> clap::Command {
    if names.is_empty() {
        return cmd;
    }
    let names_targets = matches!(cmd.get_name(), "install" | "check");
    let takes_target = |a: &clap::Arg| {
        matches!(a.get_long(), Some("impl" | "jdk")) || (names_targets && a.is_positional())
    };
    let ids: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| takes_target(a))
        .map(|a| a.get_id().clone())
        .collect();
    let mut cmd = cmd;
    for id in ids {
        cmd = cmd.mut_arg(id, |a| {
            a.value_parser(PossibleValuesParser::new(names.to_vec()))
        });
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for sub in subs {
        cmd = cmd.mut_subcommand(sub, |s| offer_targets(s, names));
    }
    cmd
}

/// Writes to stdout; a reader that stops early (`| head`) is not an error.
fn print(bytes: &[u8]) -> anyhow::Result<Exit> {
    crate::out::bytes(bytes);
    Ok(Exit::Success)
}

pub fn man(out: Option<&Path>) -> anyhow::Result<Exit> {
    let cmd = Cli::command();
    let Some(dir) = out else {
        return print(&page_of(cmd, "difftest")?);
    };
    std::fs::create_dir_all(dir)?;
    let written = write_pages(dir, cmd, "difftest")?;
    eprintln!("difftest: wrote {written} man pages into {}", dir.display());
    Ok(Exit::Success)
}

/// `DIR/NAME.1` for `cmd` and each visible subcommand (`difftest-targets-new.1`).
fn write_pages(dir: &Path, cmd: clap::Command, name: &str) -> anyhow::Result<usize> {
    let cmd = cmd.name(name.to_string());
    crate::atomic::write(&dir.join(format!("{name}.1")), &page_of(cmd.clone(), name)?)?;
    let mut written = 1;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let sub_name = format!("{name}-{}", sub.get_name());
        let sub = sub.clone().bin_name(format!(
            "{} {}",
            cmd.get_bin_name().unwrap_or(name),
            sub.get_name()
        ));
        written += write_pages(dir, sub, &sub_name)?;
    }
    Ok(written)
}

/// The man page of `cmd` (page name `name`), with EXIT STATUS and, where there are some,
/// EXAMPLES.
fn page_of(cmd: clap::Command, name: &str) -> anyhow::Result<Vec<u8>> {
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page)?;
    page.extend_from_slice(EXIT_STATUS.as_bytes());
    let examples: Vec<&(&str, &str, &str)> = EXAMPLES
        .iter()
        .filter(|(page, _, _)| *page == name || name == "difftest")
        .collect();
    if !examples.is_empty() {
        page.extend_from_slice(b".SH EXAMPLES\n");
        for (_, what, command) in examples {
            page.extend_from_slice(format!(".TP\n{what}\n.B {command}\n").as_bytes());
        }
    }
    Ok(page)
}

/// The exit codes every command shares (`crate::exit`), as roff.
const EXIT_STATUS: &str = ".SH \"EXIT STATUS\"
.TP
.B 0
Success; for replay, compare and report \\-\\-merge: no difference outside the accepted list.
.TP
.B 1
replay, compare or report \\-\\-merge found new differences (the gate fails).
.TP
.B 2
Bad input: a flag, target, suite, scope or file that is wrong or corrupt; one line on stderr names it.
.TP
.B 3
Infrastructure failure: a JDK could not be provisioned or a JVM would not start.
.TP
.B 130
record or compare was interrupted (Ctrl\\-C, SIGTERM); the suite kept so far is written, marked partial.
";

/// (page, what it does, command) for the EXAMPLES sections; the top page shows them all.
const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "difftest-record",
        "Record a suite on Temurin 17 (45 s of generation) into oracles/temurin17.yaml.zst:",
        "difftest record \\-\\-impl temurin17",
    ),
    (
        "difftest-record",
        "Record on a library jar, one package, 15 s:",
        "difftest record \\-\\-impl temurin17+mylib\\-1.0.jar \\-\\-packages com.example.mylib \\-\\-time\\-limit 15",
    ),
    (
        "difftest-replay",
        "Replay the only suite in oracles/ on Temurin 21; exit 1 on a new difference:",
        "difftest replay \\-\\-impl temurin21",
    ),
    (
        "difftest-replay",
        "Replay shard 2 of 3 (one CI job of three):",
        "difftest replay \\-\\-impl temurin21 \\-\\-shard 2/3 \\-\\-report\\-dir parts/2",
    ),
    (
        "difftest-report",
        "Merge the shards' reports and gate; a missing shard is exit 2:",
        "difftest report \\-\\-merge parts/*/*.json",
    ),
    (
        "difftest-accept",
        "Accept a reviewed cause:",
        "difftest accept c\\-6db046 \\-\\-reason \"CLDR 42: narrow no\\-break space\"",
    ),
    (
        "difftest-targets",
        "Download two JDKs into the cache:",
        "difftest targets install temurin17 temurin21",
    ),
    (
        "difftest-completions",
        "Install bash completion (target names as of now):",
        "difftest completions bash > /etc/bash_completion.d/difftest",
    ),
];
