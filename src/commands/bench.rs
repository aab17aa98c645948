//! `difftest bench workers`: start-up time, throughput and memory of the worker pool on
//! real targets. Numbers are ratios measured in one run on one machine; see docs/benchmarks.md.

use super::{pool_config, start_pool, store};
use crate::cli::{BenchCommand, GlobalArgs};
use crate::exit::Exit;
use crate::pool::Pool;
use crate::sequence::Statement;
use crate::worker::protocol::SeqRequest;
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
            println!("batch: {sequences} sequences of 10 statements over java.util");
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
    println!(
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

/// Statements executed and seconds taken by `batch` ([`java_util_batch`]) on warm workers:
/// the raw rate that `bench workers` prints and `bench record` sets beside generation's.
pub fn raw_run(pool: &Pool, batch: &[SeqRequest]) -> anyhow::Result<(usize, f64)> {
    // Warm up every worker (JIT, class loading), then measure a full run.
    pool.run(&batch[..batch.len().min(2000)], false)?;
    let began = Instant::now();
    let results = pool.run(batch, false)?;
    let secs = began.elapsed().as_secs_f64().max(1e-3);
    Ok((results.len() * 10, secs))
}

/// `n` ten-statement sequences over ArrayList, HashMap and StringBuilder.
pub fn java_util_batch(n: usize) -> Vec<SeqRequest> {
    (0..n).map(one_sequence).collect()
}

fn one_sequence(i: usize) -> SeqRequest {
    let lit = |ty: &str, v: String| Statement::Literal {
        ty: ty.into(),
        value: v,
    };
    let call = |class: &str, method: &str, params: &[&str], recv: usize, args: Vec<usize>| {
        Statement::Call {
            class: class.into(),
            method: method.into(),
            params: params.iter().map(|s| s.to_string()).collect(),
            receiver: Some(recv),
            args,
        }
    };
    let new = |class: &str| Statement::New {
        class: class.into(),
        params: vec![],
        args: vec![],
    };
    let (list, map) = ("java.util.ArrayList", "java.util.HashMap");
    let obj = "java.lang.Object";
    let statements = vec![
        new(list),
        lit("java.lang.String", format!("s{}", i % 97)),
        call(list, "add", &[obj], 0, vec![1]),
        lit("int", (i % 5).to_string()),
        call(list, "add", &[obj], 0, vec![3]),
        call(list, "size", &[], 0, vec![]),
        new(map),
        call(map, "put", &[obj, obj], 6, vec![1, 3]),
        call(map, "containsKey", &[obj], 6, vec![1]),
        call(list, "toString", &[], 0, vec![]),
    ];
    SeqRequest {
        statements,
        observers: vec![],
    }
}
