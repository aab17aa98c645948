//! `difftest bench workers`: start-up time, throughput and memory of the worker pool on
//! real targets. Numbers are ratios measured in one run on one machine; see docs/benchmarks.md.

use super::bench_batch::{java_util_batch, raw_run};
use super::{pool_config, start_pool, store};
use crate::cli::{BenchCommand, GlobalArgs};
use crate::exit::Exit;
use crate::message::SeqRequest;
use crate::pool::Pool;
use std::time::Instant;

pub fn run(global: &GlobalArgs, cmd: BenchCommand) -> anyhow::Result<Exit> {
    match cmd {
        BenchCommand::Record {
            target,
            time_limit,
            reruns,
            pool,
        } => super::record::bench::run(global, target, time_limit, reruns, pool),
        BenchCommand::Export {
            suite,
            junit,
            javac,
            pool,
        } => super::bench_export::bench(global, &suite, &junit, javac, &pool),
        BenchCommand::Workers {
            targets,
            sequences,
            pool,
        } => {
            let store = store(global)?;
            let batch = java_util_batch(sequences);
            outln!("batch: {sequences} sequences of 10 statements over java.util");
            for name in &targets {
                for jobs in [1usize, 2] {
                    let mut config = pool_config(&pool)?;
                    config.jobs = jobs;
                    let began = Instant::now();
                    let (_, p) = start_pool(&store, name, config)?;
                    let first_ms = began.elapsed().as_millis();
                    measure(name, jobs, first_ms, &p, &batch)?;
                }
            }
            Ok(Exit::Success)
        }
        BenchCommand::Replay(args) => super::bench_replay::run(global, &args),
        BenchCommand::Attribute(args) => super::bench_attribute::run(global, &args),
        BenchCommand::Detection(args) => super::bench_detection::run(global, &args),
    }
}

fn measure(
    name: &str,
    jobs: usize,
    first_ms: u128,
    pool: &Pool,
    batch: &[SeqRequest],
) -> anyhow::Result<()> {
    let (statements, secs) = raw_run(pool, batch)?;
    let rss = pool.peak_rss_kib();
    let stats = pool.stats();
    outln!(
        "{name:>16} jobs={jobs}: first worker ready {first_ms} ms (JVM create {} ms avg), \
         {:.0} statements/s ({:.0}/s per worker), {:.2} s, peak RSS per worker {} MiB",
        stats.startup_ms_total / stats.workers_started.max(1),
        statements as f64 / secs,
        statements as f64 / secs / jobs as f64,
        secs,
        rss.iter().max().copied().unwrap_or(0) / 1024,
    );
    Ok(())
}
