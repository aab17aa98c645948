//! What each subcommand does, on top of the library: argument checks, progress, output.

mod accept;
#[cfg(feature = "bench")]
mod bench;
#[cfg(feature = "bench")]
mod bench_attribute;
#[cfg(feature = "bench")]
mod bench_batch;
#[cfg(feature = "bench")]
mod bench_detection;
#[cfg(feature = "bench")]
mod bench_export;
#[cfg(feature = "bench")]
mod bench_raw;
#[cfg(feature = "bench")]
mod bench_replay;
mod compare;
mod explain;
mod export;
mod pool_flags;
mod record;
mod replay;
mod report;
mod shell;
mod suite;
mod targets;

#[cfg(feature = "bench")]
use crate::cli::PoolArgs;
use crate::cli::{Cli, Command, GlobalArgs};
use crate::exit::Exit;
use crate::targets::TargetStore;

pub use pool_flags::{JOBS_PER_CORE, check_jobs, max_jobs, pool_config, start_pool};

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> anyhow::Result<Exit> {
    crate::progress::set_quiet(cli.global.quiet);
    crate::color::set(cli.global.color);
    match cli.command {
        Command::Explain(args) => explain::run(&cli.global, &args),
        Command::Completions { shell } => shell::completions(&cli.global, shell),
        Command::Man { out } => shell::man(out.as_deref()),
        Command::Targets(cmd) => targets::run(&cli.global, cmd),
        Command::Replay(args) => replay::run(&cli.global, &args),
        Command::Accept(args) => accept::run(&args),
        Command::Report(args) => report::run(&cli.global, &args),
        Command::Record(args) => record::run(&cli.global, *args),
        Command::Compare(args) => compare::run(&cli.global, &args),
        Command::Export(args) => export::run(&cli.global, args),
        #[cfg(feature = "bench")]
        Command::Bench(cmd) => bench::run(&cli.global, cmd),
        Command::Suite(cmd) => suite::run(&cmd),
        Command::Worker(_) => Ok(Exit::Success),
    }
}

fn store(global: &GlobalArgs) -> anyhow::Result<TargetStore> {
    let mut store = TargetStore::new(global.targets_dir.clone(), global.cache_dir.clone())?;
    store.set_verbose(global.verbose > 0);
    Ok(store)
}

/// `difftest` itself as a child process, with the global flags.
#[cfg(feature = "bench")]
fn difftest_child(global: &GlobalArgs) -> anyhow::Result<std::process::Command> {
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    if let Some(dir) = &global.targets_dir {
        cmd.arg("--targets-dir").arg(dir);
    }
    if let Some(dir) = &global.cache_dir {
        cmd.arg("--cache-dir").arg(dir);
    }
    Ok(cmd)
}

/// Appends the pool flags a child shares with its parent: `--jobs` and `--timeout` when given.
#[cfg(feature = "bench")]
fn pass_pool_flags(cmd: &mut std::process::Command, pool: &PoolArgs) {
    if let Some(jobs) = pool.jobs {
        cmd.arg("--jobs").arg(jobs.to_string());
    }
    if let Some(timeout) = pool.timeout {
        cmd.arg("--timeout").arg(timeout.to_string());
    }
}

/// Runs a [`difftest_child`] to its end, its output into `log` when given; an exit code
/// other than those in `ok` is an error naming the child's arguments (and the log).
#[cfg(feature = "bench")]
fn run_child(
    mut cmd: std::process::Command,
    ok: &[i32],
    log: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    if let Some(log) = log {
        let out = std::fs::File::create(log)?;
        cmd.stdout(out.try_clone()?)
            .stderr(out)
            .stdin(std::process::Stdio::null());
        eprintln!("running {:?} (log: {})", cmd.get_args(), log.display());
    }
    let status = cmd.status()?;
    if status.code().is_some_and(|c| ok.contains(&c)) {
        return Ok(());
    }
    let see = log.map_or(String::new(), |l| format!("; see {}", l.display()));
    anyhow::bail!("difftest {:?} failed with {status}{see}", cmd.get_args())
}
