//! The pool flags every command that starts workers shares (`--jobs`, `--timeout`,
//! `--worker-memory`, `--no-sandbox`): checked with the flag's name in the error and turned
//! into a `PoolConfig`, and a pool started on one target.

use crate::cli::PoolArgs;
use crate::exit::bad_input;
use crate::pool::{Pool, PoolConfig};
use crate::targets::{Provisioned, TargetStore};
use std::time::Duration;

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
    crate::pipeline::target_check::start_pool(store, name, config).map_err(|e| e.into_anyhow())
}

#[cfg(test)]
mod tests {
    use super::{parse_size, pool_config};
    use crate::cli::PoolArgs;
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
