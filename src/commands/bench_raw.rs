//! The other side of `bench replay`'s comparison: the suite's sequences executed by the
//! target's workers alone — one pool of `jobs` workers kept for the whole suite, no
//! comparison, no segments, no report — so replay's wall time can be set against what the
//! workers can execute, in the same run.

use super::{pool_config, start_pool, store};
use crate::cli::{BenchReplayArgs, GlobalArgs, PoolArgs};
use crate::message::SeqRequest;
use crate::pool::PoolConfig;
use crate::suite::entries::Entries;
use crate::suite::read::SuiteReader;
use std::path::Path;
use std::time::Instant;

/// Requests sent to the pool at once.
const BATCH: usize = 2000;

/// The pool both sides of the comparison run on: `jobs` workers, 5 s timeout, 2 GiB each.
pub fn config(jobs: usize) -> anyhow::Result<PoolConfig> {
    let mut config = pool_config(&PoolArgs {
        jobs: None,
        timeout: Some(5.0),
        worker_memory: "2G".into(),
        no_sandbox: false,
    })?;
    config.jobs = jobs;
    Ok(config)
}

/// Executes every test of `suite` on the target with `jobs` workers; returns the seconds
/// spent running (JVM start-ups excluded), tests and statements.
pub fn execute(
    global: &GlobalArgs,
    args: &BenchReplayArgs,
    suite: &Path,
    jobs: usize,
) -> anyhow::Result<(f64, usize, usize)> {
    let store = store(global)?;
    let config = config(jobs)?;
    let (_, pool) = start_pool(&store, &args.target, config)?;
    let mut reader = SuiteReader::open(suite)?;
    let mut entries = Entries::new(suite);
    let (mut seconds, mut tests, mut statements) = (0.0, 0, 0);
    loop {
        let mut batch: Vec<SeqRequest> = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            match reader.next_test(&mut entries)? {
                Some(t) => batch.push(t.request()),
                None => break,
            }
        }
        if batch.is_empty() {
            break;
        }
        tests += batch.len();
        statements += batch.iter().map(|r| r.statements.len()).sum::<usize>();
        let began = Instant::now();
        pool.run(&batch, false)?;
        seconds += began.elapsed().as_secs_f64();
    }
    Ok((seconds, tests, statements))
}
