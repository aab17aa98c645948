//! The last rerun runs the suite the way a replay will: the tests in id order, cut into
//! replay's first-pass segments (`--segment`'s default), each segment in a fresh JVM of its
//! own. A value that depends on what ran before it in the same JVM — a security provider
//! whose lazily registered entries a previous test added, locale data loaded in another
//! order — is the same in generation and in reruns that run thousands of shuffled tests per
//! worker, and other in replay, where a test sees only its segment before it. Run here as
//! replay runs it, such a value changes and is dropped.

use super::compare::compare;
use super::{RerunError, RerunReport};
use crate::generate::Recorded;
use crate::message::SeqRequest;
use crate::pool::{Executor, Lane, Pipeline, PoolError};
use crate::replay::{DEFAULT_SEGMENT, first_pass_segment};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// Tests sent to a segment's worker at once.
const CHUNK: usize = 500;

/// How long to wait before looking again when no segment's chunk is back.
const POLL: std::time::Duration = std::time::Duration::from_millis(1);

/// Reruns every test as rerun `i` of `lane`, in replay's segments, `lane.jobs()` segments at
/// a time; returns how many tests ran (fewer when `stop` was set).
pub(super) fn rerun_as_replay(
    rec: &mut Recorded,
    i: usize,
    lane: &dyn Lane,
    stop: &AtomicBool,
    dead: &mut [bool],
    report: &mut RerunReport,
    mut progress: impl FnMut(usize),
) -> Result<usize, RerunError> {
    let total = rec.tests.len();
    let size = first_pass_segment(total, DEFAULT_SEGMENT);
    let segments: Vec<Range<usize>> = (0..total)
        .step_by(size.max(1))
        .map(|s| s..(s + size).min(total))
        .collect();
    let mut done = 0;
    for wave in segments.chunks(lane.jobs().max(1)) {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let execs = (wave.iter())
            .map(|_| lane.start_run_single(i))
            .collect::<Result<Vec<_>, PoolError>>()?;
        done += run_wave(rec, wave, &execs, stop, dead, report, &mut |n| {
            progress(done + n)
        })?;
        let rss: u64 = execs.iter().flat_map(|e| e.peak_rss_kib()).sum();
        report.workers_peak_kib = report.workers_peak_kib.max(rss);
    }
    Ok(done)
}

/// Runs each segment of `wave` on its own executor, in order, a chunk at a time; compares
/// every result as it comes back. A segment's next chunk is built while its worker runs the
/// current one and handed over as soon as that one is back, before it is compared, so the
/// worker waits neither for the comparison nor for the other segments.
fn run_wave(
    rec: &mut Recorded,
    wave: &[Range<usize>],
    execs: &[Box<dyn Executor>],
    stop: &AtomicBool,
    dead: &mut [bool],
    report: &mut RerunReport,
    progress: &mut dyn FnMut(usize),
) -> Result<usize, RerunError> {
    std::thread::scope(|scope| {
        let mut segments: Vec<Segment> = (execs.iter())
            .zip(wave)
            .map(|(e, seg)| Segment {
                flight: Pipeline::new(scope, e.as_ref(), false),
                left: seg.clone(),
                next: None,
            })
            .collect();
        let outcome = run_segments(rec, &mut segments, stop, dead, report, progress);
        for segment in &mut segments {
            segment.flight.drain();
        }
        outcome
    })
}

/// One segment of a wave: its executor's pipeline (one chunk in flight at most: a
/// single-worker executor given two at once would start a second JVM for the second), the
/// tests not yet built, and the chunk built to go next.
struct Segment<'scope, 'env> {
    flight: Pipeline<'scope, 'env, Range<usize>>,
    left: Range<usize>,
    next: Option<(Range<usize>, Vec<SeqRequest>)>,
}

impl Segment<'_, '_> {
    /// Builds the requests of the next chunk, if there is one and none is waiting.
    fn build_next(&mut self, rec: &Recorded) -> Result<(), RerunError> {
        if self.next.is_some() || self.left.is_empty() {
            return Ok(());
        }
        let chunk = self.left.start..(self.left.start + CHUNK).min(self.left.end);
        self.left = chunk.end..self.left.end;
        let reqs = (chunk.clone())
            .map(|t| Ok(rec.tests.get(t)?.request(&rec.templates, &rec.names)))
            .collect::<Result<_, RerunError>>()?;
        self.next = Some((chunk, reqs));
        Ok(())
    }

    /// Hands the waiting chunk to the worker, unless one is in flight or `stop` is set.
    fn submit_next(&mut self, stop: &AtomicBool) {
        if self.flight.is_empty()
            && !stop.load(Ordering::SeqCst)
            && let Some((chunk, reqs)) = self.next.take()
        {
            self.flight.submit(chunk, reqs);
        }
    }
}

/// Runs `segments` to their ends: each chunk taken back, the next handed over, this one
/// compared, the one after built. Returns how many tests were compared.
fn run_segments(
    rec: &mut Recorded,
    segments: &mut [Segment],
    stop: &AtomicBool,
    dead: &mut [bool],
    report: &mut RerunReport,
    progress: &mut dyn FnMut(usize),
) -> Result<usize, RerunError> {
    for segment in segments.iter_mut() {
        segment.build_next(rec)?;
        segment.submit_next(stop);
        segment.build_next(rec)?;
    }
    let mut done = 0;
    while segments.iter().any(|s| !s.flight.is_empty()) {
        // Whichever segment's chunk is back first, so no worker waits for another's.
        let Some(segment) = segments.iter_mut().find(|s| s.flight.is_ready()) else {
            std::thread::sleep(POLL);
            continue;
        };
        let Some((chunk, _, results)) = segment.flight.take() else {
            continue;
        };
        segment.submit_next(stop);
        let results = match results {
            Err(PoolError::Stopped) => return Ok(done),
            other => other?,
        };
        done += chunk.len();
        for (t, r) in chunk.zip(results) {
            dead[t] |= !compare(rec, t, r, report)?;
        }
        progress(done);
        segment.build_next(rec)?;
        segment.submit_next(stop);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::super::remove_flakes;
    use crate::generate::on_fake;
    use crate::message::SeqRequest;
    use crate::pool::fake::Fake;
    use crate::pool::{Executor, Lane, PoolError};
    use crate::sequence::SeqResult;
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};

    type Log = Arc<Mutex<Vec<SeqRequest>>>;

    /// Reference fakes; each single executor of a run logs what it was given, in order.
    #[derive(Default)]
    struct LoggingLane(Mutex<Vec<Log>>);

    struct Logged(Fake, Log);

    impl Executor for Logged {
        fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
            self.1.lock().unwrap().extend(seqs.iter().cloned());
            self.0.run(seqs, contracts)
        }
    }

    impl Lane for LoggingLane {
        fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
            Ok(Box::new(Fake::reference()))
        }

        fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
            self.start()
        }

        fn jobs(&self) -> usize {
            2
        }

        fn start_run_single(&self, _: usize) -> Result<Box<dyn Executor>, PoolError> {
            let log = Log::default();
            self.0.lock().unwrap().push(log.clone());
            Ok(Box::new(Logged(Fake::reference(), log)))
        }
    }

    #[test]
    fn the_last_rerun_runs_the_tests_in_order_in_a_fresh_executor_per_segment() {
        let mut rec = on_fake::recorded(3, 300);
        let lane = LoggingLane::default();
        let mut before_last = Vec::new();
        let mut between = |rec: &mut crate::generate::Recorded| {
            before_last = (rec.tests.iter())
                .map(|t| Ok(t?.request(&rec.templates, &rec.names)))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(())
        };
        let stop = AtomicBool::new(false);
        remove_flakes(&mut rec, 2, 9, &lane, &stop, &mut between, |_, _, _| {}).unwrap();
        let logs = lane.0.lock().unwrap();
        assert_eq!(
            logs.len(),
            1,
            "a suite below one segment: one fresh executor"
        );
        assert!(!before_last.is_empty());
        assert_eq!(
            *logs[0].lock().unwrap(),
            before_last,
            "every test, in order"
        );
    }
}
