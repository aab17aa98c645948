//! Replay as the suite is read: segments are cut from the stream of tests in file order
//! (difftest writes tests in ascending id order, so they are the segments [`super::run_segments`]
//! cuts) and handed to `lane.jobs()` threads, each segment on a fresh single-worker runner.
//! At most `jobs + 2` segments are held at once (one being read, one waiting, one per
//! thread); of every test that passes only its id is kept, of the others the test and its
//! verdict, so the supervisor's memory does not grow with the suite. The failing tests are
//! then confirmed as in [`super::replay`].
//!
//! A source that fails part-way (a corrupt or cut suite) stops the reading; the threads
//! finish the segment they run and the whole replay fails: nothing of it is reported.

use super::{Lane, ReplayOptions, TestOutcome, confirm_rounds, run_and_compare};
use crate::compare::Verdict;
use crate::pool::PoolError;
use crate::suite::Test;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};

/// What a streamed replay keeps for the report.
#[derive(Debug, Default)]
pub struct Streamed {
    /// The tests that did not pass, in file order, with their outcomes.
    pub kept: Vec<Test>,
    pub outcomes: Vec<TestOutcome>,
    /// The ids of the tests that passed, in file order.
    pub passed: Vec<u64>,
}

impl Streamed {
    /// Tests replayed.
    pub fn total(&self) -> usize {
        self.kept.len() + self.passed.len()
    }
}

/// Why a streamed replay failed: its source, or the workers.
#[derive(Debug, thiserror::Error)]
pub enum StreamError<E: std::error::Error + 'static> {
    #[error(transparent)]
    Source(E),
    #[error(transparent)]
    Pool(#[from] PoolError),
}

/// One segment's results: its place in the stream, its failing tests, the ids of its
/// passing tests, the failing tests' verdicts.
type Part = (usize, Vec<Test>, Vec<u64>, Vec<Verdict>);

/// Replays the tests `next` gives (until `None`) in segments, then confirms the failing
/// ones; `progress` hears how many tests are done after each segment.
pub fn replay_stream<E: std::error::Error + Send + 'static>(
    next: &mut dyn FnMut() -> Result<Option<Test>, E>,
    lane: &dyn Lane,
    options: &ReplayOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Streamed, StreamError<E>> {
    let segment = options.segment.max(1);
    let (tx, rx) = sync_channel::<(usize, Vec<Test>)>(1);
    let rx = Mutex::new(rx);
    let parts: Mutex<Vec<Part>> = Mutex::default();
    let failed: Mutex<Option<PoolError>> = Mutex::default();
    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let read = std::thread::scope(|scope| {
        for _ in 0..lane.jobs() {
            scope.spawn(|| {
                while let Some((index, tests)) = receive(&rx, &stop) {
                    match run_segment(&tests, lane) {
                        Ok(verdicts) => {
                            let n = tests.len();
                            let kept = split(index, tests, verdicts);
                            if let Ok(mut p) = parts.lock() {
                                p.push(kept);
                            }
                            progress(done.fetch_add(n, Ordering::Relaxed) + n);
                        }
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            if let Ok(mut f) = failed.lock() {
                                f.get_or_insert(e);
                            }
                        }
                    }
                }
            });
        }
        let read = feed(next, segment, &tx, &stop);
        drop(tx);
        read
    });
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(StreamError::Pool(e));
    }
    read.map_err(StreamError::Source)?;
    let mut streamed = gather(parts.into_inner().unwrap_or_default());
    let refs: Vec<&Test> = streamed.kept.iter().collect();
    confirm_rounds(&refs, lane, options, &mut streamed.outcomes)?;
    Ok(streamed)
}

/// Reads tests into segments and sends them until the source ends, fails or `stop` is set.
fn feed<E>(
    next: &mut dyn FnMut() -> Result<Option<Test>, E>,
    segment: usize,
    tx: &std::sync::mpsc::SyncSender<(usize, Vec<Test>)>,
    stop: &AtomicBool,
) -> Result<(), E> {
    let mut index = 0;
    let mut current = Vec::with_capacity(segment.min(1 << 14));
    while !stop.load(Ordering::Relaxed) {
        let Some(test) = next()? else { break };
        current.push(test);
        if current.len() == segment {
            let full = std::mem::replace(&mut current, Vec::with_capacity(segment.min(1 << 14)));
            if tx.send((index, full)).is_err() {
                return Ok(());
            }
            index += 1;
        }
    }
    if !current.is_empty() && !stop.load(Ordering::Relaxed) {
        let _ = tx.send((index, current));
    }
    Ok(())
}

/// The next segment to run, unless the replay stopped or the reading ended.
fn receive(
    rx: &Mutex<Receiver<(usize, Vec<Test>)>>,
    stop: &AtomicBool,
) -> Option<(usize, Vec<Test>)> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    rx.lock().ok()?.recv().ok()
}

fn run_segment(tests: &[Test], lane: &dyn Lane) -> Result<Vec<Verdict>, PoolError> {
    let refs: Vec<&Test> = tests.iter().collect();
    let runner = lane.start_single()?;
    run_and_compare(&refs, runner.as_ref())
}

/// Keeps the failing tests of a segment with their verdicts, and the ids of the others.
fn split(index: usize, tests: Vec<Test>, verdicts: Vec<Verdict>) -> Part {
    let mut kept = (index, Vec::new(), Vec::new(), Vec::new());
    for (t, v) in tests.into_iter().zip(verdicts) {
        if v == Verdict::Pass {
            kept.2.push(t.id);
        } else {
            kept.1.push(t);
            kept.3.push(v);
        }
    }
    kept
}

/// The segments' results in stream order.
fn gather(mut parts: Vec<Part>) -> Streamed {
    parts.sort_by_key(|p| p.0);
    let mut streamed = Streamed::default();
    for (_, kept, passed, verdicts) in parts {
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
