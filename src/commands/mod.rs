//! What each subcommand does, on top of the library: argument checks, progress, output.

mod accept;
mod bench;
mod bench_replay;
mod export;
mod record;
mod replay;
mod report;
mod targets;

use crate::cli::{Cli, Command, GlobalArgs, PoolArgs};
use crate::exit::{Exit, bad_input};
use crate::pool::{Pool, PoolConfig};
use crate::target::{Provisioned, TargetStore};
use std::time::Duration;

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Command::Targets(cmd) => targets::run(&cli.global, cmd),
        Command::Replay(args) => replay::run(&cli.global, &args),
        Command::Accept(args) => accept::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Record(args) => record::run(&cli.global, *args),
        Command::Export(args) => export::run(&cli.global, args),
        Command::Bench(cmd) => bench::run(&cli.global, cmd),
        Command::Worker => Ok(Exit::Success),
    }
}

fn store(global: &GlobalArgs) -> anyhow::Result<TargetStore> {
    Ok(TargetStore::new(
        global.targets_dir.clone(),
        global.cache_dir.clone(),
    )?)
}

/// Turns the pool flags into a configuration, rejecting nonsense with the flag's name.
pub fn pool_config(args: &PoolArgs) -> anyhow::Result<PoolConfig> {
    let mut config = PoolConfig::new();
    if let Some(jobs) = args.jobs {
        config.jobs = check_jobs(jobs, "--jobs")?;
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(bad_input(format!(
            "--timeout must be a positive number of seconds, not {}",
            args.timeout
        )));
    }
    config.timeout = Duration::from_secs_f64(args.timeout);
    Ok(config)
}

/// Worker JVMs per core at most: each worker is a JVM with its own JIT and GC threads, so
/// more than a few per core only adds load (`-j 100000` drove a 2-core machine to a load
/// average over 1,300 without a line of output).
pub const JOBS_PER_CORE: usize = 4;

/// The most `--jobs` this machine takes.
pub fn max_jobs() -> usize {
    JOBS_PER_CORE * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `jobs` if it is between 1 and [`max_jobs`], else bad input naming `flag`.
pub fn check_jobs(jobs: usize, flag: &str) -> anyhow::Result<usize> {
    let max = max_jobs();
    match jobs {
        0 => Err(bad_input(format!("{flag} must be at least 1"))),
        n if n > max => Err(bad_input(format!(
            "{flag} {n} is more than this machine can use: at most {max} ({JOBS_PER_CORE} per core, {} cores)",
            max / JOBS_PER_CORE
        ))),
        n => Ok(n),
    }
}

/// Loads, provisions and starts a pool on the target `name`.
pub fn start_pool(
    store: &TargetStore,
    name: &str,
    config: PoolConfig,
) -> anyhow::Result<(Provisioned, Pool)> {
    let spec = store.load(name)?;
    let provisioned = store.provision(&spec)?;
    let pool = Pool::start(name, provisioned.jvm.clone(), config)?;
    Ok((provisioned, pool))
}
