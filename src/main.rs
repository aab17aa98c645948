//! The `difftest` binary: parses the command line, dispatches to the library, and turns
//! errors into one line on stderr and an exit code (see `difftest::exit`).

use clap::Parser;
use difftest::cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    if let Command::Worker(args) = &cli.command {
        return ExitCode::from(difftest::worker::serve::main(args) as u8);
    }
    difftest::usage::limit_arenas();
    match difftest::commands::dispatch(cli) {
        Ok(code) => code.into(),
        Err(e) => {
            let code = difftest::exit::code_of(&e);
            eprintln!("difftest: error: {}", difftest::exit::one_line(&e));
            code.into()
        }
    }
}
