//! Feedback-directed generation (Fig. 3 of the Randoop paper): pick an operation at random,
//! take its inputs from the component pool of earlier non-error sequences, discard a
//! sequence equal to an earlier one, execute the new sequence on the reference at once,
//! check the contracts, keep it as a regression test or an error-revealing test, and make
//! its new values available to later sequences unless a filter says otherwise.
//!
//! Generation runs in rounds so that it is reproducible whatever the number of workers (their
//! sizes grow with what was generated before: `rounds`): a round of candidates is drawn
//! from the current pool state with the seeded RNG only, executed as one batch, and its
//! results are folded back in candidate order. Two rounds are in flight at a time, so round `k + 2` is drawn once round `k` is folded,
//! whenever round `k + 1` finishes. With an
//! output limit, generation stops at the first round boundary where enough tests are kept,
//! so the same seed, scope, output limit and reference give the same tests. With only a time
//! limit, the clock decides how many rounds run, and the suite differs from run to run.
//!
//! Submodules: [`type_names`] (names, subtyping), [`store`] (sequences), [`ops`] (operations),
//! [`components`] (the component pool), [`literals`], [`draft`] (drafting a candidate),
//! [`feedback`] (classifying results), [`kept`] (what is kept), [`mined`] (constants of the class
//! files in scope), [`harvest`] (elements of returned
//! arrays and collections), `chunked` (lists that grow without copying), [`per_jvm`] (values that differ between runs of one JVM, kept out of the pool),
//! [`sweep`] (catalogue and constant sweeps), [`reduce`] (the
//! subset of tests that observes every behaviour), `rounds` (how large each round is),
//! `compact` (forgetting what later rounds cannot reach, so memory stays bounded).

mod chunked;
mod compact;
pub(crate) mod components;
pub(crate) mod config_keys;
mod draft;
mod feedback;
pub mod footprint;
mod harvest;
pub(crate) mod kept;
pub mod literals;
pub(crate) mod mined;
#[cfg(test)]
pub(crate) mod on_fake;
pub(crate) mod ops;
mod per_jvm;
pub mod reduce;
mod rounds;
mod scratch_words;
pub mod spool;
pub(crate) mod store;
mod sweep;
pub(crate) mod taint;
pub(crate) mod type_names;

use crate::message::SeqRequest;
use crate::model::{ApiModel, boxed};
use crate::observe::Observers;
use crate::pool::{Executor, Pipeline, PoolError};
use crate::sequence::{CLASS, ClasspathFault, Observed, Statement};
use components::Components;
use kept::ErrorKept;
use literals::Literal;
use mined::Mined;
use ops::Op;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use spool::KeptTests;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use store::{Builder, SeqId, Store};
use type_names::{NameId, Names};

/// Default of `--index-ratio`: on, since the detection benchmark finds the code-point
/// exception class in every run with it and only by chance without (DESIGN.md, "The
/// defaults").
pub const DEFAULT_INDEX_RATIO: f64 = 0.25;

/// Default of `--store-limit`: stored sequences that start a compaction (`compact`).
pub const DEFAULT_STORE_LIMIT: usize = compact::COMPACT_AT;

/// Seconds of generation by default: the main job (this record, its reruns and a default
/// replay of what it wrote, minimization included) ends within three minutes on a quiet
/// 2-core machine, and 45 s now make as many sequences as 60 s did before generation gave
/// a call a twentieth of the timeout, with the benchmark's items all found
/// (docs/benchmarks.md, "The main job").
pub const DEFAULT_TIME_LIMIT_SECS: f64 = 45.0;

/// How generation runs.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// The seed of every random draw: the same seed gives the same suite.
    pub seed: u64,
    /// How long generation runs (`--time-limit`).
    pub time_limit: Duration,
    /// Stop once this many non-redundant regression tests are kept.
    pub output_limit: Option<usize>,
    /// Candidates drawn in the first round (one batch on the workers); later rounds grow
    /// (`rounds::round_size_at`).
    pub round_size: usize,
    /// Probability of passing `null` for a reference parameter that has values.
    pub null_ratio: f64,
    /// Whether every reference parameter of every operation gets `null` once (in the
    /// operation's first successful drafts), the other inputs from the pool as usual: a
    /// null check added or dropped by a release shows without `null_ratio`'s cost (on by
    /// default; `--no-null-once`).
    pub null_once: bool,
    /// Probability of reusing a value already chosen for this call (never the receiver).
    /// Off by default, as in Randoop 4: `Collections.fill(list, list)` builds structures
    /// whose `hashCode` overflows the stack.
    pub alias_ratio: f64,
    /// Probability of appending the call several times (Randoop's repetition).
    pub repeat_probability: f64,
    /// Most calls appended by one repetition.
    pub repeat_max: usize,
    /// Longest sequence, in statements.
    pub max_size: usize,
    /// Most observer calls appended to a test.
    pub max_observers: usize,
    /// Error-revealing tests kept per violated contract and call.
    pub errors_per_group: usize,
    /// Literal values offered to parameters of their types (`--literals`).
    pub literals: Vec<Literal>,
    /// Constants mined from the class files in scope, for the constant sweeps; `None` when
    /// mining is off.
    pub mined: Option<Arc<Mined>>,
    /// Probability of taking an index boundary (-1, 0 or 1) for an `int` parameter of an
    /// operation that also takes an array, a `CharSequence` or a `Collection`.
    pub index_ratio: f64,
    /// Whether elements of returned arrays and collections become pool values.
    pub harvest: bool,
    /// Whether each new unordered set or map a call returns is also copied into a sorted
    /// one, whose text is stable (`sweep::sorted`).
    pub sorted_copies: bool,
    /// Whether the nullary methods of looked-up objects are called (`sweep`'s products).
    pub products: bool,
    /// Whether an input of a call that returned nothing joins the pool again though it looks
    /// like a value seen before (`feedback`'s hidden state: a closed stream, an updated
    /// digest), once per look, call and parameter.
    pub hidden_state: bool,
    /// Wider observers: chosen on the runtime class an operation returned (when it is
    /// described) rather than on its declared type, and nullary conversions (`toPattern()`,
    /// `intValue()`) as well as getters.
    pub runtime_observers: bool,
    /// `--observers` patterns.
    pub user_observers: Vec<String>,
    /// Values that differ between runs of one JVM (and what is computed from them) join the
    /// component pool, as before [`per_jvm`]: they then steer generation, so one seed can
    /// draw different suites (`--per-jvm-values-in-pool`, for comparison).
    pub per_jvm_values_in_pool: bool,
    /// A call that fails because the class path lacks a class leaves the callable out of
    /// scope (`--allow-missing-classes`) instead of stopping generation.
    pub allow_missing_classes: bool,
    /// Stored sequences that start a compaction (`compact`, `--store-limit`).
    pub compact_at: usize,
    /// Whether `java.lang.Class` parameters get class literals: every class of the scope
    /// and [`COMMON_CLASSES`] (`--class-values`).
    pub class_values: bool,
}

/// Classes offered as class literals beside the scope's own: the types a library's
/// type-token parameters (`fromJson(text, Class)`) most often name.
const COMMON_CLASSES: &[&str] = &[
    "java.lang.Object",
    "java.lang.String",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Double",
    "java.lang.Boolean",
    "java.util.List",
    "java.util.Map",
    "int",
];

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            seed: 0,
            time_limit: Duration::from_secs_f64(DEFAULT_TIME_LIMIT_SECS),
            output_limit: None,
            round_size: 400,
            null_ratio: 0.0,
            null_once: true,
            alias_ratio: 0.0,
            repeat_probability: 0.1,
            repeat_max: 100,
            max_size: 100,
            max_observers: crate::observe::DEFAULT_MAX_OBSERVERS,
            errors_per_group: 1,
            literals: literals::defaults(),
            mined: None,
            index_ratio: DEFAULT_INDEX_RATIO,
            harvest: false,
            sorted_copies: false,
            products: true,
            hidden_state: true,
            runtime_observers: true,
            user_observers: Vec::new(),
            per_jvm_values_in_pool: false,
            allow_missing_classes: false,
            compact_at: compact::COMPACT_AT,
            class_values: false,
        }
    }
}

/// Why generation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The time limit passed.
    TimeLimit,
    /// The output limit was reached.
    OutputLimit,
    /// Ctrl-C or SIGTERM.
    Interrupted,
    /// Several rounds in a row found no new sequence.
    Exhausted,
    /// A call failed because the class path lacks a class (see [`Recorded::left_out`]),
    /// and `allow_missing_classes` is off.
    MissingClasses,
}

/// Counters of one generation.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    /// Rounds drafted.
    pub rounds: u64,
    /// Sequences run on the workers.
    pub executed: u64,
    /// Statements the executed sequences hold, prefixes included: what the workers ran.
    pub statements: u64,
    /// Time the generator waited for a round's results (both rounds in flight unfinished).
    pub waited: Duration,
    /// Candidates dropped as already drafted.
    pub duplicates: u64,
    /// Candidates dropped for exceeding the longest sequence.
    pub too_long: u64,
    /// Calls that found no value for a parameter.
    pub no_input: u64,
    /// Sequences that threw where Randoop's filters call it invalid use.
    pub invalid: u64,
    /// Sequences that ended in `OutOfMemoryError` or `StackOverflowError` (dropped).
    pub vm_errors: u64,
    /// Sequences that hit the per-call timeout.
    pub timeouts: u64,
    /// Sequences whose worker died.
    pub crashes: u64,
    /// Sequences cut at the longest sequence.
    pub truncated: u64,
    /// Sequences that ran but check nothing (objects only, no observer): components only.
    pub unchecked: u64,
    /// Tests kept that end normally.
    pub kept_normal: u64,
    /// Tests kept that end in an exception.
    pub kept_exceptional: u64,
    /// Sequences that broke a contract.
    pub violations: u64,
    /// Harvest sequences drafted (lengths and elements read).
    pub harvests: u64,
    /// Elements read from arrays and collections that ended normally.
    pub harvested: u64,
    /// Lookups of swept catalogue values drafted.
    pub lookups: u64,
    /// Of those, calls taking an object that a lookup of an element's textual form returned.
    pub consumers: u64,
    /// Of those, products: nullary methods called on a looked-up object or a product.
    pub products: u64,
    /// Index boundaries passed for an `int` parameter (`--index-ratio`).
    pub index_boundaries: u64,
    /// Drafts that gave a parameter its one `null` (`GenConfig::null_once`).
    pub nulls_once: u64,
    /// Sorted copies of unordered sets and maps drafted.
    pub sorted_copies: u64,
    /// Inputs of calls that returned nothing which joined the pool looking like values seen
    /// before (`GenConfig::hidden_state`).
    pub hidden_states: u64,
    /// Observations dropped because the value was not of the observer's class (a runtime
    /// class the operation returned before, not this time).
    pub misfit_observers: u64,
    /// Compactions of the sequence store (`compact`).
    pub compactions: u64,
    /// Stored sequences the compactions forgot.
    pub forgotten: u64,
    /// The most sequences the store held at once (just before a compaction, or at the end).
    pub stored_most: u64,
}

/// What the progress display shows after each round.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Sequences run so far.
    pub executed: u64,
    /// Sequences kept as extensible so far.
    pub kept: usize,
    /// Regression tests kept so far.
    pub tests: usize,
    /// Error-revealing tests kept so far.
    pub errors: usize,
    /// Values in the component pool.
    pub pool: usize,
    /// Time since generation started.
    pub elapsed: Duration,
}

/// The generator's whole state.
pub(crate) struct Generator<'m> {
    cfg: GenConfig,
    model: &'m ApiModel,
    rng: ChaCha8Rng,
    names: Names,
    store: Store,
    ops: Vec<Op>,
    /// Operations `0..random_ops` are drawn at random; the harvest operations follow.
    random_ops: usize,
    harvest_ops: Option<harvest::HarvestOps>,
    harvest: VecDeque<harvest::Harvest>,
    /// Callees whose returned array or collection was queued for a sweep.
    swept: HashSet<NameId>,
    sweeps: sweep::Sweeps,
    /// The class each operation belongs to.
    op_class: Vec<String>,
    /// Which operations take an index (`ops::index_ops`).
    index_ops: Vec<bool>,
    comps: Components,
    observers: Observers,
    obs_cache: HashMap<NameId, Vec<NameId>>,
    /// Whether an operation's method is left out of a receiver class (see
    /// [`Generator::omitted_on`]), found once per pair.
    omitted_on: HashMap<(usize, NameId), bool>,
    /// The runtime class each operation last returned, where it is a described class more
    /// specific than the declared one: observers are chosen on it.
    runtime: HashMap<usize, NameId>,
    null_tmpl: HashMap<NameId, u32>,
    /// Per operation, the parameters that have had their `null` (`GenConfig::null_once`),
    /// one bit each.
    nulled: Vec<u64>,
    seen: compact::RecentSet<u64>,
    tests: KeptTests,
    errors: Vec<ErrorKept>,
    subsumed: Vec<bool>,
    /// What each sequence is, by id.
    roles: Vec<Role>,
    redundant: usize,
    /// Of those, tests already dropped by a compaction.
    redundant_dropped: usize,
    /// Stored sequences that start the next compaction.
    compact_next: usize,
    /// Most values the pool keeps through the next compaction (`compact`).
    pool_most: usize,
    banned: HashSet<u32>,
    /// Operation families that timed out once (a second timeout bans them).
    timed_out: HashSet<u32>,
    /// Callables whose call timed out, with how many times (`feedback`).
    timed_out_callables: BTreeMap<String, u64>,
    /// The operations of those callables: never drafted again.
    timed_out_ops: HashSet<usize>,
    /// Operations whose call a draft must not repeat (`false`): one returned a value too large
    /// to store whole (`feedback::note_repeatable`); a draft may repeat any other call.
    repeatable: HashMap<usize, bool>,
    /// Callables whose calls the class path could not serve (`feedback::left_out`).
    left_out: BTreeMap<String, ClasspathFault>,
    /// The operations of those callables: never drawn again.
    left_out_ops: HashSet<usize>,
    next_id: u64,
    stats: GenStats,
    /// Bytes of the largest round's requests (`footprint`).
    largest_round: u64,
    /// Bytes a request of the last round held, on average (`rounds::round_size_capped`).
    request_bytes: u64,
}

/// What a sequence is to lexical redundancy (section III-E of the regression paper): a
/// test whose sequence a longer test contains is redundant only when the longer one checks
/// what it checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// No test: it checks nothing (or is an error-revealing test, kept apart).
    Component,
    /// A test with step checks only, which a longer test makes again at the same steps.
    Checks,
    /// A test that also observes values. A longer test observes only the values of its own
    /// last call, so the observations (`Set.toString()` of what a lookup returned, before a
    /// later call turns the set into an array) would be lost with it: it stays a test.
    Observes,
}

/// A sequence drafted for execution.
pub(crate) struct Candidate {
    b: Builder,
    op: usize,
    last: u32,
    /// Inputs of the last call: position, declared type, whether it is a `null` literal.
    inputs: Vec<(u32, NameId, bool)>,
    observers: Vec<kept::ObsRef>,
    harvest: Option<harvest::Step>,
}

/// Everything generation kept, ready for reruns and writing.
pub struct Recorded {
    /// The statement shapes the tests' code names (the sequence store is gone with
    /// generation: each test holds its own statements).
    pub(crate) templates: store::Templates,
    pub(crate) names: Names,
    /// Non-redundant regression tests, by id, on disk (`spool`).
    pub tests: KeptTests,
    /// Error-revealing tests, a few per violated contract and call, grouped.
    pub errors: Vec<crate::suite::ErrorTest>,
    /// Distinct (contract, call) groups of error-revealing tests.
    pub error_groups: usize,
    /// Regression tests left out as lexically redundant (section III-E of the regression paper).
    pub redundant: usize,
    /// Counters of the generation.
    pub stats: GenStats,
    /// Values in the component pool at the end.
    pub pool_values: usize,
    /// Mined constants offered, and the classes they came from (0 when mining is off).
    pub mined_values: usize,
    /// Classes the mined constants came from.
    pub mined_classes: usize,
    /// Keys of the reference JDK's configuration files swept into its key lookups.
    pub config_keys: usize,
    /// Callables (`Class.method(params)`, or an observer's `Class.method()`) left out
    /// because a call of theirs needed a class missing from the class path, with the
    /// first such fault of each.
    pub left_out: BTreeMap<String, ClasspathFault>,
    /// Callables (`Class.method(params)`) a call of which timed out, with how many did: not
    /// drafted again after the first.
    pub timed_out: BTreeMap<String, u64>,
    /// What generation's structures held when it ended (estimated, `footprint`).
    pub footprint: footprint::Footprint,
}

/// The scope has nothing to call.
#[derive(Debug, thiserror::Error)]
#[error("the scope has no public constructor, method or field to call")]
pub(crate) struct EmptyScope;

impl<'m> Generator<'m> {
    /// A generator for `model` (already filtered), seeded with the literals and enum constants.
    pub(crate) fn new(model: &'m ApiModel, cfg: GenConfig) -> Result<Generator<'m>, EmptyScope> {
        let mut names = Names::new(model);
        let mut store = Store::default();
        let mut comps = Components::default();
        let ops = ops::operations(model, &mut names, &mut store.templates, &mut comps);
        if ops.is_empty() {
            return Err(EmptyScope);
        }
        for shared in crate::scope::SHARED_INSTANCES {
            comps.confine(names.intern(shared));
        }
        if cfg.class_values {
            // Class literals go where a Class is declared, not to every Object parameter.
            comps.confine(names.intern(CLASS));
        }
        let observers = Observers::new(cfg.user_observers.clone(), cfg.max_observers)
            .with_conversions(cfg.runtime_observers);
        let index_ops = ops::index_ops(&ops, &mut names);
        let op_class = ops
            .iter()
            .map(|op| store.templates.get(op.tmpl).stmt.class_name().to_string())
            .collect();
        let mut g = Generator {
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            random_ops: ops.len(),
            harvest_ops: None,
            harvest: VecDeque::new(),
            swept: HashSet::new(),
            omitted_on: HashMap::new(),
            sweeps: Default::default(),
            cfg,
            model,
            names,
            store,
            nulled: vec![0; ops.len()],
            index_ops,
            ops,
            op_class,
            comps,
            observers,
            obs_cache: HashMap::new(),
            runtime: HashMap::new(),
            null_tmpl: HashMap::new(),
            seen: Default::default(),
            tests: KeptTests::in_dir(&std::env::temp_dir()),
            errors: Vec::new(),
            subsumed: Vec::new(),
            roles: Vec::new(),
            redundant: 0,
            redundant_dropped: 0,
            compact_next: 0,
            pool_most: 0,
            banned: HashSet::new(),
            timed_out: HashSet::new(),
            timed_out_callables: BTreeMap::new(),
            timed_out_ops: HashSet::new(),
            repeatable: HashMap::new(),
            left_out: BTreeMap::new(),
            left_out_ops: HashSet::new(),
            next_id: 1,
            stats: GenStats::default(),
            largest_round: 0,
            request_bytes: 0,
        };
        g.compact_next = g.cfg.compact_at;
        g.pool_most = g.cfg.compact_at;
        if g.cfg.harvest {
            g.add_harvest_ops();
        }
        g.seed_values();
        if g.cfg.sorted_copies {
            g.find_sorted_ops();
        }
        if g.cfg.harvest {
            g.queue_catalogues();
            g.queue_keyed_catalogues();
            g.queue_constant_lookups();
            g.queue_config_key_lookups();
        }
        Ok(g)
    }

    /// Literals, class literals (with [`GenConfig::class_values`]) and enum constants:
    /// one-statement sequences, never tests.
    fn seed_values(&mut self) {
        let mut seeds: Vec<(Statement, String, String)> = Vec::new();
        for l in &self.cfg.literals {
            let stmt = Statement::Literal {
                ty: l.ty.as_str().into(),
                value: l.value.as_str().into(),
            };
            seeds.push((stmt, l.ty.clone(), l.value.clone()));
        }
        if self.cfg.class_values {
            let classes = self.model.classes.keys().map(String::as_str);
            for name in classes.chain(COMMON_CLASSES.iter().copied()) {
                let stmt = Statement::literal(CLASS, name);
                seeds.push((stmt, CLASS.to_string(), name.to_string()));
            }
        }
        for c in self.model.classes.values() {
            for k in &c.enum_constants {
                let stmt = Statement::Enum {
                    ty: c.name.as_str().into(),
                    constant: k.as_str().into(),
                };
                seeds.push((stmt, c.name.clone(), k.clone()));
            }
        }
        for (stmt, ty, text) in seeds {
            let t = self.names.intern(&ty);
            let shown = Observed::Value {
                class: boxed(&ty).to_string(),
                text,
            };
            self.seed_value(stmt, t, &shown);
        }
    }

    fn push_node(&mut self, b: Builder, role: Role) -> SeqId {
        let id = self.store.push(b);
        self.subsumed.push(false);
        self.roles.push(role);
        id
    }

    fn take_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Keeps the tests in a scratch file in `dir` (the output's folder) rather than the
    /// system's temporary folder; call before [`Generator::run`].
    pub(crate) fn keep_tests_in(&mut self, dir: &std::path::Path) -> Result<(), spool::SpoolError> {
        self.tests = KeptTests::in_dir(dir);
        self.tests.check()
    }

    /// Non-redundant regression tests kept so far.
    pub(crate) fn test_count(&self) -> usize {
        self.tests.len() + self.redundant_dropped - self.redundant
    }

    fn progress(&self, began: Instant) -> Progress {
        Progress {
            executed: self.stats.executed,
            kept: self.tests.len(),
            tests: self.test_count(),
            errors: self.errors.len(),
            pool: self.comps.len(),
            elapsed: began.elapsed(),
        }
    }

    /// Generates until the time limit, the output limit, an interrupt or exhaustion. The time
    /// limit is a hard deadline: a round still running then is cut short (its calls killed)
    /// and dropped, as is a round running when `stop` is set, if `exec` watches it too.
    pub(crate) fn run(
        &mut self,
        exec: &dyn Executor,
        stop: &AtomicBool,
        progress: impl FnMut(&Progress),
    ) -> Result<StopReason, PoolError> {
        let began = Instant::now();
        exec.set_deadline(began.checked_add(self.cfg.time_limit));
        let outcome = self.rounds(exec, stop, began, progress);
        exec.set_deadline(None);
        match outcome {
            Err(PoolError::Stopped) if stop.load(Ordering::SeqCst) => Ok(StopReason::Interrupted),
            Err(PoolError::Stopped) => Ok(StopReason::TimeLimit),
            other => other,
        }
    }

    /// Rounds run two at a time ([`Pipeline`]): round `k + 2` is drafted from the results of
    /// rounds up to `k`, so the workers never wait for the supervisor or for the slowest call
    /// of a round, and the order of drafts and folds does not depend on timing.
    fn rounds(
        &mut self,
        exec: &dyn Executor,
        stop: &AtomicBool,
        began: Instant,
        mut progress: impl FnMut(&Progress),
    ) -> Result<StopReason, PoolError> {
        std::thread::scope(|scope| {
            let mut flight = Pipeline::new(scope, exec, true);
            let outcome = self.pipelined(&mut flight, stop, began, &mut progress);
            flight.drain();
            outcome
        })
    }

    fn pipelined(
        &mut self,
        flight: &mut Pipeline<'_, '_, Vec<Candidate>>,
        stop: &AtomicBool,
        began: Instant,
        progress: &mut impl FnMut(&Progress),
    ) -> Result<StopReason, PoolError> {
        let mut empty_rounds = 0;
        let mut last_empty = false;
        loop {
            let waiting = Instant::now();
            let taken = (!flight.has_room() || last_empty)
                .then(|| flight.take())
                .flatten();
            self.stats.waited += waiting.elapsed();
            if let Some((cands, reqs, results)) = taken {
                for ((c, req), r) in cands.into_iter().zip(&reqs).zip(results?) {
                    self.fold(c, req, r);
                }
                progress(&self.progress(began));
            }
            if let Some(reason) = self.stop_reason(stop, began) {
                return Ok(reason);
            }
            if self.compaction_due() {
                if !flight.is_empty() {
                    last_empty = true;
                    continue;
                }
                self.compact();
            }
            let (cands, reqs) = self.round();
            self.stats.rounds += 1;
            last_empty = cands.is_empty();
            if !last_empty {
                empty_rounds = 0;
                flight.submit(cands, reqs);
            } else if flight.is_empty() {
                empty_rounds += 1;
                if empty_rounds >= 20 {
                    return Ok(StopReason::Exhausted);
                }
            }
        }
    }

    /// Why generation ends now, if it does: checked after each round is folded.
    fn stop_reason(&self, stop: &AtomicBool, began: Instant) -> Option<StopReason> {
        if stop.load(Ordering::SeqCst) {
            Some(StopReason::Interrupted)
        } else if !self.cfg.allow_missing_classes && !self.left_out.is_empty() {
            Some(StopReason::MissingClasses)
        } else if self
            .cfg
            .output_limit
            .is_some_and(|n| self.test_count() >= n)
        {
            Some(StopReason::OutputLimit)
        } else if began.elapsed() >= self.cfg.time_limit {
            Some(StopReason::TimeLimit)
        } else {
            None
        }
    }

    /// Drafts one round of candidates and what to send for each.
    fn round(&mut self) -> (Vec<Candidate>, Vec<SeqRequest>) {
        let (first, each) = (self.cfg.round_size, self.request_bytes);
        let want = rounds::round_size_capped(first, self.stats.executed, each);
        let mut cands = Vec::with_capacity(want);
        self.harvest_round(want, &mut cands);
        self.sweep_round(want, &mut cands);
        for _ in 0..want * 20 {
            if cands.len() == want {
                break;
            }
            if let Some(c) = self.draft() {
                cands.push(c);
            }
        }
        let reqs: Vec<SeqRequest> = cands.iter().map(|c| self.request(c)).collect();
        let bytes: u64 = reqs.iter().map(footprint::request_bytes).sum();
        self.largest_round = self.largest_round.max(bytes);
        if let Some(each) = bytes.checked_div(reqs.len() as u64) {
            self.request_bytes = each;
        }
        (cands, reqs)
    }

    fn request(&self, c: &Candidate) -> SeqRequest {
        SeqRequest {
            statements: self.store.statements(c.b.parts()),
            observers: c.observers.iter().map(|o| o.call(&self.names)).collect(),
        }
    }

    /// Ends generation: keeps the non-redundant tests and a few error tests per group.
    pub(crate) fn finish(mut self) -> Recorded {
        self.note_stored();
        let footprint = self.footprint();
        let mut tests = self.tests;
        tests.retain(|_, seq| seq == spool::FINAL || !self.subsumed[seq as usize]);
        let (errors, error_groups) =
            kept::group_errors(&self.store, self.errors, self.cfg.errors_per_group);
        let errors = errors.iter().map(|e| e.expand(&self.store)).collect();
        let (mined_values, mined_classes, config_keys) = self
            .cfg
            .mined
            .as_ref()
            .map_or((0, 0, 0), |m| (m.values, m.classes, m.config_keys.len()));
        Recorded {
            pool_values: self.comps.len(),
            mined_values,
            mined_classes,
            config_keys,
            templates: self.store.templates,
            names: self.names,
            tests,
            errors,
            error_groups,
            redundant: self.redundant,
            stats: self.stats,
            left_out: self.left_out,
            timed_out: self.timed_out_callables,
            footprint,
        }
    }
}

#[cfg(test)]
mod tests;
