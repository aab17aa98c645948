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
