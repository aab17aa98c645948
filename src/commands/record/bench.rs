//! `difftest bench record`: one full record on the default JDK scope into a temporary
//! folder, then a load of the suite it wrote; prints the figures docs/benchmarks.md tracks.

use super::record;
use crate::cli::{GlobalArgs, PoolArgs, RecordArgs};
use crate::commands::bench_batch::{java_util_batch, raw_run};
use crate::commands::{pool_config, start_pool, store};
use crate::exit::Exit;
use crate::suite::Suite;
use clap::Parser;
use std::time::Instant;

/// `difftest record`'s flags with clap's defaults, so the benchmark records as a user does.
#[derive(Parser)]
struct Defaults {
    #[command(flatten)]
    record: RecordArgs,
}

pub fn run(
    global: &GlobalArgs,
    target: String,
    time_limit: f64,
    reruns: usize,
    pool: PoolArgs,
) -> anyhow::Result<Exit> {
    let dir = tempfile::tempdir()?;
    let output = dir.path().join("bench.yaml");
    let mut args = Defaults::try_parse_from(["record", &format!("--impl={target}")])?.record;
    args.time_limit = time_limit;
    args.reruns = reruns;
    args.output = Some(output.clone());
    args.no_progress = true;
    args.pool = pool.clone();
    let raw = raw_rate(global, &target, &pool)?;
    let jobs = pool_config(&pool)?.jobs;
    let outcome = record(global, &args)?;
    let began = Instant::now();
    let suite = Suite::load(&output)?;
    let load = began.elapsed();
    let bytes = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
    let secs = outcome.generation.as_secs_f64().max(1e-3);
    outln!("target:                {target}");
    outln!(
        "sequences executed/s:  {:.0}",
        outcome.executed as f64 / secs
    );
    let statements = outcome.statements as f64 / secs;
    outln!(
        "statements executed/s: {statements:.0} in generation, {raw:.0} raw (bench workers' \
         batch on as many workers): {:.1} %",
        100.0 * statements / raw.max(1.0)
    );
    let workers = &outcome.generation_pool;
    outln!(
        "generation workers:    {} started, {} timeouts, {} crashes; busy {:.0} % of {} × {:.1} s; \
         the generator waited {:.1} s for them",
        workers.workers_started,
        workers.timeouts,
        workers.crashes,
        100.0 * workers.busy_ms as f64 / 1000.0 / (secs * jobs as f64),
        jobs,
        secs,
        outcome.waited.as_secs_f64()
    );
    outln!(
        "regression tests kept: {} (+{} error-revealing)",
        outcome.tests,
        outcome.errors
    );
    outln!(
        "{reruns} reruns:            {:.1} s",
        outcome.reruns.as_secs_f64()
    );
    outln!("peak RSS, all:         {} MiB", outcome.peak_rss_kib / 1024);
    outln!(
        "suite:                 {} MiB, loads in {:.2} s ({} tests)",
        bytes >> 20,
        load.as_secs_f64(),
        suite.tests.len()
    );
    Ok(Exit::Success)
}

/// Statements per second of `bench workers`' batch on a pool like the record's.
fn raw_rate(global: &GlobalArgs, target: &str, pool: &PoolArgs) -> anyhow::Result<f64> {
    let (_, workers) = start_pool(&store(global)?, target, pool_config(pool)?)?;
    let (statements, secs) = raw_run(&workers, &java_util_batch(20_000))?;
    Ok(statements as f64 / secs)
}
