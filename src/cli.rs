//! Command-line definitions (clap derive). `main.rs` parses them and dispatches to
//! [`crate::commands`].

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

mod extra;
pub mod values;
pub use extra::{
    BenchAttributeArgs, BenchDetectionArgs, BenchReplayArgs, ExplainArgs, SuiteCommand,
    TargetsNewArgs,
};

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
    /// Folder of target definitions (NAME.yaml), the only one searched and where `targets new`
    /// writes [default: look in ./targets, then the shipped ones; write to ./targets]
    #[arg(value_parser = values::Utf8Path, long, global = true, env = "DIFFTEST_TARGETS", value_name = "DIR")]
    pub targets_dir: Option<PathBuf>,
    /// Where JDKs and jars are downloaded and unpacked [default: ~/.cache/difftest]
    #[arg(value_parser = values::Utf8Path, long, global = true, env = "DIFFTEST_CACHE", value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// No progress on stderr (bars on a terminal, status lines in a log)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say more on stderr: each target's JDK, options and classpath as it is provisioned
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Colour on stdout: auto (a terminal, unless NO_COLOR is set), always or never
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    pub color: crate::color::Choice,
    /// The table of causes with every column in full (method, both values, example)
    /// instead of one line per cause fitted to the terminal (100 columns when not one)
    #[arg(long, global = true)]
    pub wide: bool,
}

/// Worker pool options shared by commands that run Java code.
#[derive(Args, Debug, Clone)]
pub struct PoolArgs {
    /// Worker processes (JVMs) at most [default: number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = values::count(1, u64::MAX))]
    pub jobs: Option<usize>,
    /// Seconds a single sequence may run before its worker is killed [default: the target's
    /// `timeout:`, else 5; record's generation gives each sequence a twentieth of it]
    #[arg(long, value_name = "SECONDS", value_parser = values::timeout)]
    pub timeout: Option<f64>,
    /// Resident memory one worker may use before it is killed (K, M, G suffixes; `off`)
    #[arg(long, default_value = "2G", value_name = "SIZE")]
    pub worker_memory: String,
    /// Run workers without the sandbox (network, file system, processes): trusted code only
    #[arg(long)]
    pub no_sandbox: bool,
}

/// How the supervisor starts a worker (`difftest __worker`).
#[derive(Args, Debug, Clone, Default)]
pub struct WorkerArgs {
    /// The supervisor's process id: the worker dies with it
    #[arg(long, value_name = "PID")]
    pub parent: Option<i32>,
    /// Apply the sandbox before the JVM starts
    #[arg(long)]
    pub sandbox: bool,
    /// Kernel bound on the worker's writable private memory (RLIMIT_DATA), in bytes
    #[arg(long, value_name = "BYTES")]
    pub data_limit: Option<u64>,
}

impl WorkerArgs {
    /// The worker's options these flags give.
    pub fn options(&self) -> crate::worker::serve::Options {
        crate::worker::serve::Options {
            parent: self.parent,
            sandbox: self.sandbox,
            data_limit: self.data_limit,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List, install and check implementations (targets/NAME.yaml)
    #[command(subcommand)]
    Targets(TargetsCommand),
    /// Replay a recorded suite on other implementations; report what behaves differently
    Replay(ReplayArgs),
    /// Accept a cause or group of differences (id from the replay report) with a reason
    Accept(AcceptArgs),
    /// Merge the JSON reports of shards (`replay --shard K/N`) into one report
    Report(ReportArgs),
    /// Record a regression suite on a reference implementation (oracles/REF.yaml.zst)
    Record(Box<RecordArgs>),
    /// Record on two implementations with the same seed and budget, replay each suite on
    /// the other, and report what changed from the first to the second, API added and
    /// removed included
    Compare(CompareArgs),
    /// Write a suite as readable JUnit 4 or 5 tests (see docs/export.md)
    Export(ExportArgs),
    /// Measure difftest on real targets (see docs/benchmarks.md)
    #[cfg(feature = "bench")]
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Show one group or cause of a replay report: its minimized Java, both recorded values,
    /// and a rerun of it now on the reference and the target
    Explain(ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the man page (difftest.1), or write one page per command into --out DIR
    Man {
        /// Write difftest.1 and difftest-COMMAND.1 here instead of printing difftest.1
        #[arg(value_parser = values::Utf8Path, long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Inspect a suite file (plain or .zst)
    #[command(subcommand)]
    Suite(SuiteCommand),
    /// Run as a worker process (used by difftest itself)
    #[command(name = "__worker", hide = true)]
    Worker(WorkerArgs),
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
        /// Classes to describe instead of the default scope (the library's own jars, else the
        /// JDK's default packages)
        #[arg(long, value_delimiter = ',', value_name = "CLASS,…")]
        classes: Vec<String>,
        /// Packages to describe instead of the default scope, with their subpackages (`p.`:
        /// that package alone)
        #[arg(long, value_delimiter = ',', value_name = "PACKAGE,…")]
        packages: Vec<String>,
        #[command(flatten)]
        pool: PoolArgs,
    },
    /// Write a new target file, ./targets/NAME.yaml (or in --targets-dir), from the JDK of a target and the jars or
    /// Maven artifacts to put on top (for one run: `--impl temurin17+lib.jar`)
    New(TargetsNewArgs),
}

/// `difftest replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// Targets to replay on; several make a matrix with a column per target
    #[arg(
        long = "impl",
        required = true,
        value_delimiter = ',',
        value_name = "TGT,…"
    )]
    pub impls: Vec<String>,
    /// The recorded suite, plain or .zst [default: the only oracles/*.yaml or *.yaml.zst]
    #[arg(value_parser = values::Utf8Path, long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// Where reports/TGT-vs-REF.{md,json,junit.xml} go
    #[arg(value_parser = values::Utf8Path, long, default_value = "reports", value_name = "DIR")]
    pub report_dir: PathBuf,
    /// Replay only part K of N of the suite (a stable split by test id)
    #[arg(long, value_name = "K/N", value_parser = clap::value_parser!(crate::replay::Shard))]
    pub shard: Option<crate::replay::Shard>,
    /// Reruns of failing tests on fresh workers; a test that changes is unstable
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = values::count32(0, values::MAX_RERUNS))]
    pub confirm: u32,
    /// Count exception-message differences (otherwise shown, not counted)
    #[arg(long)]
    pub strict_messages: bool,
    /// Do not minimize an example test per group (no reference JVM needed)
    #[arg(long)]
    pub no_minimize: bool,
    /// Candidate runs per group when minimizing
    #[arg(long, default_value_t = 200, value_name = "N", value_parser = values::count32(0, 1_000_000))]
    pub minimize_budget: u32,
    /// Tests per fresh JVM (in id order): state a test leaves behind reaches only its segment
    #[arg(long, default_value_t = crate::replay::DEFAULT_SEGMENT, value_name = "N", value_parser = values::count(1, values::MAX_OUTPUT_LIMIT))]
    pub segment: usize,
    /// No progress bar or status lines (the table, the files written and errors still print)
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub pool: PoolArgs,
}

/// `difftest accept`.
#[derive(Args, Debug, Clone)]
pub struct AcceptArgs {
    /// The cause or group id shown in the replay table and report (e.g. c-1a2b3c, g-3fa2c1)
    #[arg(value_name = "ID", required_unless_present = "reseal")]
    pub group: Option<String>,
    /// Why this difference is acceptable (stored with the entry)
    #[arg(long, required_unless_present = "reseal", default_value = "")]
    pub reason: String,
    /// Rewrite the --suite's accepted list with a fresh checksum after reviewing a hand
    /// edit (or a format-1 list); adds nothing
    #[arg(long, conflicts_with_all = ["group", "target"], requires = "suite")]
    pub reseal: bool,
    /// Accept on this target only [default: every target, `*`]
    #[arg(long = "impl", value_name = "TGT")]
    pub target: Option<String>,
    /// The suite whose accepted list to change [default: the report's suite]
    #[arg(value_parser = values::Utf8Path, long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// Where the replay reports are
    #[arg(value_parser = values::Utf8Path, long, default_value = "reports", value_name = "DIR")]
    pub report_dir: PathBuf,
    /// Who accepts [default: $USER]
    #[arg(long, value_name = "NAME")]
    pub by: Option<String>,
    /// Accept even when the environment variable CI is set
    #[arg(long)]
    pub force: bool,
}

/// `difftest report`.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["merge", "summary"])))]
pub struct ReportArgs {
    /// JSON reports of the parts (one per shard, any number of targets)
    #[arg(value_parser = values::Utf8Path, long, num_args = 1.., value_name = "PART.json")]
    pub merge: Vec<PathBuf>,
    /// JSON reports of whole replays (one per release or JDK pair): write one summary across
    /// them (summary.md and index.html in --report-dir) and exit by the worst gate
    #[arg(value_parser = values::Utf8Path, long, num_args = 1.., value_name = "REPORT.json")]
    pub summary: Vec<PathBuf>,
    /// With --summary: how many pairs were run; fewer reports make the summary INCOMPLETE and
    /// the exit code 3
    #[arg(long, requires = "summary", value_name = "N")]
    pub expect: Option<usize>,
    /// Where the merged reports or the summary go
    #[arg(value_parser = values::Utf8Path, long, default_value = "reports", value_name = "DIR")]
    pub report_dir: PathBuf,
    /// Merge even when some shards' reports are missing; the report then says the verdict
    /// is partial and names the missing shards
    #[arg(long)]
    pub allow_partial: bool,
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Record on the default JDK scope: sequences/s, tests kept, rerun time, peak RSS, load time
    Record {
        /// The reference to record on
        #[arg(long = "impl", default_value = "temurin17")]
        target: String,
        /// Seconds of generation
        #[arg(long, default_value_t = crate::generate::DEFAULT_TIME_LIMIT_SECS, value_parser = values::time_limit)]
        time_limit: f64,
        /// Reruns for flake removal
        #[arg(long, default_value_t = crate::flakes::DEFAULT_RERUNS, value_parser = values::count(0, values::MAX_RERUNS))]
        reruns: usize,
        #[command(flatten)]
        pool: PoolArgs,
    },
    /// Replay of a large recorded suite on another target: wall time, tests/s, peak RSS,
    /// speed-up from 1 to 2 jobs (end to end, JVM start-ups included)
    Replay(BenchReplayArgs),
    /// Where a worker's time per test goes in a replay: the suite's first tests run as a
    /// replay's first pass, each part timed by the worker (callees, observers, rendering, wire)
    Attribute(BenchAttributeArgs),
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
        #[arg(long, default_value_t = 10_000, value_parser = values::count(1, values::MAX_OUTPUT_LIMIT))]
        sequences: usize,
        #[command(flatten)]
        pool: PoolArgs,
    },
    /// Which documented behaviour changes a record + replay finds (examples/known-changes),
    /// per variant of the record's flags, at an equal budget
    Detection(BenchDetectionArgs),
    /// javac and JUnit run time of an exported suite, against replaying it (docs/export.md)
    Export {
        /// The suite to export, compile and run (10,000 tests or more for a fair measure)
        #[arg(value_parser = values::Utf8Path, long, value_name = "PATH")]
        suite: PathBuf,
        /// JUnit version of the generated code: 4 or 5
        #[arg(long, default_value = "4", value_name = "4|5")]
        junit: String,
        /// The javac to use [default: one that supports the suite's --release]
        #[arg(value_parser = values::Utf8Path, long, value_name = "PATH")]
        javac: Option<PathBuf>,
        #[command(flatten)]
        pool: PoolArgs,
    },
}

/// `difftest compare`.
#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    /// The two implementations, older (or reference) first
    #[arg(
        long = "impl",
        required = true,
        value_delimiter = ',',
        value_name = "A,B"
    )]
    pub impls: Vec<String>,
    /// Where the two suites are written (DIR/A.yaml, DIR/B.yaml)
    #[arg(value_parser = values::Utf8Path, long, default_value = "oracles", value_name = "DIR")]
    pub oracles: PathBuf,
    /// Where the two replay reports and compare-A-to-B.{md,json} go
    #[arg(value_parser = values::Utf8Path, long, default_value = "reports", value_name = "DIR")]
    pub report_dir: PathBuf,
    /// `record` flags for both records, after `--` (`-- --time-limit 60 --jobs 2`); the
    /// replays use the same --jobs and --timeout
    #[arg(last = true, value_name = "RECORD FLAGS")]
    pub record_flags: Vec<String>,
}

/// `difftest export`: see docs/export.md.
#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// The suite to export (oracles/REF.yaml)
    #[arg(value_parser = values::Utf8Path, long, value_name = "PATH")]
    pub suite: PathBuf,
    /// JUnit version of the generated code: 4 (4.13+) or 5 (5.8+)
    #[arg(long, value_name = "4|5")]
    pub junit: String,
    /// Folder to write the Java sources into (created; must be empty unless --force)
    #[arg(value_parser = values::Utf8Path, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Java package of the generated classes [default: the unnamed package]
    #[arg(long, value_name = "P")]
    pub package: Option<String>,
    /// Test methods per class
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = values::count(1, 100_000))]
    pub tests_per_class: usize,
    /// Write into a non-empty folder, replacing the files an earlier export wrote
    #[arg(long)]
    pub force: bool,
    /// Also assert the messages of expected exceptions (as `replay --strict-messages`)
    #[arg(long)]
    pub strict_messages: bool,
    /// Do not start the reference to learn return types: declare call results with `var`
    #[arg(long)]
    pub offline: bool,
}

/// `difftest record`: see docs/record.md.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// The reference implementation: a target name
    #[arg(long = "impl", value_name = "REF")]
    pub reference: String,
    /// Classes in scope, `*` globs allowed (org.example.*Builder) [default: every public class
    /// of the library a REF like temurin17+lib.jar adds (not its dependencies), else the JDK
    /// packages of the Randoop paper, see docs/record.md]
    #[arg(long, value_delimiter = ',', value_name = "CLASS,…")]
    pub classes: Vec<String>,
    /// Packages in scope with their subpackages' public classes (`p.`: package p alone)
    #[arg(long, value_delimiter = ',', value_name = "PACKAGE,…")]
    pub packages: Vec<String>,
    /// A file of classes (globs allowed), `package.*` (with subpackages) and `package.`
    /// (alone) lines in scope
    #[arg(value_parser = values::Utf8Path, long, value_name = "FILE")]
    pub class_list: Option<PathBuf>,
    /// More classes and members never to call (glob patterns, one a line)
    #[arg(value_parser = values::Utf8Path, long, value_name = "FILE")]
    pub omit: Vec<PathBuf>,
    /// Use only this omit list instead of the shipped one
    #[arg(value_parser = values::Utf8Path, long, value_name = "FILE")]
    pub omit_replace: Option<PathBuf>,
    /// Keep every test; by default only a subset that observes every behaviour the whole
    /// suite observed is kept and rerun (see docs/commands.md)
    #[arg(long)]
    pub keep_all: bool,
    /// Measure the branch coverage of the scope that generation reaches (JaCoCo's agent in
    /// the generation workers) and print it per package; the suite is the same without it
    /// (see docs/record.md)
    #[arg(long)]
    pub coverage: bool,
    /// Leave out API deprecated for removal (kept by default: its removal is a difference)
    #[arg(long)]
    pub skip_deprecated_for_removal: bool,
    /// Seconds of generation (reruns come on top)
    #[arg(long, default_value_t = crate::generate::DEFAULT_TIME_LIMIT_SECS, value_name = "SECONDS", value_parser = values::time_limit)]
    pub time_limit: f64,
    /// Regression tests to write at most; generation stops once it has them (reproducible)
    #[arg(long, value_name = "N", value_parser = values::count(1, values::MAX_OUTPUT_LIMIT))]
    pub output_limit: Option<usize>,
    /// Seed of the random choices
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Times the suite runs again on fresh workers to drop unstable values
    #[arg(long, default_value_t = crate::flakes::DEFAULT_RERUNS, value_name = "N", value_parser = values::count(0, values::MAX_RERUNS))]
    pub reruns: usize,
    /// Where to write the suite [default: oracles/REF.yaml.zst]; a name ending in .zst is
    /// written zstd-compressed, any other name as plain text
    #[arg(value_parser = values::Utf8Path, long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Write --output zstd-compressed, with .zst added to its name (the default output is
    /// compressed anyway)
    #[arg(long)]
    pub compress: bool,
    /// Extra primitive and String literals (`TYPE VALUE` lines)
    #[arg(value_parser = values::Utf8Path, long, value_name = "FILE")]
    pub literals_file: Option<PathBuf>,
    /// Extra observer methods (`Class.method` patterns, one a line)
    #[arg(value_parser = values::Utf8Path, long, value_name = "FILE")]
    pub observers: Option<PathBuf>,
    /// Probability of passing null where a value exists
    #[arg(long, default_value_t = 0.0, value_name = "P")]
    pub null_ratio: f64,
    /// Do not pass null once to every reference parameter of every call in scope (by
    /// default each gets it once, the other inputs from the pool as usual)
    #[arg(long)]
    pub no_null_once: bool,
    /// Pass class literals (every class of the scope, and `Object`, `String`, the boxed
    /// numbers, `List`, `Map`, `int`) to parameters declared `java.lang.Class`
    #[arg(long)]
    pub class_values: bool,
    /// Let values that differ between runs of one JVM (identity hashes, clocks, random
    /// generators, what depends on a set's per-JVM order) and what is computed from them
    /// become inputs of later calls, as before they were kept out (for comparison)
    #[arg(long)]
    pub per_jvm_values_in_pool: bool,
    /// Probability of passing an index boundary (-1, 0 or 1) for an `int` parameter of a
    /// call that also takes an array, a `CharSequence` or a `Collection` (a valid offset
    /// beside a bad range, an empty range); 0 turns it off
    #[arg(long, default_value_t = crate::generate::DEFAULT_INDEX_RATIO, value_name = "P")]
    pub index_ratio: f64,
    /// Elements of returned arrays and collections become inputs, catalogues are swept
    /// into their own lookups and mined constants into their unit's lookups (the default;
    /// kept for scripts that name it)
    #[arg(long, hide = true)]
    pub harvest: bool,
    /// No harvesting nor sweeps: inputs come only from literals, edge values and earlier
    /// calls' results
    #[arg(long, conflicts_with = "harvest")]
    pub no_harvest: bool,
    /// Do not copy the unordered sets and maps calls return into sorted ones (whose text,
    /// unlike theirs, is stable and so checked)
    #[arg(long)]
    pub no_sorted_copies: bool,
    /// Use an object passed to a call that returns nothing again only when its observers
    /// show something new (by default it joins the pool once more per such call, so a
    /// closed stream or an updated digest is used again)
    #[arg(long)]
    pub no_hidden_state: bool,
    /// Products are called (the default; kept for scripts that name it)
    #[arg(long, hide = true)]
    pub products: bool,
    /// Do not call the nullary methods of the objects that lookups of catalogue values
    /// return (`KeyGenerator.getInstance("AES").generateKey()`), nor theirs
    #[arg(long, conflicts_with = "products")]
    pub no_products: bool,
    /// Leave out of scope the callables whose calls need a class missing from the class
    /// path (a dependency jar not on the target), and say how many, instead of stopping
    /// with exit code 3
    #[arg(long)]
    pub allow_missing_classes: bool,
    /// Observers only on the declared type of a call's value (not the runtime class it
    /// returned) and only getters, `size`, `length`, `toString` (not conversions like
    /// `toPattern()`)
    #[arg(long)]
    pub declared_observers: bool,
    /// Probability of appending the new call several times
    #[arg(long, default_value_t = 0.1, value_name = "P")]
    pub repeat_probability: f64,
    /// Most calls one repetition appends
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = values::count(1, 10_000))]
    pub repeat_max: usize,
    /// Longest sequence, in statements
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = values::count(1, 100_000))]
    pub max_size: usize,
    /// Stored sequences that make generation compact: forget those no pool value reaches
    /// and keep at most 262,144 pool values, so its memory stays bounded however long it
    /// runs (a lower value uses less memory and changes what long records draw)
    #[arg(long, default_value_t = difftest_core::generate::DEFAULT_STORE_LIMIT, value_name = "N",
          value_parser = values::count(1_000, 100_000_000))]
    pub store_limit: usize,
    /// Candidate sequences in the first round (one batch on the workers); later rounds grow
    /// with what was generated, up to five times it
    #[arg(long, default_value_t = 400, value_name = "N", value_parser = values::count(1, 1_000_000))]
    pub round_size: usize,
    /// Longest value text stored whole, in bytes of its escaped form (1024 to 16777216);
    /// a longer one is stored as its length, a digest and a prefix, and replay uses the
    /// limit the suite header records
    #[arg(
        long,
        default_value_t = crate::suite::DEFAULT_MAX_VALUE_BYTES,
        value_name = "BYTES",
        value_parser = clap::value_parser!(u64).range(1024..=16 * 1024 * 1024)
    )]
    pub max_value_bytes: u64,
    /// Error-revealing tests kept per violated contract and call
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = values::count(1, 1_000))]
    pub errors_per_group: usize,
    /// No progress bar
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub pool: PoolArgs,
}
