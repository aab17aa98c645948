//! What each subcommand does, on top of the library: argument checks, progress, output.

mod accept;
#[cfg(feature = "bench")]
mod bench;
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
mod record;
mod replay;
mod report;
mod shell;
mod suite;
mod targets;

use crate::cli::{Cli, Command, GlobalArgs, PoolArgs};
use crate::exit::{Exit, bad_input};
use crate::pool::{Pool, PoolConfig};
use crate::targets::{Provisioned, TargetStore};
use std::time::Duration;

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

/// Fails unless files can be created in `dir`: checked before any work starts, so a
/// read-only folder or a file in the way is exit 2 at once, not after a run. Folders made
/// for the check are removed again, so a run that fails later leaves nothing behind.
pub fn check_folder_writable(dir: &std::path::Path) -> std::io::Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(std::io::Error::other("not a folder"));
    }
    let missing: Vec<&std::path::Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .collect();
    std::fs::create_dir_all(dir)?;
    let checked = tempfile::Builder::new()
        .prefix(".difftest-check-")
        .tempfile_in(dir)
        .map(drop);
    for made in missing {
        // Deepest first; a folder something else filled meanwhile stays.
        let _ = std::fs::remove_dir(made);
    }
    checked
}

/// Turns the pool flags into a configuration, rejecting nonsense with the flag's name.
pub fn pool_config(args: &PoolArgs) -> anyhow::Result<PoolConfig> {
    let mut config = PoolConfig::new();
    if let Some(jobs) = args.jobs {
        config.jobs = check_jobs(jobs, "--jobs")?;
    }
    if let Some(timeout) = args.timeout {
        // Checked at parse time too; pool flags built in code are checked here alike.
        let seconds = crate::cli::values::check_timeout(timeout)
            .map_err(|e| bad_input(format!("--timeout {e}")))?;
        config.timeout = Duration::from_secs_f64(seconds);
    }
    config.target_timeout = args.timeout.is_none();
    config.worker_memory = parse_size(&args.worker_memory).ok_or_else(|| {
        bad_input(format!(
            "--worker-memory must be a size such as 512M or 2G (at least 64M), or off, not {:?}",
            args.worker_memory
        ))
    })?;
    config.sandbox = !args.no_sandbox;
    Ok(config)
}

/// `off` (no limit) or a number of bytes with an optional K, M, G or T suffix (powers of
/// 1024); `None` for anything else or for less than 64 MiB, which no JVM starts in.
fn parse_size(text: &str) -> Option<Option<u64>> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("off") {
        return Some(None);
    }
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = text[digits.len()..].to_ascii_uppercase();
    let shift = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return None,
    };
    let value: f64 = digits.parse().ok()?;
    let bytes = value * (1u64 << shift) as f64;
    (value.is_finite() && bytes >= (64u64 << 20) as f64 && bytes < u64::MAX as f64)
        .then_some(Some(bytes as u64))
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

#[cfg(test)]
mod tests {
    use super::{PoolArgs, parse_size, pool_config};
    use std::time::Duration;

    #[test]
    fn a_timeout_flag_wins_over_the_targets_own() {
        let mut args = PoolArgs {
            jobs: None,
            timeout: None,
            worker_memory: "2G".into(),
            no_sandbox: false,
        };
        let config = pool_config(&args).unwrap();
        assert!(config.target_timeout);
        assert_eq!(config.timeout, Duration::from_secs(5));
        args.timeout = Some(30.0);
        let config = pool_config(&args).unwrap();
        assert!(!config.target_timeout);
        assert_eq!(config.timeout, Duration::from_secs(30));
        args.timeout = Some(0.0);
        assert!(pool_config(&args).is_err());
    }

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("2G"), Some(Some(2 << 30)));
        assert_eq!(parse_size("1536M"), Some(Some(1536 << 20)));
        assert_eq!(parse_size("1.5GiB"), Some(Some(3 << 29)));
        assert_eq!(parse_size("off"), Some(None));
        assert_eq!(parse_size("1M"), None, "too small for a JVM");
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("-2G"), None);
        assert_eq!(parse_size("2X"), None);
    }
}
