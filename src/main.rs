//! The `difftest` binary: parses the command line, dispatches to the library, and turns
//! errors into one line on stderr and an exit code (see `difftest::exit`).

use clap::Parser;
use difftest::cli::{Cli, Command};
use std::process::ExitCode;

/// mimalloc, not glibc's malloc: a profile of record's reruns put half of the supervisor's
/// CPU in glibc's malloc and free (small statements and strings built and dropped per test),
/// and on two cores that CPU is taken from the workers (DESIGN.md, "mimalloc"). Built with
/// `no_thp`: no transparent huge pages, whose 2 MiB units inflated the resident set.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A bad flag value is one line (`error: invalid value … for '--timeout <SECONDS>': …`);
/// other parse errors and help keep clap's full text (usage, tips).
fn print_parse_error(e: &clap::Error) {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::InvalidValue | ErrorKind::ValueValidation | ErrorKind::InvalidUtf8 => {
            let text = e.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: invalid value"));
        }
        _ => {
            let _ = e.print();
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            print_parse_error(&e);
            return ExitCode::from(code);
        }
    };
    if let Command::Worker(args) = &cli.command {
        return ExitCode::from(difftest::worker::serve::main(&args.options()) as u8);
    }
    difftest::usage::limit_arenas();
    difftest::usage::purge_freed_pages_at_once();
    match difftest::commands::dispatch(cli) {
        Ok(code) => code.into(),
        Err(e) => {
            let code = difftest::exit::code_of(&e);
            eprintln!("difftest: error: {}", difftest::exit::one_line(&e));
            code.into()
        }
    }
}
