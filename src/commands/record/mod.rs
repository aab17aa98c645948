//! `difftest record --impl REF`: turns the flags into a plan for [`crate::pipeline::record`]
//! (describe, generate, rerun, reduce, write `oracles/REF.yaml.zst`), shows its progress, and prints
//! the summary. An interrupted record still writes what was kept, marked `partial: true`,
//! and exits with 130.

#[cfg(feature = "bench")]
pub mod bench;
mod progress;
mod setup;

use super::{pool_config, store};
use crate::cli::{GlobalArgs, RecordArgs};
use crate::exit::Exit;
use crate::pipeline::record::{Recording, record as run_record};
use crate::usage::{self_cpu_secs, self_peak_rss_kib};
use std::path::Path;
use std::time::Duration;

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
    Ok(if outcome.partial {
        Exit::Interrupted
    } else {
        Exit::Success
    })
}

/// Records a suite; writes it even when interrupted or when the workers fail.
pub fn record(global: &GlobalArgs, args: &RecordArgs) -> anyhow::Result<Outcome> {
    let plan = setup::plan(args)?;
    let output = plan.output.clone();
    let store = store(global)?;
    let mut config = pool_config(&args.pool)?;
    config.max_value_bytes = Some(args.max_value_bytes);
    let mut shown = progress::Shown::new(&plan, args.no_progress);
    let recording = run_record(&store, plan, config, &mut shown).map_err(|e| e.into_anyhow())?;
    summary(&output, &recording);
    let Recording {
        rec,
        error,
        generation,
        reruns,
        generation_rss_kib,
        partial,
        ..
    } = recording;
    if let Some(e) = error {
        return Err(e.into());
    }
    Ok(Outcome {
        executed: rec.stats.executed,
        generation,
        tests: rec.tests.len(),
        errors: rec.errors.len(),
        reruns: reruns.elapsed,
        peak_rss_kib: self_peak_rss_kib() + generation_rss_kib.max(reruns.workers_peak_kib),
        partial,
    })
}

fn summary(output: &Path, done: &Recording) {
    let (rec, r) = (&done.rec, &done.reruns);
    let s = &rec.stats;
    let secs = done.generation.as_secs_f64().max(1e-3);
    println!(
        "generated: {} sequences in {:.1} s ({:.0}/s), kept {} ({} lexically redundant), \
         {} contract violations in {} groups, pool of {} values, {} mined literals from {} \
         classes",
        s.executed,
        secs,
        s.executed as f64 / secs,
        s.kept_normal + s.kept_exceptional,
        rec.redundant,
        s.violations,
        rec.error_groups,
        rec.pool_values,
        rec.mined_values,
        rec.mined_classes,
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
    println!(
        "peak RSS: difftest {} MiB (CPU {:.1} s), workers {} MiB while generating, {} MiB while \
         rerunning",
        self_peak_rss_kib() / 1024,
        self_cpu_secs(),
        done.generation_rss_kib / 1024,
        r.workers_peak_kib / 1024,
    );
    let note = if done.partial {
        " (partial: interrupted)"
    } else {
        ""
    };
    println!(
        "wrote {}: {} regression tests, {} error-revealing{note}",
        output.display(),
        rec.tests.len(),
        rec.errors.len(),
    );
}
