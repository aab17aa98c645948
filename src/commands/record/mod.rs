//! `difftest record --impl REF`: describes the scope on the reference, generates sequences
//! for the time budget (or until the output limit), reruns the suite on fresh workers to
//! drop unstable values, and writes `oracles/REF.yaml` atomically. Ctrl-C stops generation
//! at once (the calls still running are killed, that round dropped) and still reruns and
//! writes what was kept, marked `partial: true`; a second one (or SIGTERM) also stops the
//! reruns at once; the exit code of an interrupted record is 130. The time limit is a hard
//! deadline too: a round still running when it passes is cut short the same way.

#[cfg(feature = "bench")]
pub mod bench;
mod output;
mod progress;
mod setup;

use super::{pool_config, store};
use crate::cli::{GlobalArgs, RecordArgs};
use crate::exit::{Exit, bad_input};
use crate::generate::mined::{self, Mined};
use crate::generate::reduce::reduce;
use crate::generate::{Executor, Generator, Recorded, StopReason};
use crate::interrupt;
use crate::model::ApiModel;
use crate::pool::{Pool, PoolConfig, PoolError};
use crate::rerun::{RerunReport, remove_flakes};
use crate::target::Provisioned;
use setup::Plan;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What generation gave.
struct Generated {
    rec: Recorded,
    reason: Option<StopReason>,
    error: Option<PoolError>,
    elapsed: Duration,
}

/// Numbers of one record, for the summary and `difftest bench record`.
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
pub struct Outcome {
    pub executed: u64,
    pub generation: Duration,
    pub tests: usize,
    pub errors: usize,
    pub reruns: Duration,
    /// This process's peak plus the larger of the workers' peaks in either phase, in KiB.
    pub peak_rss_kib: u64,
    pub partial: bool,
}

pub fn run(global: &GlobalArgs, args: RecordArgs) -> anyhow::Result<Exit> {
    let outcome = record(global, &args)?;
    if outcome.partial {
        std::process::exit(130);
    }
    Ok(Exit::Success)
}

/// Records a suite; writes it even when interrupted or when the workers fail.
pub fn record(global: &GlobalArgs, args: &RecordArgs) -> anyhow::Result<Outcome> {
    let mut plan = setup::plan(args)?;
    let store = store(global)?;
    let mut config = pool_config(&args.pool)?;
    let spec = store.load(&args.reference)?;
    let provisioned = store.provision(&spec)?;
    // The first Ctrl-C (or SIGTERM) kills the calls running in generation at once…
    config.abort = Some(&interrupt::FIRST);
    let pool = Pool::start(&args.reference, provisioned.jvm.clone(), config.clone())?;
    // …the second those of a rerun.
    config.abort = Some(&interrupt::SECOND);
    let model = describe(&pool, &args.reference, &plan)?;
    if !args.no_mined_literals {
        plan.generation.mined = Some(Arc::new(mine(&pool, &model, &plan)?));
    }
    interrupt::install().map_err(|e| anyhow::anyhow!("cannot handle Ctrl-C: {e}"))?;
    let mut generated = generate(args, &plan, &model, &pool)?;
    let mut kinds = output::exception_kinds(&generated.rec, &model, &pool);
    let generation_rss: u64 = pool.peak_rss_kib().iter().sum();
    drop(pool);
    if let Some(n) = plan.generation.output_limit {
        generated.rec.tests.truncate(n);
    }
    let reduction = args.reduce.then(|| reduce(&mut generated.rec));
    if let Some(r) = reduction {
        println!(
            "reduced: {} of {} tests observe all {} distinct behaviours; the rest dropped",
            r.after, r.before, r.behaviours
        );
    }
    let report = reruns(args, &provisioned, &config, &mut generated.rec)?;
    let expected = output::expected_exceptions(&generated.rec);
    kinds.retain(|class, _| expected.contains(class));
    let partial = interrupt::interrupted() || generated.error.is_some();
    let made = output::Made {
        reference: &args.reference,
        fingerprint: provisioned.fingerprint.clone(),
        seed: args.seed,
        classes: plan.classes.clone(),
        packages: plan.packages.clone(),
        options: plan.options.clone(),
        reason: generated.reason,
        report: &report,
        reduction,
        partial,
    };
    let header = output::header(made, &generated.rec, &kinds);
    output::write(&plan.output, &header, &kinds, &generated.rec)?;
    summary(&plan, &generated, &report, generation_rss, partial);
    if let Some(e) = generated.error {
        return Err(e.into());
    }
    Ok(Outcome {
        executed: generated.rec.stats.executed,
        generation: generated.elapsed,
        tests: generated.rec.tests.len(),
        errors: generated.rec.errors.len(),
        reruns: report.elapsed,
        peak_rss_kib: self_peak_rss_kib() + generation_rss.max(report.workers_peak_kib),
        partial,
    })
}

/// The filtered model of the scope; unknown names and an empty scope are bad input.
fn describe(pool: &Pool, reference: &str, plan: &Plan) -> anyhow::Result<ApiModel> {
    let (model, unknown) = pool.describe(&plan.classes, &plan.packages)?;
    if let Some(first) = unknown.first() {
        let more = match unknown.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        return Err(bad_input(format!(
            "{reference} does not know {first}{more}"
        )));
    }
    if let (Some(path), Some((pattern, class))) = (
        plan.observers_file.as_ref(),
        crate::observe::unknown_class(&plan.generation.user_observers, &model),
    ) {
        return Err(bad_input(format!(
            "{}: observer pattern {pattern}: class {class} is not in scope",
            path.display()
        )));
    }
    let model = setup::filter_model(&model, &plan.omit, plan.skip_deprecated);
    if model.callable_count() == 0 && model.classes.values().all(|c| c.fields.is_empty()) {
        return Err(bad_input(format!(
            "empty scope: nothing public to call in {}",
            scope_text(plan)
        )));
    }
    Ok(model)
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

fn generate(
    args: &RecordArgs,
    plan: &Plan,
    model: &ApiModel,
    pool: &Pool,
) -> anyhow::Result<Generated> {
    let began = Instant::now();
    let mut generator = Generator::new(model, plan.generation.clone())
        .map_err(|e| bad_input(format!("{e}: {}", scope_text(plan))))?;
    let limit = plan.generation.time_limit;
    let phase = progress::generation(limit, args.no_progress);
    let outcome = generator.run(pool, &interrupt::FIRST, |p| {
        progress::generated(&phase, p, limit)
    });
    phase.finish(&format!("{} tests kept", generator.test_count()));
    let (reason, error) = match outcome {
        Ok(r) => (Some(r), None),
        Err(e) => (None, Some(e)),
    };
    match reason {
        Some(StopReason::Interrupted) if interrupt::SECOND.load(Ordering::SeqCst) => {
            eprintln!("difftest: interrupted; writing the tests kept so far without reruns")
        }
        Some(StopReason::Interrupted) => eprintln!(
            "difftest: interrupted; rerunning and writing the tests kept so far \
             (Ctrl-C again to skip the reruns)"
        ),
        Some(StopReason::TimeLimit) if plan.generation.output_limit.is_some() => eprintln!(
            "difftest: warning: the time limit came before the output limit; this suite \
             depends on the machine's speed and is not reproducible byte for byte"
        ),
        Some(StopReason::Exhausted) => {
            eprintln!("difftest: no new sequences could be drawn; the scope is exhausted")
        }
        _ => {}
    }
    Ok(Generated {
        rec: generator.finish(),
        reason,
        error,
        elapsed: began.elapsed(),
    })
}

/// HotSpot's identity hash from a global sequence instead of the per-thread xor-shift: the
/// same JVM and the same calls give other hashes, so hash-derived values show as unstable.
const IDENTITY_HASH_SHIFT: &[&str] = &["-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=3"];

fn reruns(
    args: &RecordArgs,
    provisioned: &Provisioned,
    config: &PoolConfig,
    rec: &mut Recorded,
) -> anyhow::Result<RerunReport> {
    let tests = rec.tests.len();
    let phase = progress::reruns(args.reruns, tests, args.no_progress);
    let began = Instant::now();
    let mut factory = |i: usize| -> Result<Box<dyn Executor>, PoolError> {
        let mut config = config.clone();
        config.batch = 64 << (i % 4);
        if i % 2 == 1 {
            // Every other rerun draws identity hashes another way, so values derived from
            // them (`Object.toString` text appended somewhere, its length) change and go.
            let mut jvm = provisioned.jvm.clone();
            jvm.options
                .extend(IDENTITY_HASH_SHIFT.iter().map(|o| o.to_string()));
            if let Ok(pool) = Pool::start(&args.reference, jvm, config.clone()) {
                return Ok(Box::new(pool));
            }
        }
        let pool = Pool::start(&args.reference, provisioned.jvm.clone(), config)?;
        Ok(Box::new(pool))
    };
    let report = remove_flakes(
        rec,
        args.reruns,
        args.seed,
        &mut factory,
        &interrupt::SECOND,
        |i, done| progress::rerun(&phase, i, args.reruns, tests, done, began.elapsed()),
    )?;
    phase.finish(&format!("{} reruns done", report.reruns_done));
    Ok(report)
}

fn summary(plan: &Plan, g: &Generated, r: &RerunReport, generation_rss: u64, partial: bool) {
    let s = &g.rec.stats;
    let secs = g.elapsed.as_secs_f64().max(1e-3);
    println!(
        "generated: {} sequences in {:.1} s ({:.0}/s), kept {} ({} lexically redundant), \
         {} contract violations in {} groups, pool of {} values, {} mined literals from {} \
         classes",
        s.executed,
        secs,
        s.executed as f64 / secs,
        s.kept_normal + s.kept_exceptional,
        g.rec.redundant,
        s.violations,
        g.rec.error_groups,
        g.rec.pool_values,
        g.rec.mined_values,
        g.rec.mined_classes,
    );
    let unstable: Vec<String> = r
        .most_unstable(5)
        .into_iter()
        .map(|(m, n)| format!("{m} ({n})"))
        .collect();
    println!(
        "reruns: {} in {:.1} s; dropped {} unstable checks and {} observations, {} derived \
         from them, {} tests; most unstable: {}",
        r.reruns_done,
        r.elapsed.as_secs_f64(),
        r.dropped_checks,
        r.dropped_observations,
        r.dropped_derived,
        r.dropped_tests,
        if unstable.is_empty() {
            "none".to_string()
        } else {
            unstable.join(", ")
        },
    );
    if !r.new_per_rerun.is_empty() {
        let per: Vec<String> = r.new_per_rerun.iter().map(u64::to_string).collect();
        println!(
            "unstable values first found by rerun 1, 2, …: {}",
            per.join(", ")
        );
    }
    let own = self_peak_rss_kib();
    println!(
        "peak RSS: difftest {} MiB (CPU {:.1} s), workers {} MiB while generating, {} MiB while \
         rerunning",
        own / 1024,
        self_cpu_secs(),
        generation_rss / 1024,
        r.workers_peak_kib / 1024,
    );
    let note = if partial {
        " (partial: interrupted)"
    } else {
        ""
    };
    println!(
        "wrote {}: {} regression tests, {} error-revealing{note}",
        plan.output.display(),
        g.rec.tests.len(),
        g.rec.errors.len(),
    );
}

/// CPU time (user and system) this process used, in seconds.
fn self_cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (ticks(11) + ticks(12)) / hz
}

/// This process's peak RSS in KiB.
fn self_peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
