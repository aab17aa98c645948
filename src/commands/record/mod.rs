//! `difftest record --impl REF`: turns the flags into a plan for [`crate::pipeline::record`]
//! (describe, generate, rerun, reduce, write `oracles/REF.yaml.zst`), shows its progress, and prints
//! the summary. An interrupted record still writes what was kept, marked `partial: true`,
//! and exits with 130.

#[cfg(feature = "bench")]
pub mod bench;
mod progress;
pub(crate) mod setup;
mod suite_options;
mod summary;
pub(crate) use progress::Shown;
pub(crate) use summary::{summary, unloadable_line};

use super::{pool_config, store};
use crate::cli::{GlobalArgs, RecordArgs};
use crate::exit::Exit;
use crate::pipeline::record::{Recording, record as run_record};
use crate::usage::self_peak_rss_kib;
use std::time::Duration;

/// Numbers of one record, for the summary and `difftest bench record`.
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
pub struct Outcome {
    pub executed: u64,
    /// Statements those sequences held, prefixes included.
    pub statements: u64,
    /// Time generation waited for the workers' results.
    pub waited: Duration,
    /// The generation pool's workers started, timeouts and crashes.
    pub generation_pool: crate::pool::PoolStats,
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
    Ok(if outcome.partial {
        Exit::Interrupted
    } else {
        Exit::Success
    })
}

/// The pools of a record: the pool flags, values capped at `--max-value-bytes`, and plain
/// objects answered as `Class@0` (the header says both).
pub fn pool(args: &RecordArgs) -> anyhow::Result<crate::pool::PoolConfig> {
    let mut config = pool_config(&args.pool)?;
    config.max_value_bytes = Some(args.max_value_bytes);
    config.plain_class_text = true;
    Ok(config)
}

/// Records a suite; writes it even when interrupted or when the workers fail.
pub fn record(global: &GlobalArgs, args: &RecordArgs) -> anyhow::Result<Outcome> {
    let plan = setup::plan(args)?;
    let output = plan.output.clone();
    let store = store(global)?;
    let config = pool(args)?;
    let mut shown = progress::Shown::new(&plan, args.no_progress);
    let recording = run_record(&store, plan, config, &mut shown).map_err(|e| e.into_anyhow())?;
    summary::summary(&output, &recording, &shown, global.verbose > 0);
    let Recording {
        rec,
        error,
        generation,
        reruns,
        generation_rss_kib,
        generation_pool,
        partial,
        ..
    } = recording;
    if let Some(e) = error {
        return Err(e.into());
    }
    Ok(Outcome {
        executed: rec.stats.executed,
        statements: rec.stats.statements,
        waited: rec.stats.waited,
        generation_pool,
        generation,
        tests: rec.tests.len(),
        errors: rec.errors.len(),
        reruns: reruns.elapsed,
        peak_rss_kib: self_peak_rss_kib() + generation_rss_kib.max(reruns.workers_peak_kib),
        partial,
    })
}
