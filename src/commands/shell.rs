//! `difftest completions SHELL` and `difftest man [--out DIR]`: made from the clap
//! definitions with clap_complete and clap_mangen, so they never drift from the flags.

use crate::cli::Cli;
use crate::exit::Exit;
use clap::CommandFactory;
use std::path::Path;

pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<Exit> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "difftest", &mut script);
    print(&script)
}

/// Writes to stdout; a reader that stops early (`| head`) is not an error.
fn print(bytes: &[u8]) -> anyhow::Result<Exit> {
    match std::io::Write::write_all(&mut std::io::stdout(), bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(Exit::Success),
    }
}

pub fn man(out: Option<&Path>) -> anyhow::Result<Exit> {
    let cmd = Cli::command();
    let Some(dir) = out else {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut page)?;
        return print(&page);
    };
    std::fs::create_dir_all(dir)?;
    let written = write_pages(dir, cmd, "difftest")?;
    eprintln!("difftest: wrote {written} man pages into {}", dir.display());
    Ok(Exit::Success)
}

/// `DIR/NAME.1` for `cmd` and each visible subcommand (`difftest-targets-new.1`).
fn write_pages(dir: &Path, cmd: clap::Command, name: &str) -> anyhow::Result<usize> {
    let cmd = cmd.name(name.to_string());
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut page)?;
    crate::atomic::write(&dir.join(format!("{name}.1")), &page)?;
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
