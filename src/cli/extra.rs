//! Command-line definitions of the ecosystem commands (`targets new`, `explain`), of
//! `suite` and of two benches, kept apart from [`crate::cli`] so each file stays short.

use super::PoolArgs;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `difftest targets new`.
#[derive(Args, Debug, Clone)]
pub struct TargetsNewArgs {
    /// The new target's name (the file name without .yaml)
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The target whose JDK (and JVM options) to use, e.g. temurin17
    #[arg(long, value_name = "TARGET")]
    pub jdk: String,
    /// A Maven artifact on the classpath, group:artifact:version (repeat for more)
    #[arg(long, value_name = "G:A:V")]
    pub maven: Vec<String>,
    /// A jar or class folder on the classpath (repeat for more)
    #[arg(value_parser = super::values::Utf8Path, long, value_name = "PATH")]
    pub jar: Vec<PathBuf>,
    /// A Maven project (pom.xml) whose runtime dependencies go on the classpath, resolved
    /// by mvn on every run
    #[arg(long, value_name = "POM")]
    pub classpath_from: Option<PathBuf>,
    /// A JVM option, e.g. --jvm-option=-Xmx512m (repeat for more)
    #[arg(long = "jvm-option", value_name = "OPTION", allow_hyphen_values = true)]
    pub jvm_options: Vec<String>,
    /// The description [default: what is on which JDK]
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// Replace an existing file
    #[arg(long)]
    pub force: bool,
}

/// `difftest explain`.
#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// The group (g-…) or cause (c-…) id from the replay table or report
    #[arg(value_name = "ID")]
    pub id: String,
    /// Where the replay reports are
    #[arg(value_parser = super::values::Utf8Path, long, default_value = "reports", value_name = "DIR")]
    pub report_dir: PathBuf,
    /// Only show the report's view; do not start the two JVMs
    #[arg(long)]
    pub no_rerun: bool,
    #[command(flatten)]
    pub pool: PoolArgs,
}

/// `difftest suite`.
#[derive(Subcommand, Debug)]
pub enum SuiteCommand {
    /// Tests, statements, size and the classes covered (the whole file is verified)
    Stats {
        #[arg(value_parser = super::values::Utf8Path, value_name = "FILE")]
        file: PathBuf,
        /// Also list every class covered, with its number of calls
        #[arg(long)]
        classes: bool,
    },
}

/// `difftest bench detection`.
#[derive(Args, Debug, Clone)]
pub struct BenchDetectionArgs {
    /// The list of documented changes
    #[arg(
        value_parser = super::values::Utf8Path,
        long,
        default_value = "examples/known-changes/changes.yaml",
        value_name = "FILE"
    )]
    pub changes: PathBuf,
    /// Pairs of feature releases, OLD-NEW: record on temurinOLD, replay on temurinNEW
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "17-21,21-25",
        value_name = "OLD-NEW,…"
    )]
    pub pairs: Vec<String>,
    /// A variant of the record: NAME=FLAGS (extra `record` flags, space-separated), or
    /// `defaults`; repeat to compare variants at the same budget
    #[arg(
        long = "variant",
        default_value = "defaults",
        value_name = "NAME=FLAGS"
    )]
    pub variants: Vec<String>,
    /// Also record on the newer release and replay on the older (finds added API)
    #[arg(long)]
    pub both_directions: bool,
    /// Seconds of generation per record
    #[arg(long, default_value_t = crate::generate::DEFAULT_TIME_LIMIT_SECS, value_name = "SECONDS", value_parser = super::values::time_limit)]
    pub time_limit: f64,
    /// Stop each record at this many tests (an equal budget that load does not change)
    #[arg(long, value_name = "N", value_parser = super::values::count(1, super::values::MAX_OUTPUT_LIMIT))]
    pub output_limit: Option<usize>,
    /// Reruns for flake removal per record
    #[arg(long, default_value_t = crate::flakes::DEFAULT_RERUNS, value_name = "N", value_parser = super::values::count(0, super::values::MAX_RERUNS))]
    pub reruns: usize,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Where suites, reports and logs are kept; a variant whose report is already there is
    /// scored again without running [default: a temporary folder]
    #[arg(value_parser = super::values::Utf8Path, long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    #[command(flatten)]
    pub pool: PoolArgs,
}

/// `difftest bench attribute`.
#[derive(Args, Debug, Clone)]
pub struct BenchAttributeArgs {
    /// The suite to replay (plain or .zst)
    #[arg(value_parser = super::values::Utf8Path, long, value_name = "FILE")]
    pub suite: PathBuf,
    /// The target it is replayed on
    #[arg(long = "impl", default_value = "temurin21", value_name = "TGT")]
    pub target: String,
    /// Replay only the suite's first N tests
    #[arg(long, default_value_t = 60_000, value_parser = super::values::count(1, super::values::MAX_OUTPUT_LIMIT))]
    pub tests: usize,
    /// Tests per segment, each in a fresh JVM (as `replay --segment`)
    #[arg(long, default_value_t = crate::replay::DEFAULT_SEGMENT, value_parser = super::values::count(1, super::values::MAX_OUTPUT_LIMIT))]
    pub segment: usize,
    /// Rows of each top table
    #[arg(long, default_value_t = 20, value_parser = super::values::count(1, 1_000))]
    pub top: usize,
    #[command(flatten)]
    pub pool: PoolArgs,
}

/// `difftest bench replay`.
#[derive(Args, Debug, Clone)]
pub struct BenchReplayArgs {
    /// The reference the suite is recorded on
    #[arg(long = "ref", default_value = "temurin17", value_name = "REF")]
    pub reference: String,
    /// The target it is replayed on
    #[arg(long = "impl", default_value = "temurin21", value_name = "TGT")]
    pub target: String,
    /// Tests in the suite
    #[arg(long, default_value_t = 40_000, value_parser = super::values::count(1, super::values::MAX_OUTPUT_LIMIT))]
    pub tests: usize,
    /// Use difftest's hand-built JDK call templates instead of `difftest record`
    #[arg(long)]
    pub synthetic: bool,
    /// With --synthetic: templates concatenated into one test (about 4 statements each)
    #[arg(long, default_value_t = 3, value_parser = super::values::count(1, 1_000))]
    pub calls_per_test: usize,
    /// Seed of the generated sequences
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Job counts to measure
    #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = super::values::count(1, super::values::MAX_JOBS))]
    pub jobs: Vec<usize>,
    /// Keep the suite and reports in this folder (default: a temporary one)
    #[arg(value_parser = super::values::Utf8Path, long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// Replay this recorded suite (plain or .zst) instead of recording one
    #[arg(value_parser = super::values::Utf8Path, long, value_name = "FILE", conflicts_with = "synthetic")]
    pub suite: Option<PathBuf>,
}
