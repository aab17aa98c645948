//! The record pipeline: describes the scope on the reference, mines its class files'
//! constants, generates sequences for the time budget (or until the output limit), reruns
//! the suite on fresh workers to drop unstable values, classifies the exceptions the tests
//! expect and writes the suite atomically. The first Ctrl-C stops generation at once (the
//! calls still running are killed, that round dropped) and the tests kept so far are still
//! rerun and written, marked `partial: true`; a second one (or SIGTERM) also stops the
//! reruns. The time limit is a hard deadline too.

use super::Error;
use super::coverage;
use super::header::{self, Made};
use crate::flakes::{RerunReport, remove_flakes};
use crate::generate::config_keys;
use crate::generate::mined::{self, Mined};
use crate::generate::reduce::{self, Reduction, reduce};
use crate::generate::{self, Generator, Recorded, StopReason};
use crate::interrupt;
use crate::model::ApiModel;
use crate::pool::{Executor, Lane, Pool, PoolConfig, PoolError, PoolStats};
use crate::scope::{self, OmitList};
use crate::targets::{JvmSpec, Provisioned, TargetStore};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `record` will do.
#[derive(Clone)]
pub struct Plan {
    /// The reference target's name.
    pub reference: String,
    /// Classes named with `--classes`.
    pub classes: Vec<String>,
    /// Packages in scope (`--packages`).
    pub packages: Vec<String>,
    /// The omit list applied to the scope.
    pub omit: OmitList,
    /// Leave out API deprecated for removal.
    pub skip_deprecated: bool,
    /// How generation runs.
    pub generation: generate::GenConfig,
    /// Mine the constants of the class files in scope.
    pub mine: bool,
    /// Keep only a subset of tests that observes every behaviour the whole suite observed,
    /// and rerun only those (not with `--keep-all`).
    pub reduce: bool,
    /// Reruns on fresh workers that remove flaky checks (`--reruns`).
    pub reruns: usize,
    /// Where the suite is written.
    pub output: PathBuf,
    /// Options as written into the header (nothing that depends on the machine or `--jobs`).
    pub options: BTreeMap<String, String>,
    /// The `--observers` file, if any.
    pub observers_file: Option<PathBuf>,
    /// Measure the branch coverage generation reaches (`--coverage`).
    pub coverage: bool,
}

/// What a record tells as it goes; every method does nothing unless overridden.
pub trait Progress {
    /// Generation starts, with its time limit.
    fn generating(&mut self, _limit: Duration) {}
    /// A round of generation was folded.
    fn generated(&mut self, _progress: &generate::Progress) {}
    /// Generation stopped, for `reason` (none when the workers failed), with `tests` kept.
    fn generation_done(&mut self, _tests: usize, _reason: Option<StopReason>) {}
    /// Reduction kept a subset of the tests (after the reruns).
    fn reduced(&mut self, _reduction: &Reduction) {}
    /// Reruns start: `reruns` times `tests` tests.
    fn rerunning(&mut self, _reruns: usize, _tests: usize) {}
    /// Rerun `i` has run `done` of the `of` tests it runs (every test in the first; later,
    /// those the reduction after the previous rerun kept).
    fn rerun(&mut self, _i: usize, _done: usize, _of: usize, _elapsed: Duration) {}
    /// Reruns ended with `done` complete.
    fn reruns_done(&mut self, _done: usize) {}
}

/// What a record did; the suite is written.
pub struct Recording {
    /// The tests as written, with generation's counters.
    pub rec: Recorded,
    /// Why generation stopped; none when the workers failed (see `error`).
    pub reason: Option<StopReason>,
    /// The failure that cut generation short; the suite was still written, partial.
    pub error: Option<PoolError>,
    /// Wall time of generation.
    pub generation: Duration,
    /// What the reruns removed, and how long they took.
    pub reruns: RerunReport,
    /// The sum of the workers' peak RSS while generating, in KiB.
    pub generation_rss_kib: u64,
    /// The generation pool's counters: workers started, timeouts, crashes.
    pub generation_pool: PoolStats,
    /// The suite is partial: interrupted, or generation failed.
    pub partial: bool,
    /// With `--coverage`: the branches generation reached, per package of the scope.
    pub coverage: Option<Vec<coverage::PackageCoverage>>,
    /// The classes of the scope left out because loading them or their public signatures
    /// need a class missing from the class path (class → the missing class): those a
    /// package tree or the default scope brought in, and with `--allow-missing-classes`
    /// those named too.
    pub unloadable: BTreeMap<String, String>,
    /// This process's resident memory during each phase: generation, reduction, the
    /// reruns, the suite written.
    pub memory: Vec<super::memory::PhaseMemory>,
}

/// Generation gives each sequence a twentieth of the per-call timeout (250 ms of the default
/// 5 s, never less than `pool::MIN_CALL_TIMEOUT`), reruns and replays all of it: a call that
/// hangs holds a worker for a twentieth as long, and every recorded test ran in at most a
/// twentieth of the time its replay allows. A fifth (1 s) cost a 60 s record about a quarter
/// of its sequences (docs/benchmarks-history.md, *A twentieth of the timeout*).
pub(crate) const GENERATION_TIMEOUT_FRACTION: u32 = 20;

/// Records a suite on `store`'s reference with `config`'s pools; writes it even when
/// interrupted or when the workers fail (then `error` or `partial` say so).
pub fn record(
    store: &TargetStore,
    mut plan: Plan,
    mut config: PoolConfig,
    progress: &mut dyn Progress,
) -> Result<Recording, Error> {
    let mut memory = super::memory::PhaseSampler::start();
    let spec = store.load(&plan.reference)?;
    let provisioned = store.provision(&spec)?;
    // The first Ctrl-C (or SIGTERM) kills the calls running in generation at once…
    config.abort = Some(&interrupt::FIRST);
    let jacoco = coverage_jars(store, &plan, &provisioned)?;
    if plan.classes.is_empty() && plan.packages.is_empty() && provisioned.library.is_empty() {
        // A bare JDK's default scope, named now: the agent's includes are built from it
        // before `describe` runs (an empty scope would instrument nothing).
        (plan.classes, plan.packages) = scope::default_scope();
    }
    let generating = PoolConfig {
        timeout_fraction: GENERATION_TIMEOUT_FRACTION,
        coverage: jacoco.is_some(),
        ..config.clone()
    };
    let pool = Pool::start(
        &plan.reference,
        generation_jvm(&plan, &provisioned, jacoco.as_ref()),
        generating,
    )?;
    // …the second those of a rerun.
    config.abort = Some(&interrupt::SECOND);
    let (model, unloadable) = describe(&pool, &mut plan, &provisioned.library)?;
    if plan.mine {
        let mut mined = mine(&pool, &model, &plan)?;
        if provisioned.library.is_empty() {
            // A library's own settings are not read (docs/limits.md): the JDK's keys are
            // for the JDK's lookups.
            mined.config_keys = config_keys::read(&provisioned.jvm.java_home);
        }
        plan.generation.mined = Some(Arc::new(mined));
    }
    interrupt::install().map_err(Error::Signals)?;
    memory.end("setup");
    let (mut rec, generated) = generate(&plan, &model, &pool, progress)?;
    memory.end("generation");
    if generated.reason == Some(StopReason::MissingClasses) {
        return Err(missing_classes(&plan.reference, &rec));
    }
    rec.tests.check()?;
    let mut kinds = header::exception_kinds(&rec, &model, &pool)?;
    let generation_rss_kib: u64 = pool.peak_rss_kib().iter().sum();
    let generation_pool = pool.stats();
    let exec_data = jacoco.as_ref().map(|_| pool.coverage()).transpose()?;
    drop(pool);
    if let Some(n) = plan.generation.output_limit {
        rec.tests.truncate(n);
    }
    let reduction = plan.reduce.then(|| reduce(&mut rec)).transpose()?;
    memory.end("reduction");
    let reruns = reruns(&plan, &provisioned, &config, &mut rec, progress)?;
    let reduction = reduction
        .map(|first| reduce::after_reruns(first, &mut rec, reruns.last_rerun_kept_whole))
        .transpose()?;
    memory.end("reruns");
    if let Some(r) = &reduction {
        progress.reduced(r);
    }
    let expected = header::expected_exceptions(&rec)?;
    kinds.retain(|class, _| expected.contains(class));
    let partial = interrupt::interrupted() || generated.error.is_some();
    let made = Made {
        reference: &plan.reference,
        fingerprint: provisioned.fingerprint.clone(),
        seed: plan.generation.seed,
        classes: plan.classes.clone(),
        packages: plan.packages.clone(),
        options: plan.options.clone(),
        reason: generated.reason,
        report: &reruns,
        reduction,
        partial,
    };
    if rec.tests.is_empty() && !partial {
        return Err(Error::BadInput(no_test(&plan, &rec)));
    }
    let header = header::header(made, &rec, &kinds);
    rec.tests.check()?; // a scratch file that failed since generation, even with no test left
    header::write(&plan.output, &header, &kinds, &rec)?;
    memory.end("writing");
    let coverage = match (&jacoco, &exec_data) {
        (Some(jars), Some(data)) => {
            let folder = coverage::folder_for(&plan.output);
            let library = &provisioned.library;
            Some(coverage::analyse(
                jars,
                &provisioned.jvm,
                library,
                &model,
                data,
                &folder,
            )?)
        }
        _ => None,
    };
    Ok(Recording {
        rec,
        reason: generated.reason,
        error: generated.error,
        generation: generated.elapsed,
        reruns,
        generation_rss_kib,
        generation_pool,
        partial,
        coverage,
        unloadable,
        memory: memory.phases(),
    })
}

/// With `--coverage`, the JaCoCo jars (fetched and checked before any worker starts).
fn coverage_jars(
    store: &TargetStore,
    plan: &Plan,
    provisioned: &Provisioned,
) -> Result<Option<crate::targets::jacoco::JacocoJars>, Error> {
    if !plan.coverage {
        return Ok(None);
    }
    if provisioned.jvm.espresso.is_some() {
        return Err(Error::BadInput(format!(
            "--coverage: target {} runs on Espresso, where JaCoCo's agent cannot run",
            plan.reference
        )));
    }
    let jars =
        crate::targets::jacoco::jacoco_jars(store.cache_dir(), store.echo()).map_err(|e| {
            Error::Coverage(format!(
                "cannot get JaCoCo {}: {e}",
                crate::targets::jacoco::JACOCO_VERSION
            ))
        })?;
    Ok(Some(jars))
}

/// The reference's JVM for generation: with `--coverage`, JaCoCo's agent added.
fn generation_jvm(
    plan: &Plan,
    provisioned: &Provisioned,
    jars: Option<&crate::targets::jacoco::JacocoJars>,
) -> JvmSpec {
    let mut jvm = provisioned.jvm.clone();
    if let Some(jars) = jars {
        let library = !provisioned.library.is_empty();
        let option = coverage::agent_option(jars, &plan.classes, &plan.packages, library);
        jvm.options.push(option);
    }
    jvm
}

/// Why a record kept no regression test, on one line: a suite of none would pass any gate,
/// so none is written.
fn no_test(plan: &Plan, rec: &Recorded) -> String {
    let scope = scope_text(plan);
    let executed = rec.stats.executed;
    if executed == 0 {
        return format!(
            "no test recorded for {scope}: no round of {} sequences finished within the time \
             limit (its calls are slow or their values large); try a smaller --round-size or a \
             longer --time-limit",
            plan.generation.round_size
        );
    }
    let timeouts = match rec.stats.timeouts {
        0 => String::new(),
        n => format!(
            "; {n} timed out (generation gives a call a twentieth of --timeout, and a callable \
             that times out once is not drawn again)"
        ),
    };
    format!(
        "no test recorded for {scope}: none of the {executed} sequences run gave a value that \
         could be checked (each threw, timed out, varied between runs, or was dropped){timeouts}"
    )
}

/// The error that stops a record whose calls needed classes the class path lacks: the
/// first callable's fault.
fn missing_classes(reference: &str, rec: &Recorded) -> Error {
    let (callee, fault) = rec
        .left_out
        .iter()
        .next()
        .map_or(("?", None), |(c, f)| (c.as_str(), Some(f)));
    Error::MissingClasses {
        reference: reference.to_string(),
        missing: fault.map_or("?", |f| f.missing.as_str()).to_string(),
        needer: fault.map_or(callee, |f| f.needer(callee)).to_string(),
    }
}

/// The filtered model of the scope, and the classes left out of it for a class missing from
/// the class path; unknown names and an empty scope are bad input. With no scope given, the
/// scope is every public class in the library's own jars (`library`; the packages they hold
/// are then written as the scope), or for a bare JDK the default one.
fn describe(
    pool: &Pool,
    plan: &mut Plan,
    library: &[PathBuf],
) -> Result<(ApiModel, BTreeMap<String, String>), Error> {
    if plan.classes.is_empty() && plan.packages.is_empty() && !library.is_empty() {
        return describe_library(pool, plan, library);
    }
    if plan.classes.is_empty() && plan.packages.is_empty() {
        (plan.classes, plan.packages) = scope::default_scope();
    }
    let classes = expand_globs(pool, plan)?;
    let described = pool.describe_scope(&classes, &plan.packages, &[])?;
    let unloadable = unloadable(described.missing, plan)?;
    let (model, unknown) = (described.model, described.unknown);
    if let Some(first) = unknown.first() {
        let more = match unknown.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let reference = &plan.reference;
        let first = match first.strip_prefix("tree ") {
            Some(package) => format!("package {package}"),
            None => first.clone(),
        };
        return Err(Error::BadInput(format!(
            "{reference} does not know {first}{more}"
        )));
    }
    Ok((checked(model, plan)?, unloadable))
}

/// The model of every public class in the library's jars; its packages become the scope.
fn describe_library(
    pool: &Pool,
    plan: &mut Plan,
    library: &[PathBuf],
) -> Result<(ApiModel, BTreeMap<String, String>), Error> {
    let described = pool.describe_scope(&[], &[], library)?;
    let unloadable = unloadable(described.missing, plan)?;
    let (model, unknown) = (described.model, described.unknown);
    if let Some(first) = unknown.first() {
        let jar = first.trim_start_matches("jar ");
        return Err(Error::BadInput(format!(
            "{}: no public class in {jar}; name the scope with --classes or --packages",
            plan.reference
        )));
    }
    plan.packages = scope::packages_of(model.classes.keys().chain(unloadable.keys()));
    Ok((checked(model, plan)?, unloadable))
}

/// The classes of the scope (not omitted) that cannot be loaded or described because they
/// need a class missing from the class path. A class the user named (`--classes`, a class
/// list) is an error naming it (exit code 3), as a call that needs one is, unless
/// `--allow-missing-classes` leaves it out. A class a package tree, a glob or a library's
/// default scope brought in is left out and counted: what such classes need is usually an
/// optional dependency of the library, which Maven does not resolve.
fn unloadable(
    missing: BTreeMap<String, String>,
    plan: &Plan,
) -> Result<BTreeMap<String, String>, Error> {
    let missing: BTreeMap<String, String> = missing
        .into_iter()
        .filter(|(class, _)| !plan.omit.omits_class(class))
        .collect();
    let named = missing
        .iter()
        .find(|(class, _)| plan.classes.iter().any(|c| c == *class));
    match named {
        Some((class, absent)) if !plan.generation.allow_missing_classes => {
            Err(Error::MissingClasses {
                reference: plan.reference.clone(),
                missing: absent.clone(),
                needer: class.clone(),
            })
        }
        _ => Ok(missing),
    }
}

/// The class names of `plan`'s classes, each glob (`org.example.*Builder`) replaced by the
/// classes it matches (described from its package); a glob matching nothing is bad input.
fn expand_globs(pool: &Pool, plan: &Plan) -> Result<Vec<String>, Error> {
    let (globs, mut classes): (Vec<&String>, Vec<&String>) =
        plan.classes.iter().partition(|c| scope::is_class_glob(c));
    let mut names: Vec<String> = classes.drain(..).cloned().collect();
    if globs.is_empty() {
        return Ok(names);
    }
    let roots = globs
        .iter()
        .map(|g| scope::glob_root(g).map_err(Error::BadInput))
        .collect::<Result<Vec<_>, _>>()?;
    let (under, _) = pool.describe(&[], &roots)?;
    for pattern in globs {
        let before = names.len();
        names.extend(
            under
                .classes
                .keys()
                .filter(|name| scope::glob(pattern, name))
                .cloned(),
        );
        if names.len() == before {
            return Err(Error::BadInput(format!(
                "{} has no public class matching {pattern}",
                plan.reference
            )));
        }
    }
    Ok(names)
}

/// The model filtered by the omit list; an empty one, or observer patterns naming a class
/// outside it, are bad input.
fn checked(model: ApiModel, plan: &Plan) -> Result<ApiModel, Error> {
    if let (Some(path), Some((pattern, class))) = (
        plan.observers_file.as_ref(),
        crate::observe::unknown_class(&plan.generation.user_observers, &model),
    ) {
        return Err(Error::BadInput(format!(
            "{}: observer pattern {pattern}: class {class} is not in scope",
            path.display()
        )));
    }
    let model = filter_model(&model, &plan.omit, plan.skip_deprecated);
    if model.callable_count() == 0 && model.classes.values().all(|c| c.fields.is_empty()) {
        return Err(Error::BadInput(format!(
            "empty scope: nothing public to call in {}",
            scope_text(plan)
        )));
    }
    Ok(model)
}

/// The model without omitted classes and members, and with `skip_deprecated`, without
/// anything deprecated for removal.
pub(crate) fn filter_model(model: &ApiModel, omit: &OmitList, skip_deprecated: bool) -> ApiModel {
    let mut out = omit.filter(model);
    if !skip_deprecated {
        return out;
    }
    out.classes.retain(|_, c| !c.deprecated_for_removal);
    for c in out.classes.values_mut() {
        c.constructors.retain(|m| !m.deprecated_for_removal);
        c.methods.retain(|m| !m.deprecated_for_removal);
    }
    out
}

/// Classes asked for their constants in one request.
const CONSTANTS_BATCH: usize = 100;

/// The constants of the class files of every class in scope (see [`crate::generate::mined`]).
fn mine(pool: &Pool, model: &ApiModel, plan: &Plan) -> Result<Mined, PoolError> {
    let names: Vec<String> = model.classes.keys().cloned().collect();
    let mut raw = BTreeMap::new();
    for chunk in names.chunks(CONSTANTS_BATCH) {
        raw.extend(pool.constants(chunk)?);
    }
    Ok(mined::mine(&raw, &plan.generation.literals))
}

fn scope_text(plan: &Plan) -> String {
    let mut all: Vec<&str> = plan.classes.iter().map(String::as_str).collect();
    all.extend(plan.packages.iter().map(String::as_str));
    all.join(", ")
}

/// How generation ended.
struct Generated {
    reason: Option<StopReason>,
    error: Option<PoolError>,
    elapsed: Duration,
}

fn generate(
    plan: &Plan,
    model: &ApiModel,
    pool: &Pool,
    progress: &mut dyn Progress,
) -> Result<(Recorded, Generated), Error> {
    let began = Instant::now();
    let mut generator = Generator::new(model, plan.generation.clone())
        .map_err(|e| Error::BadInput(format!("{e}: {}", scope_text(plan))))?;
    generator.keep_tests_in(&crate::atomic::folder(&plan.output))?;
    progress.generating(plan.generation.time_limit);
    let outcome = generator.run(pool, &interrupt::FIRST, |p| progress.generated(p));
    let (reason, error) = match outcome {
        Ok(r) => (Some(r), None),
        Err(e) => (None, Some(e)),
    };
    progress.generation_done(generator.test_count(), reason);
    let generated = Generated {
        reason,
        error,
        elapsed: began.elapsed(),
    };
    Ok((generator.finish(), generated))
}

/// HotSpot's identity hash from a global sequence instead of the per-thread xor-shift: the
/// same JVM and the same calls give other hashes, so hash-derived values show as unstable.
const IDENTITY_HASH_SHIFT: &[&str] = &["-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=3"];

/// How far rerun `i`'s wall clock is moved into the past: `i + 1` times 400 days, 7 hours,
/// 13 minutes and 17.5 seconds, so the year, the day of the week and of the month, the hour,
/// the minute and the second all differ from the record's. Into the past, because a
/// deadline computed from the moved clock has then passed already: a wait on it ends at
/// once rather than a year later.
fn rerun_clock_shift_ms(i: usize) -> i64 {
    const SHIFT_MS: i64 = ((400 * 24 + 7) * 60 + 13) * 60_000 + 17_500;
    -(i as i64 + 1) * SHIFT_MS
}

/// How many times faster than real time a rerun's wall clock runs: a microsecond between two
/// calls reads as a millisecond, so a value that depends on whether a millisecond (or a
/// second) passed between them — an object's age, a deadline just reached — changes and
/// is dropped. Generation's warm workers take microseconds between calls and replay's cold
/// ones can take milliseconds, so such a value is otherwise the same in every run of a
/// record and other in replay. Only wall-clock readings run faster; sleeps, timed waits and
/// `System.nanoTime()` keep real time (a deadline on the wall clock comes this much sooner).
const RERUN_CLOCK_RATE: u32 = 1000;

/// The reference's pools for the reruns: rerun `i` batches `64 << (i % 4)` sequences per
/// worker, its wall clock is moved ([`rerun_clock_shift_ms`]) and runs faster
/// ([`RERUN_CLOCK_RATE`]), and every other rerun but
/// the last draws identity hashes another way ([`shifts_identity_hashes`]).
struct RerunLane<'a> {
    name: &'a str,
    jvm: &'a JvmSpec,
    config: &'a PoolConfig,
    reruns: usize,
}

/// Whether rerun `i` of `reruns` draws identity hashes another way: the first and every
/// other one after it, but never the last of several, which runs the suite as replay will
/// and so must hash as replay does. HotSpot's identity hashes come from a per-thread
/// sequence with a fixed seed, so a value ordered by them (an array built from a map keyed
/// by classes) depends on how many hashes the tests before it drew: the same in a JVM with
/// the same history, other in one that hashes another way.
fn shifts_identity_hashes(i: usize, reruns: usize) -> bool {
    reruns == 1 || (i.is_multiple_of(2) && i + 1 < reruns)
}

impl Lane for RerunLane<'_> {
    fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
        Ok(Box::new(Pool::start(
            self.name,
            self.jvm.clone(),
            self.config.clone(),
        )?))
    }

    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
        let config = PoolConfig {
            jobs: 1,
            ..self.config.clone()
        };
        Ok(Box::new(Pool::start(self.name, self.jvm.clone(), config)?))
    }

    fn jobs(&self) -> usize {
        self.config.jobs.max(1)
    }

    fn start_run(&self, i: usize) -> Result<Box<dyn Executor>, PoolError> {
        let mut config = self.config.clone();
        config.batch = 64 << (i % 4);
        self.start_run_with(i, config)
    }

    fn start_run_single(&self, i: usize) -> Result<Box<dyn Executor>, PoolError> {
        let config = PoolConfig {
            jobs: 1,
            ..self.config.clone()
        };
        self.start_run_with(i, config)
    }
}

impl RerunLane<'_> {
    /// A pool for rerun `i` with `config`: its clock moved, and every other rerun's
    /// identity hashes drawn another way.
    fn start_run_with(&self, i: usize, config: PoolConfig) -> Result<Box<dyn Executor>, PoolError> {
        let mut jvm = self.jvm.clone();
        jvm.clock_shift_ms = rerun_clock_shift_ms(i);
        jvm.clock_rate = RERUN_CLOCK_RATE;
        if shifts_identity_hashes(i, self.reruns) {
            // Values derived from identity hashes (`Object.toString` text appended
            // somewhere, its length, an order) change and go.
            let mut hashed = jvm.clone();
            hashed
                .options
                .extend(IDENTITY_HASH_SHIFT.iter().map(|o| o.to_string()));
            if let Ok(pool) = Pool::start(self.name, hashed, config.clone()) {
                return Ok(Box::new(pool));
            }
        }
        Ok(Box::new(Pool::start(self.name, jvm, config)?))
    }
}

/// Reruns the tests on fresh pools of a [`RerunLane`].
fn reruns(
    plan: &Plan,
    provisioned: &Provisioned,
    config: &PoolConfig,
    rec: &mut Recorded,
    progress: &mut dyn Progress,
) -> Result<RerunReport, Error> {
    let tests = rec.tests.len();
    progress.rerunning(plan.reruns, tests);
    let began = Instant::now();
    let lane = RerunLane {
        name: &plan.reference,
        jvm: &provisioned.jvm,
        config,
        reruns: plan.reruns,
    };
    let mut between = |rec: &mut Recorded| {
        if plan.reduce {
            reduce(rec)?;
        }
        Ok(())
    };
    let report = remove_flakes(
        rec,
        plan.reruns,
        plan.generation.seed,
        &lane,
        &interrupt::SECOND,
        &mut between,
        |i, done, of| progress.rerun(i, done, of, began.elapsed()),
    )?;
    progress.reruns_done(report.reruns_done);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::shifts_identity_hashes;

    #[test]
    fn the_last_of_several_reruns_hashes_as_replay_does() {
        let shifts = |reruns| (0..reruns).map(move |i| shifts_identity_hashes(i, reruns));
        assert_eq!(shifts(1).collect::<Vec<_>>(), [true]);
        assert_eq!(shifts(2).collect::<Vec<_>>(), [true, false]);
        assert_eq!(shifts(3).collect::<Vec<_>>(), [true, false, false]);
        assert_eq!(shifts(4).collect::<Vec<_>>(), [true, false, true, false]);
    }
}
