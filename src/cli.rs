//! Command-line definitions (clap derive). `main.rs` parses them and dispatches to
//! [`crate::commands`].

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Differential testing of Java API implementations: record on one, replay on another.
#[derive(Parser, Debug)]
#[command(name = "difftest", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
#[derive(Args, Debug, Clone)]
pub struct GlobalArgs {
    /// Folder of target definitions (NAME.yaml) [default: ./targets, else the shipped ones]
    #[arg(long, global = true, env = "DIFFTEST_TARGETS", value_name = "DIR")]
    pub targets_dir: Option<PathBuf>,
    /// Where JDKs and jars are downloaded and unpacked [default: ~/.cache/difftest]
    #[arg(long, global = true, env = "DIFFTEST_CACHE", value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// Worker pool options shared by commands that run Java code.
#[derive(Args, Debug, Clone)]
pub struct PoolArgs {
    /// Worker processes (JVMs) at most [default: number of cores]
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Seconds a single sequence may run before its worker is killed
    #[arg(long, default_value_t = 5.0, value_name = "SECONDS")]
    pub timeout: f64,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List, install and check implementations (targets/NAME.yaml)
    #[command(subcommand)]
    Targets(TargetsCommand),
    /// Record a regression suite on a reference implementation (oracles/REF.yaml)
    Record(Box<RecordArgs>),
    /// Measure difftest on real targets (see the README's performance section)
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Run as a worker process (used by difftest itself)
    #[command(name = "__worker", hide = true)]
    Worker,
}

#[derive(Subcommand, Debug)]
pub enum TargetsCommand {
    /// Every target: name, description, installed or not, fingerprint
    List,
    /// Download and unpack targets into the cache (idempotent)
    Install {
        #[arg(required = true, value_name = "NAME")]
        names: Vec<String>,
    },
    /// Start a worker on a target; print its fingerprint and the API it sees
    Check {
        #[arg(value_name = "NAME")]
        name: String,
        /// Classes to describe instead of the default scope
        #[arg(long, value_delimiter = ',', value_name = "CLASS,…")]
        classes: Vec<String>,
        /// Packages to describe instead of the default scope
        #[arg(long, value_delimiter = ',', value_name = "PACKAGE,…")]
        packages: Vec<String>,
        #[command(flatten)]
        pool: PoolArgs,
    },
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Record on the default JDK scope: sequences/s, tests kept, rerun time, peak RSS, load time
    Record {
        /// The reference to record on
        #[arg(long = "impl", default_value = "temurin17")]
        target: String,
        /// Seconds of generation
        #[arg(long, default_value_t = 120.0)]
        time_limit: f64,
        /// Reruns for flake removal
        #[arg(long, default_value_t = 10)]
        reruns: usize,
        #[command(flatten)]
        pool: PoolArgs,
    },
    /// Worker start-up, statements per second with 1 and 2 workers, RSS per worker
    Workers {
        /// Targets to measure
        #[arg(
            long = "impl",
            value_delimiter = ',',
            default_value = "temurin17,temurin21"
        )]
        targets: Vec<String>,
        /// Sequences of 10 statements in the measured batch
        #[arg(long, default_value_t = 10_000)]
        sequences: usize,
        #[command(flatten)]
        pool: PoolArgs,
    },
}

/// `difftest record`: see docs/record.md.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// The reference implementation: a target name
    #[arg(long = "impl", value_name = "REF")]
    pub reference: String,
    /// Classes in scope [default: the JDK packages of the Randoop paper, see docs/record.md]
    #[arg(long, value_delimiter = ',', value_name = "CLASS,…")]
    pub classes: Vec<String>,
    /// Packages in scope (their public classes)
    #[arg(long, value_delimiter = ',', value_name = "PACKAGE,…")]
    pub packages: Vec<String>,
    /// A file of classes and `package.*` lines in scope
    #[arg(long, value_name = "FILE")]
    pub class_list: Option<PathBuf>,
    /// More classes and members never to call (glob patterns, one a line)
    #[arg(long, value_name = "FILE")]
    pub omit: Vec<PathBuf>,
    /// Use only this omit list instead of the shipped one
    #[arg(long, value_name = "FILE")]
    pub omit_replace: Option<PathBuf>,
    /// Seconds of generation (reruns come on top)
    #[arg(long, default_value_t = 120.0, value_name = "SECONDS")]
    pub time_limit: f64,
    /// Regression tests to write at most; generation stops once it has them (reproducible)
    #[arg(long, value_name = "N")]
    pub output_limit: Option<usize>,
    /// Seed of the random choices
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Times the suite runs again on fresh workers to drop unstable values
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub reruns: usize,
    /// Where to write the suite [default: oracles/REF.yaml]
    #[arg(long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Extra primitive and String literals (`TYPE VALUE` lines)
    #[arg(long, value_name = "FILE")]
    pub literals_file: Option<PathBuf>,
    /// Extra observer methods (`Class.method` patterns, one a line)
    #[arg(long, value_name = "FILE")]
    pub observers: Option<PathBuf>,
    /// Probability of passing null where a value exists
    #[arg(long, default_value_t = 0.0, value_name = "P")]
    pub null_ratio: f64,
    /// Probability of appending the new call several times
    #[arg(long, default_value_t = 0.1, value_name = "P")]
    pub repeat_probability: f64,
    /// Most calls one repetition appends
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub repeat_max: usize,
    /// Longest sequence, in statements
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub max_size: usize,
    /// Candidate sequences per round (one batch on the workers)
    #[arg(long, default_value_t = 400, value_name = "N")]
    pub round_size: usize,
    /// Error-revealing tests kept per violated contract and call
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub errors_per_group: usize,
    /// No progress bar
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub pool: PoolArgs,
}
