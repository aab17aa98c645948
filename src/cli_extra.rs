//! Command-line definitions of the ecosystem commands (`targets new`, `explain`), kept
//! apart from [`crate::cli`] so each file stays short.

use super::PoolArgs;
use clap::Args;
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
    #[arg(long, value_name = "PATH")]
    pub jar: Vec<PathBuf>,
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
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub report_dir: PathBuf,
    /// Only show the report's view; do not start the two JVMs
    #[arg(long)]
    pub no_rerun: bool,
    #[command(flatten)]
    pub pool: PoolArgs,
}
