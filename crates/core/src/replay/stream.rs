//! Replay as the suite is read. The tests, in file order (difftest writes them in ascending
//! id order, so these are the segments [`super::run_segments`] cuts), are cut into segments
//! of `options.segment`; `lane.jobs()` threads take the segments in turn, each on a fresh
//! single-worker runner. Each thread reads the file itself, forward only ([`Source`]):
//! it skips, without parsing, to the start of its next segment and parses that segment
//! [`CALL`] tests at a time as it runs them, two calls in flight (the next read while the
//! worker runs the last). So the supervisor holds `2 × jobs × CALL` tests,
//! whatever the size of the suite or of a segment; of every test that passes only its id is
//! kept, of the others a [`Record`] (id and length) and the verdict, never the test itself.
//! The failing tests are then confirmed as in [`super::replay`], read again from a source
//! that gives only them ([`Wanted`]), each beside the failing tests of its own first-pass
//! segment ([`Cuts::following`]), so every worker takes part in the confirmation.
//!
//! A source that fails part-way (a corrupt or cut suite) stops every thread after the call
//! it runs, and the whole replay fails: nothing of it is reported.

use super::Record;
use super::cuts::Cuts;
use super::{CALL, Lane, ReplayOptions, TestOutcome};
use crate::compare::{Verdict, compare};
use crate::pool::{Pipeline, PoolError};
use crate::suite::Test;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The tests to replay, read forward by one thread.
pub(crate) trait Source<E> {
    /// Moves to the `index`-th test (from 0), never backwards; false if there is none.
    fn skip_to(&mut self, index: usize) -> Result<bool, E>;
    /// The next test, if any.
    fn next_test(&mut self) -> Result<Option<Test>, E>;
}

/// The ids, ascending, of the only tests a source is to give; `None`: all of them.
pub(crate) type Wanted = Option<Arc<[u64]>>;

/// Whether `wanted` takes the test `id`.
pub(crate) fn wants(wanted: &Wanted, id: u64) -> bool {
    wanted.as_ref().is_none_or(|w| w.binary_search(&id).is_ok())
}

/// What a streamed replay keeps for the report.
#[derive(Debug, Default)]
pub(crate) struct Streamed {
    /// The records of the tests that did not pass, in file order, with their outcomes.
    pub kept: Vec<Record>,
    pub outcomes: Vec<TestOutcome>,
    /// The ids of the tests that passed, in file order.
    pub passed: Vec<u64>,
    /// The segment each of `kept` ran in, in this pass's numbering.
    segments: Vec<usize>,
}

impl Streamed {
    /// Tests replayed.
    pub(crate) fn total(&self) -> usize {
        self.kept.len() + self.passed.len()
    }
}

/// Why a streamed replay failed: its source, or the workers.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StreamError<E: std::error::Error + 'static> {
    #[error(transparent)]
    Source(E),
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// Tests read in the first pass were not given again for their confirmation: the
    /// source is no longer what it was.
    #[error("{lost} tests to confirm were not found again")]
    Lost { lost: usize },
}

/// One segment's results: its place, its failing tests, the ids of its passing tests, the
/// failing tests' verdicts.
type Part = (usize, Vec<Record>, Vec<u64>, Vec<Verdict>);

/// What the threads share.
struct Shared<'a, E: std::error::Error + 'static> {
    lane: &'a dyn Lane,
    cuts: Cuts,
    next_segment: AtomicUsize,
    stop: AtomicBool,
    parts: Mutex<Vec<Part>>,
    failed: Mutex<Option<StreamError<E>>>,
    done: AtomicUsize,
    progress: &'a (dyn Fn(usize) + Sync),
}

/// Replays the tests of the sources `open` gives (one per thread, each reading the same
/// tests; given the ids wanted, only those), then confirms the failing ones; `progress`
/// hears how many tests are done.
pub(crate) fn replay_stream<E, S>(
    open: &(dyn Fn(Wanted) -> Result<S, E> + Sync),
    lane: &dyn Lane,
    options: &ReplayOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Streamed, StreamError<E>>
where
    E: std::error::Error + Send + 'static,
    S: Source<E>,
{
    let first = Cuts::Every(options.segment);
    let mut streamed = run_pass(&|| open(None), lane, first, progress)?;
    for _ in 0..options.confirm {
        confirm_round(open, lane, &mut streamed)?;
    }
    Ok(streamed)
}

/// Reruns the tests that still differ, read again from the source in the segments they
/// ran in ([`Cuts::following`]), and marks those whose verdict changed unstable.
fn confirm_round<E, S>(
    open: &(dyn Fn(Wanted) -> Result<S, E> + Sync),
    lane: &dyn Lane,
    streamed: &mut Streamed,
) -> Result<(), StreamError<E>>
where
    E: std::error::Error + Send + 'static,
    S: Source<E>,
{
    let mut failing: Vec<u64> = (streamed.kept.iter().zip(&streamed.outcomes))
        .filter(|(_, o)| matches!(o, TestOutcome::Differs { .. }))
        .map(|(r, _)| r.id)
        .collect();
    if failing.is_empty() {
        return Ok(());
    }
    failing.sort_unstable();
    let wanted: Arc<[u64]> = failing.into();
    let differs = |i: usize| matches!(streamed.outcomes[i], TestOutcome::Differs { .. });
    let cuts = Cuts::following(&streamed.segments, differs);
    let again = run_pass(&|| open(Some(wanted.clone())), lane, cuts, &|_| {})?;
    if again.total() != wanted.len() {
        // A test not read again would count as unstable, which no gate counts.
        return Err(StreamError::Lost {
            lost: wanted.len().abs_diff(again.total()),
        });
    }
    let mut other: HashMap<u64, Verdict> = (again.kept.iter().zip(again.outcomes))
        .filter_map(|(r, o)| match o {
            TestOutcome::Differs { verdict } => Some((r.id, verdict)),
            _ => None,
        })
        .collect();
    for (r, outcome) in streamed.kept.iter().zip(&mut streamed.outcomes) {
        if let TestOutcome::Differs { verdict } = outcome {
            let other = other.remove(&r.id).unwrap_or(Verdict::Pass);
            if *verdict != other {
                let first = verdict.clone();
                *outcome = TestOutcome::Unstable { first, other };
            }
        }
    }
    Ok(())
}

/// One pass over the sources `open` gives, cut at `cuts`, `lane.jobs()` threads taking
/// segments in turn.
fn run_pass<E, S>(
    open: &(dyn Fn() -> Result<S, E> + Sync),
    lane: &dyn Lane,
    cuts: Cuts,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Streamed, StreamError<E>>
where
    E: std::error::Error + Send + 'static,
    S: Source<E>,
{
    let shared = Shared {
        lane,
        cuts,
        next_segment: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        parts: Mutex::default(),
        failed: Mutex::default(),
        done: AtomicUsize::new(0),
        progress,
    };
    std::thread::scope(|scope| {
        for _ in 0..lane.jobs() {
            scope.spawn(|| {
                let result = open()
                    .map_err(StreamError::Source)
                    .and_then(|mut source| run_thread(&mut source, &shared));
                if let Err(e) = result {
                    shared.stop.store(true, Ordering::Relaxed);
                    if let Ok(mut f) = shared.failed.lock() {
                        f.get_or_insert(e);
                    }
                }
            });
        }
    });
    if let Some(e) = shared.failed.into_inner().ok().flatten() {
        return Err(e);
    }
    crate::usage::release_free_memory(); // what the pass's readers held
    Ok(gather(shared.parts.into_inner().unwrap_or_default()))
}

/// Takes segments until there are no more (or the replay stops).
fn run_thread<E: std::error::Error + 'static, S: Source<E>>(
    source: &mut S,
    shared: &Shared<E>,
) -> Result<(), StreamError<E>> {
    while !shared.stop.load(Ordering::Relaxed) {
        let k = shared.next_segment.fetch_add(1, Ordering::Relaxed);
        let Some(start) = shared.cuts.start(k) else {
            return Ok(());
        };
        if !source.skip_to(start).map_err(StreamError::Source)? {
            return Ok(());
        }
        let part = run_segment(source, shared, k)?;
        if let Ok(mut p) = shared.parts.lock() {
            p.push(part);
        }
        crate::usage::release_free_memory(); // what the segment's tests took
    }
    Ok(())
}

/// Runs segment `k` on a fresh runner, `CALL` tests at a time, two calls in flight
/// ([`Pipeline`]): the next tests are read and the last ones compared while the worker runs.
/// The runner has one worker, which takes the calls in the order they were sent.
fn run_segment<E: std::error::Error + 'static, S: Source<E>>(
    source: &mut S,
    shared: &Shared<E>,
    k: usize,
) -> Result<Part, StreamError<E>> {
    let runner = shared.lane.start_single()?;
    let size = shared.cuts.len(k);
    let mut part: Part = (k, Vec::new(), Vec::new(), Vec::new());
    std::thread::scope(|scope| {
        let mut flight: Pipeline<Vec<Test>> = Pipeline::new(scope, runner.as_ref(), false);
        let (mut taken, mut ended) = (0, false);
        loop {
            ended |= taken >= size || shared.stop.load(Ordering::Relaxed);
            if flight.has_room() && !ended {
                let chunk = read_chunk(source, CALL.min(size - taken))?;
                ended = chunk.is_empty();
                taken += chunk.len();
                let requests = chunk.iter().map(|t| t.request()).collect();
                if !ended {
                    flight.submit(chunk, requests);
                }
                continue;
            }
            let Some((chunk, _, results)) = flight.take() else {
                return Ok(part);
            };
            let n = chunk.len();
            for (t, r) in chunk.into_iter().zip(&results?) {
                match compare(&t, r) {
                    Verdict::Pass => part.2.push(t.id),
                    v => {
                        part.1.push(Record::of(&t));
                        part.3.push(v);
                    }
                }
            }
            (shared.progress)(shared.done.fetch_add(n, Ordering::Relaxed) + n);
        }
    })
}

/// Up to `n` tests from `source`.
fn read_chunk<E: std::error::Error + 'static, S: Source<E>>(
    source: &mut S,
    n: usize,
) -> Result<Vec<Test>, StreamError<E>> {
    let mut chunk = Vec::with_capacity(n);
    while chunk.len() < n {
        match source.next_test().map_err(StreamError::Source)? {
            Some(t) => chunk.push(t),
            None => break,
        }
    }
    Ok(chunk)
}

/// The segments' results in file order.
fn gather(mut parts: Vec<Part>) -> Streamed {
    parts.sort_by_key(|p| p.0);
    let mut streamed = Streamed::default();
    for (k, kept, passed, verdicts) in parts {
        streamed.segments.extend(std::iter::repeat_n(k, kept.len()));
        streamed.kept.extend(kept);
        streamed.passed.extend(passed);
        streamed.outcomes.extend(
            verdicts
                .into_iter()
                .map(|verdict| TestOutcome::Differs { verdict }),
        );
    }
    streamed
}

/// A source over tests in memory (for tests and small callers).
#[cfg(test)]
pub(crate) struct Slice<'a> {
    tests: Vec<&'a Test>,
    at: usize,
}

#[cfg(test)]
impl<'a> Slice<'a> {
    /// Only the tests `wanted` takes.
    pub(crate) fn wanted(tests: &'a [Test], wanted: &Wanted) -> Slice<'a> {
        let tests = tests.iter().filter(|t| wants(wanted, t.id)).collect();
        Slice { tests, at: 0 }
    }
}

#[cfg(test)]
impl Source<std::convert::Infallible> for Slice<'_> {
    fn skip_to(&mut self, index: usize) -> Result<bool, std::convert::Infallible> {
        self.at = self.at.max(index);
        Ok(self.at < self.tests.len())
    }

    fn next_test(&mut self) -> Result<Option<Test>, std::convert::Infallible> {
        let t = self.tests.get(self.at).map(|t| (*t).clone());
        self.at += 1;
        Ok(t)
    }
}
