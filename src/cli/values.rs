//! Value parsers of the command line: durations and counts within sensible ranges, and
//! paths that are valid UTF-8. Each is checked while the command line is parsed, so a bad
//! value is one line naming the flag and exit 2 before any work starts, never a panic
//! later (`Duration::from_secs_f64(1e20)`) nor a run that cannot finish (`--timeout
//! 0.000001`).
//!
//! Paths must be UTF-8 because they travel on in text: the suite's path is written into
//! the reports (JSON, Markdown, HTML, JUnit) and read back by `accept` to find the accepted
//! list. A lossy copy would lead `accept` to another file; refusing such a path up front is
//! clear, where an escaped form would have to be decoded by every reader of the reports.

use clap::builder::{RangedU64ValueParser, TypedValueParser};
use std::ffi::OsStr;
use std::path::PathBuf;

/// The shortest per-call timeout: a JVM call takes longer than this to be answered at all.
pub const MIN_TIMEOUT: f64 = 0.1;
/// The longest per-call timeout (one day).
pub const MAX_TIMEOUT: f64 = 86_400.0;
/// The shortest and longest time limit of a record (30 days).
pub const MIN_TIME_LIMIT: f64 = 0.1;
pub const MAX_TIME_LIMIT: f64 = 2_592_000.0;
/// Most reruns (flake removal) and confirmations: each runs every test again.
pub const MAX_RERUNS: u64 = 100;
/// Most workers a bench measures (a pool's `--jobs` is bounded by the machine's cores when
/// the pool is planned, with that bound in the message).
pub const MAX_JOBS: u64 = 4_096;
/// Most tests (an output limit, a segment, a bench's suite).
pub const MAX_OUTPUT_LIMIT: u64 = 1_000_000_000;

/// Seconds in `min..=max`, with the range in the error.
fn seconds_in(text: &str, min: f64, max: f64) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds: {text:?}"))?;
    in_range(value, min, max)
}

/// `value` when it is in `min..=max` (NaN is not).
fn in_range(value: f64, min: f64, max: f64) -> Result<f64, String> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "must be between {min} and {max} seconds, not {value}"
        ))
    }
}

/// `--timeout`: seconds a single sequence may run.
pub fn timeout(text: &str) -> Result<f64, String> {
    seconds_in(text, MIN_TIMEOUT, MAX_TIMEOUT)
}

/// A per-call timeout given in code rather than on the command line, checked alike.
pub fn check_timeout(seconds: f64) -> Result<f64, String> {
    in_range(seconds, MIN_TIMEOUT, MAX_TIMEOUT)
}

/// `--time-limit`: seconds of generation.
pub fn time_limit(text: &str) -> Result<f64, String> {
    seconds_in(text, MIN_TIME_LIMIT, MAX_TIME_LIMIT)
}

/// A `usize` count in `min..=max`.
pub fn count(min: u64, max: u64) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(min..=max)
}

/// A `u32` count in `min..=max`.
pub fn count32(min: u64, max: u64) -> RangedU64ValueParser<u32> {
    RangedU64ValueParser::new().range(min..=max)
}

/// A path that is valid UTF-8 (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Utf8Path;

impl TypedValueParser for Utf8Path {
    type Value = PathBuf;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<PathBuf, clap::Error> {
        if let Some(text) = value.to_str() {
            return Ok(PathBuf::from(text));
        }
        let flag = arg.map_or_else(|| "a path".to_string(), |a| a.to_string());
        let message = format!(
            "{flag}: {:?} is not valid UTF-8; difftest writes paths into its reports as text, so rename the file or folder\n",
            value.to_string_lossy()
        );
        Err(clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_out_of_range_are_refused_not_converted() {
        assert_eq!(timeout("2"), Ok(2.0));
        for bad in [
            "1e20",
            "0.000001",
            "0",
            "-1",
            "nan",
            "inf",
            "99999999999999999999",
        ] {
            assert!(timeout(bad).is_err(), "{bad}");
            assert!(time_limit(bad).is_err(), "{bad}");
        }
        assert!(time_limit("120").is_ok());
    }

    /// Flags and values a fuzzed command line is drawn from: every duration and count flag,
    /// with numbers at and past every edge.
    const FLAGS: &[&str] = &[
        "--timeout",
        "--time-limit",
        "--reruns",
        "--confirm",
        "--segment",
        "--jobs",
        "--minimize-budget",
        "--output-limit",
        "--max-size",
        "--round-size",
        "--repeat-max",
        "--errors-per-group",
        "--worker-memory",
        "--shard",
        "--seed",
        "--null-ratio",
    ];
    const VALUES: &[&str] = &[
        "0",
        "-0",
        "1",
        "-1",
        "0.000001",
        "0.1",
        "1e20",
        "1e308",
        "-1e308",
        "nan",
        "inf",
        "-inf",
        "99999999999999999999",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "2G",
        "1/0",
        "3/2",
        "",
        " ",
        "x",
        "1_000",
        "0x10",
        "\u{0}",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 2_000,
            failure_persistence: None,
            ..Default::default()
        })]
        /// No command line makes the parser or the flag checks panic: each is refused or
        /// gives durations a `Duration` holds.
        #[test]
        fn fuzzed_command_lines_never_panic(
            command in 0..2usize,
            pairs in proptest::collection::vec((0..FLAGS.len(), 0..VALUES.len()), 0..6),
            junk in proptest::collection::vec(".{0,12}", 0..3),
        ) {
            use clap::Parser;
            let mut argv = vec!["difftest".to_string()];
            argv.extend(match command {
                0 => ["replay", "--impl", "t"].map(String::from).to_vec(),
                _ => ["record", "--impl", "t"].map(String::from).to_vec(),
            });
            for (f, v) in pairs {
                argv.push(format!("{}={}", FLAGS[f], VALUES[v]));
            }
            argv.extend(junk);
            let Ok(cli) = crate::cli::Cli::try_parse_from(&argv) else {
                return Ok(());
            };
            let (pool, limit) = match &cli.command {
                crate::cli::Command::Replay(a) => (&a.pool, None),
                crate::cli::Command::Record(a) => (&a.pool, Some(a.time_limit)),
                _ => return Ok(()),
            };
            if let Ok(config) = crate::commands::pool_config(pool) {
                proptest::prop_assert!(config.timeout <= std::time::Duration::from_secs(86_400));
            }
            if let Some(limit) = limit {
                std::time::Duration::try_from_secs_f64(limit).unwrap();
            }
        }
    }
}
