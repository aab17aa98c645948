//! Where a worker's time per test goes in a replay (`difftest bench attribute`, feature
//! `bench`): the first tests of a suite run as a replay's first pass runs them (even
//! segments of at most `--segment` tests, each in a fresh single-worker JVM, `CALL` tests a
//! message, compared as they come back), with every worker's timing on (`Request::Timings`:
//! the agent times decoding, each statement by callee, rendering by value class, observers
//! by callee, exceptions, the answer's JSON; the worker's Rust side times encoding, the JNI
//! call, parsing and sending; the JVM reports GC, JIT and the thread's CPU). The supervisor
//! adds its own waiting, reading and comparing.

use super::{CALL, first_pass_segment};
use crate::compare::{Verdict, compare};
use crate::pool::{Pipeline, Pool, PoolConfig, PoolError};
use crate::suite::entries::Entries;
use crate::suite::read::SuiteReader;
use crate::suite::{SuiteError, Test};
use crate::targets::JvmSpec;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Totals of one part and key: how many sections, how many nanoseconds.
pub type Total = (u64, u64);

/// What one attribution run measured.
#[derive(Debug, Default)]
pub struct Attribution {
    /// Tests run, and their statements and observers.
    pub tests: usize,
    /// Statements of those tests.
    pub statements: usize,
    /// Observer calls of those tests.
    pub observers: usize,
    /// Tests that differed (the verdicts are computed, as a replay does).
    pub differing: usize,
    /// Wall time of the whole run (JVM start-ups included).
    pub wall: Duration,
    /// Summed over the segments: time the supervisor waited for a call's answers once it
    /// had nothing else to do (two calls in flight, as in a replay).
    pub waiting: Duration,
    /// Summed over the segments: time the supervisor spent comparing.
    pub comparing: Duration,
    /// Summed over the segments: workers started (one per segment, more after a hang or crash;
    /// a replacement's time is not in the tables).
    pub workers: u64,
    /// Segments run.
    pub segments: usize,
    /// Part → key → totals, over every worker.
    pub parts: BTreeMap<String, BTreeMap<String, Total>>,
}

/// Why an attribution run failed.
#[derive(Debug, thiserror::Error)]
pub enum AttributeError {
    /// The suite could not be read.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The workers failed.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The suite's header names a value limit that is not a number.
    #[error("{0}")]
    Header(String),
    /// A worker's table was not `part<TAB>key<TAB>count<TAB>nanoseconds` lines.
    #[error("a worker's timing table has a bad line: {0:?}")]
    Table(String),
}

/// Runs the first `limit` tests of `suite` on `target` (`jvm`), `jobs` segments at a time,
/// with timing on, and returns where the time went.
pub fn attribute(
    suite: &Path,
    target: &str,
    jvm: &JvmSpec,
    mut config: PoolConfig,
    limit: usize,
    segment: usize,
) -> Result<Attribution, AttributeError> {
    let began = Instant::now();
    let mut reader = SuiteReader::open(suite)?;
    super::answer_as_recorded(reader.header(), &mut config)
        .map_err(|message| AttributeError::Header(format!("{}: {message}", suite.display())))?;
    let jobs = config.jobs.max(1);
    config.jobs = 1;
    let tests = read(&mut reader, suite, limit)?;
    let size = first_pass_segment(tests.len(), segment);
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| PoolError::Threads(e.to_string()))?;
    let parts: Vec<Result<Attribution, AttributeError>> = threads.install(|| {
        tests
            .par_chunks(size)
            .map(|seg| run_segment(seg, target, jvm, &config))
            .collect()
    });
    let mut all = Attribution::default();
    for part in parts {
        all.absorb(part?);
    }
    all.wall = began.elapsed();
    Ok(all)
}

fn read(reader: &mut SuiteReader, suite: &Path, limit: usize) -> Result<Vec<Test>, SuiteError> {
    let mut entries = Entries::new(suite);
    let mut tests = Vec::new();
    while tests.len() < limit {
        match reader.next_test(&mut entries)? {
            Some(t) => tests.push(t),
            None => break,
        }
    }
    Ok(tests)
}

/// Runs one segment as replay's stream does: a fresh single-worker pool, `CALL` tests a
/// call, two calls in flight, each compared as it comes back; then takes the worker's table.
fn run_segment(
    tests: &[Test],
    target: &str,
    jvm: &JvmSpec,
    config: &PoolConfig,
) -> Result<Attribution, AttributeError> {
    let pool = Pool::start(target, jvm.clone(), config.clone())?;
    pool.timings()?; // turns the worker's timing on
    let mut out = Attribution {
        segments: 1,
        ..Attribution::default()
    };
    let mut calls = tests.chunks(CALL);
    std::thread::scope(|scope| -> Result<(), AttributeError> {
        let mut flight: Pipeline<&[Test]> = Pipeline::new(scope, &pool, false);
        loop {
            if flight.has_room()
                && let Some(call) = calls.next()
            {
                flight.submit(call, call.iter().map(|t| t.request()).collect());
                continue;
            }
            let began = Instant::now();
            let Some((call, _, results)) = flight.take() else {
                return Ok(());
            };
            out.waiting += began.elapsed();
            let results = results?;
            let began = Instant::now();
            out.differing += call
                .iter()
                .zip(&results)
                .filter(|(t, r)| compare(t, r) != Verdict::Pass)
                .count();
            out.comparing += began.elapsed();
            out.tests += call.len();
            out.statements += call.iter().map(|t| t.statements.len()).sum::<usize>();
            out.observers += call.iter().map(|t| t.observers.len()).sum::<usize>();
        }
    })?;
    for table in pool.timings()? {
        add_table(&mut out.parts, &table)?;
    }
    out.workers = pool.stats().workers_started;
    Ok(out)
}

/// Adds a worker's `part<TAB>key<TAB>count<TAB>nanoseconds` lines to `parts`.
fn add_table(
    parts: &mut BTreeMap<String, BTreeMap<String, Total>>,
    table: &str,
) -> Result<(), AttributeError> {
    for line in table.lines().filter(|l| !l.is_empty()) {
        let bad = || AttributeError::Table(line.to_string());
        let fields: Vec<&str> = line.split('\t').collect();
        let [part, key, count, nanos] = fields[..] else {
            return Err(bad());
        };
        let count: u64 = count.parse().map_err(|_| bad())?;
        let nanos: i64 = nanos.parse().map_err(|_| bad())?;
        let total = parts
            .entry(part.to_string())
            .or_default()
            .entry(key.to_string())
            .or_default();
        total.0 += count;
        total.1 += nanos.max(0) as u64;
    }
    Ok(())
}

impl Attribution {
    fn absorb(&mut self, other: Attribution) {
        self.tests += other.tests;
        self.statements += other.statements;
        self.observers += other.observers;
        self.differing += other.differing;
        self.waiting += other.waiting;
        self.comparing += other.comparing;
        self.workers += other.workers;
        self.segments += other.segments;
        for (part, keys) in other.parts {
            let mine = self.parts.entry(part).or_default();
            for (key, (count, nanos)) in keys {
                let t = mine.entry(key).or_default();
                t.0 += count;
                t.1 += nanos;
            }
        }
    }

    /// The totals of `part` summed over its keys.
    pub fn part_total(&self, part: &str) -> Total {
        self.parts.get(part).map_or((0, 0), |keys| {
            keys.values()
                .fold((0, 0), |(c, n), &(kc, kn)| (c + kc, n + kn))
        })
    }

    /// The `n` keys of `part` with the most time, most first.
    pub fn top(&self, part: &str, n: usize) -> Vec<(&str, Total)> {
        let mut keys: Vec<(&str, Total)> = self
            .parts
            .get(part)
            .map(|k| k.iter().map(|(key, &t)| (key.as_str(), t)).collect())
            .unwrap_or_default();
        keys.sort_by(|a, b| b.1.1.cmp(&a.1.1).then(a.0.cmp(b.0)));
        keys.truncate(n);
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_add_up_per_part_and_key_and_bad_lines_are_refused() {
        let mut parts = BTreeMap::new();
        add_table(
            &mut parts,
            "statement\ta.B.c\t2\t100\nrender\tjava.lang.String\t3\t30\n",
        )
        .unwrap();
        add_table(&mut parts, "statement\ta.B.c\t1\t50\njvm\tgc\t1\t-1\n").unwrap();
        let a = Attribution {
            parts,
            ..Attribution::default()
        };
        assert_eq!(a.top("statement", 5), vec![("a.B.c", (3, 150))]);
        assert_eq!(a.part_total("render"), (3, 30));
        assert_eq!(a.part_total("jvm"), (1, 0));
        let mut parts = BTreeMap::new();
        assert!(add_table(&mut parts, "statement\tx\tmany\t3").is_err());
        assert!(add_table(&mut parts, "statement\tx\t3").is_err());
    }
}
