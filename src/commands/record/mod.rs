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
use crate::plural::plural;
use crate::usage::{self_cpu_secs, self_peak_rss_kib};
use std::path::Path;
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

/// Records a suite; writes it even when interrupted or when the workers fail.
pub fn record(global: &GlobalArgs, args: &RecordArgs) -> anyhow::Result<Outcome> {
    let plan = setup::plan(args)?;
    let output = plan.output.clone();
    let store = store(global)?;
    let mut config = pool_config(&args.pool)?;
    config.max_value_bytes = Some(args.max_value_bytes);
    let mut shown = progress::Shown::new(&plan, args.no_progress);
    let recording = run_record(&store, plan, config, &mut shown).map_err(|e| e.into_anyhow())?;
    summary(&output, &recording, &shown);
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

/// `12 callables left out: they need classes missing from the class path, e.g. X`, when
/// `--allow-missing-classes` left any out.
fn left_out_line(rec: &crate::generate::Recorded) -> Option<String> {
    let (_, first) = rec.left_out.iter().next()?;
    let n = rec.left_out.len();
    let (noun, verb) = if n == 1 {
        ("callable", "it needs a class")
    } else {
        ("callables", "they need classes")
    };
    Some(format!(
        "{n} {noun} left out: {verb} missing from the class path, e.g. {}",
        first.missing
    ))
}

/// The summary, in pipeline order: generated → reduced → reran → reduced again → written,
/// each step's count of tests the next one's starting count.
fn summary(output: &Path, done: &Recording, shown: &progress::Shown) {
    let (rec, r) = (&done.rec, &done.reruns);
    let s = &rec.stats;
    let secs = done.generation.as_secs_f64().max(1e-3);
    println!(
        "generated: {} in {:.1} s ({:.0}/s): {} kept, {} of them lexically redundant; {} in {}, \
         pool of {}, {} from {}",
        plural(s.executed as usize, "sequence"),
        secs,
        s.executed as f64 / secs,
        plural((s.kept_normal + s.kept_exceptional) as usize, "test"),
        rec.redundant,
        plural(s.violations as usize, "contract violation"),
        plural(rec.error_groups, "group"),
        plural(rec.pool_values, "value"),
        plural(rec.mined_values, "mined literal"),
        plural(rec.mined_classes, "class"),
    );
    let rerun_from = shown.rerun_tests.or(shown.reduction.map(|d| d.after));
    if let (Some(d), Some(kept)) = (shown.reduction, rerun_from) {
        println!(
            "reduced: {} → {kept} that observe every behaviour (--keep-all keeps every test)",
            plural(d.before, "test"),
        );
    }
    if let Some(from) = shown.rerun_tests {
        reran(r, from);
    }
    if let (Some(d), Some(from)) = (shown.reduction, shown.rerun_tests) {
        let left = from.saturating_sub(r.dropped_tests as usize);
        if left != d.after {
            println!(
                "reduced again: {left} → {} that observe all {} distinct behaviours",
                plural(d.after, "test"),
                d.behaviours
            );
        }
    }
    if let Some(line) = left_out_line(rec) {
        println!("{line}");
    }
    let note = if done.partial {
        " (partial: interrupted)"
    } else {
        ""
    };
    println!(
        "wrote {}: {}, {} error-revealing{note}",
        output.display(),
        plural(rec.tests.len(), "regression test"),
        rec.errors.len(),
    );
    if let Some(rows) = &done.coverage {
        let folder = crate::pipeline::coverage::folder_for(output);
        println!(
            "branch coverage of the scope reached by generation (JaCoCo; data in {}):",
            folder.display()
        );
        for line in crate::pipeline::coverage::coverage_lines(rows) {
            println!("{line}");
        }
        let left = crate::pipeline::coverage::UNMEASURED;
        println!("  ({left} and its subpackages are never measured: JaCoCo's agent runs on them)");
        if rows.iter().all(|r| r.covered == 0) {
            println!(
                "  warning: the agent recorded no branch at all: its instrumentation failed on \
                 this scope (see docs/record.md#coverage)"
            );
        }
    }
    println!(
        "peak RSS: difftest {} MiB (CPU {:.1} s), workers {} MiB while generating, {} MiB while \
         rerunning",
        self_peak_rss_kib() / 1024,
        self_cpu_secs(),
        done.generation_rss_kib / 1024,
        r.workers_peak_kib / 1024,
    );
}

/// `reran: …` and the curve of unstable values first found per rerun.
fn reran(r: &crate::flakes::RerunReport, from: usize) {
    let unstable: Vec<String> = r
        .most_unstable(5)
        .into_iter()
        .map(|(m, n)| format!("{m} ({n})"))
        .collect();
    println!(
        "reran: {} {} in {:.1} s: dropped {} and {}, {} derived from them; {} left with \
         nothing to check → {}; most unstable: {}",
        plural(from, "test"),
        plural(r.reruns_done, "time"),
        r.elapsed.as_secs_f64(),
        plural(r.dropped_checks as usize, "unstable check"),
        plural(r.dropped_observations as usize, "observation"),
        r.dropped_derived,
        plural(r.dropped_tests as usize, "test"),
        from.saturating_sub(r.dropped_tests as usize),
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
}
