//! Replaying a suite on a target through the pool's executors (a [`Lane`] starts fresh ones
//! for confirmation reruns): stable sharding by test id
//! ([`Shard`]), and the replay itself ([`replay`]), which compares every result with the
//! test's expectations and reruns the failures to tell real differences from unstable ones.

#[cfg(feature = "bench")]
pub mod attribute;
mod cuts;
/// Hand-built JDK sequences for `difftest bench` and the tests.
#[cfg(any(test, feature = "bench"))]
pub mod samples;
pub(crate) mod stream;

pub(crate) use cuts::first_pass_segment;

use crate::compare::Verdict;
use crate::pool::Lane;
use crate::suite::Test;
use serde::{Deserialize, Serialize};
#[cfg(test)]
use {
    crate::compare::compare,
    crate::message::SeqRequest,
    crate::pool::{Executor, PoolError},
    rayon::prelude::*,
    std::sync::atomic::{AtomicUsize, Ordering},
};

/// Sets `config` so workers answer as they did when the suite of `header` was recorded:
/// values capped at its `max-value-bytes`, plain objects as `Class@0` when it says so. A
/// header option that cannot be read is the message.
pub fn answer_as_recorded(
    header: &crate::suite::Header,
    config: &mut crate::pool::PoolConfig,
) -> Result<(), String> {
    config.max_value_bytes = header.max_value_bytes()?;
    config.plain_class_text = header.plain_class_text()?;
    Ok(())
}

/// What grouping keeps of a replayed test: its id and length. A replay keeps this of every
/// test that did not pass, and the whole test only of each group's example (`triage::Examples`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub id: u64,
    /// Number of statements.
    pub statements: usize,
}

impl Record {
    pub(crate) fn of(test: &Test) -> Record {
        Record {
            id: test.id,
            statements: test.statements.len(),
        }
    }
}

/// The records of `tests`, in order.
#[cfg(test)]
pub(crate) fn records(tests: &[&Test]) -> Vec<Record> {
    tests.iter().map(|t| Record::of(t)).collect()
}

/// Part `k` of `n` of a suite (1-based, like nextest's `--partition`): a stable split by
/// test id that depends neither on the order of the tests nor on how many there are.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    /// The part, from 1.
    pub k: u32,
    /// The number of parts.
    pub n: u32,
}

/// The most shards a suite is split into. A CI matrix has tens of jobs; the bound keeps
/// what a merge derives from N (the shards missing, listed in its note) small, whatever a
/// report part says.
pub const MAX_SHARDS: u32 = 1024;

/// Why a shard spec is wrong.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid shard {spec:?}: {why} (expected K/N with 1 <= K <= N, e.g. 2/4)")]
pub struct ShardError {
    /// The text given.
    pub spec: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(spec: &str) -> Result<Shard, ShardError> {
        let err = |why| ShardError {
            spec: spec.to_string(),
            why,
        };
        let (k, n) = spec.split_once('/').ok_or_else(|| err("no '/'"))?;
        let k: u32 = k.trim().parse().map_err(|_| err("K is not a number"))?;
        let n: u32 = n.trim().parse().map_err(|_| err("N is not a number"))?;
        if n == 0 || k == 0 || k > n {
            return Err(err("K must be between 1 and N"));
        }
        if n > MAX_SHARDS {
            return Err(err("N must be at most 1024"));
        }
        Ok(Shard { k, n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// Whether the test with this id belongs to this shard.
    pub fn contains(&self, id: u64) -> bool {
        mix(id) % u64::from(self.n) == u64::from(self.k - 1)
    }
}

/// SplitMix64's finaliser: spreads sequential or patterned ids evenly over the shards.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What became of one test after the replay and its confirmation reruns.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub(crate) enum TestOutcome {
    /// Same as the reference.
    Pass,
    /// Differs, the same way on every run.
    Differs { verdict: Verdict },
    /// Two runs on the target disagreed: not reported as a difference.
    Unstable { first: Verdict, other: Verdict },
}

/// Tests per segment by default: each segment runs, in id order, in a JVM of its own. A
/// JVM's warm-up on the JDK's scope costs about 2 s of CPU, a fifth of a pass over the main
/// job's suite in segments of 25,000; at this size that suite runs in four.
pub const DEFAULT_SEGMENT: usize = 100_000;

/// How to replay.
#[derive(Clone, Debug)]
pub(crate) struct ReplayOptions {
    /// Reruns of failing tests on fresh workers (0: none).
    pub confirm: u32,
    /// Tests per segment: the tests, ordered by id, are cut into segments of this size and
    /// each segment runs in order in a fresh JVM. Whatever state one test leaves in its JVM
    /// can only reach the tests after it in its segment, so the results depend on the suite
    /// and the segment size, never on `--jobs`, on scheduling, or on the order of the file.
    pub segment: usize,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            confirm: 1,
            segment: DEFAULT_SEGMENT,
        }
    }
}

/// Tests sent to a runner at once within a segment: bounds the requests and results held
/// in memory (the runner keeps its worker, so a segment still runs in one JVM, in order).
pub(crate) const CALL: usize = 500;

/// Runs `tests` on `runner` and compares each result with its expectations.
#[cfg(test)]
pub(crate) fn run_and_compare(
    tests: &[&Test],
    runner: &dyn Executor,
) -> Result<Vec<Verdict>, PoolError> {
    let mut verdicts = Vec::with_capacity(tests.len());
    for part in tests.chunks(CALL) {
        let requests: Vec<SeqRequest> = part.iter().map(|t| t.request()).collect();
        let results = runner.run(&requests, false)?;
        verdicts.extend(part.iter().zip(&results).map(|(t, r)| compare(t, r)));
    }
    Ok(verdicts)
}

/// Runs `tests` in segments (see [`ReplayOptions::segment`]), `lane.jobs()` segments at a
/// time, each on a fresh single-worker runner; verdicts in input order. `progress` is told
/// how many tests are done after each segment.
#[cfg(test)]
pub(crate) fn run_segments(
    tests: &[&Test],
    lane: &dyn Lane,
    segment: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Verdict>, PoolError> {
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by_key(|&i| tests[i].id);
    let segments: Vec<&[usize]> = order.chunks(segment.max(1)).collect();
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(lane.jobs())
        .build()
        .map_err(|e| PoolError::Threads(e.to_string()))?;
    let done = AtomicUsize::new(0);
    let parts: Vec<Result<Vec<Verdict>, PoolError>> = threads.install(|| {
        segments
            .par_iter()
            .map(|seg| {
                let subset: Vec<&Test> = seg.iter().map(|&i| tests[i]).collect();
                let runner = lane.start_single()?;
                let verdicts = run_and_compare(&subset, runner.as_ref())?;
                progress(done.fetch_add(seg.len(), Ordering::Relaxed) + seg.len());
                Ok(verdicts)
            })
            .collect()
    });
    let mut verdicts = vec![Verdict::Pass; tests.len()];
    for (seg, part) in segments.iter().zip(parts) {
        for (&i, v) in seg.iter().zip(part?) {
            verdicts[i] = v;
        }
    }
    Ok(verdicts)
}

/// The whole replay: runs every test in fresh-JVM segments, then reruns the failing ones
/// `options.confirm` times, each time in new segments on fresh workers; a failing test
/// whose verdict changes between runs is unstable.
#[cfg(test)]
pub(crate) fn replay(
    tests: &[&Test],
    lane: &dyn Lane,
    options: &ReplayOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<TestOutcome>, PoolError> {
    let first = run_segments(tests, lane, options.segment, progress)?;
    let mut outcomes: Vec<TestOutcome> = first
        .into_iter()
        .map(|v| match v {
            Verdict::Pass => TestOutcome::Pass,
            verdict => TestOutcome::Differs { verdict },
        })
        .collect();
    confirm_rounds(tests, lane, options, &mut outcomes)?;
    Ok(outcomes)
}

/// The confirmation reruns of [`replay`]: `options.confirm` rounds over the tests that
/// still differ.
#[cfg(test)]
pub(crate) fn confirm_rounds(
    tests: &[&Test],
    lane: &dyn Lane,
    options: &ReplayOptions,
    outcomes: &mut [TestOutcome],
) -> Result<(), PoolError> {
    for _ in 0..options.confirm {
        confirm_round(tests, lane, options.segment, outcomes)?;
    }
    Ok(())
}

/// Reruns the tests that still differ on a fresh runner and marks changed verdicts unstable.
#[cfg(test)]
fn confirm_round(
    tests: &[&Test],
    lane: &dyn Lane,
    segment: usize,
    outcomes: &mut [TestOutcome],
) -> Result<(), PoolError> {
    let failing: Vec<usize> = (0..tests.len())
        .filter(|&i| matches!(outcomes[i], TestOutcome::Differs { .. }))
        .collect();
    if failing.is_empty() {
        return Ok(());
    }
    let subset: Vec<&Test> = failing.iter().map(|&i| tests[i]).collect();
    let again = run_segments(&subset, lane, segment, &|_| {})?;
    for (&i, other) in failing.iter().zip(again) {
        if let TestOutcome::Differs { verdict } = &outcomes[i]
            && *verdict != other
        {
            let first = verdict.clone();
            outcomes[i] = TestOutcome::Unstable { first, other };
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
