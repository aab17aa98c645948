//! Regression tests written with shared blocks ([`super::share`]) planned chunk by chunk:
//! consecutive tests are counted until the count holds [`super::share::CHUNK_RUNS`] distinct
//! runs, then that chunk is planned and written before the next is read. What planning
//! holds is bounded by the chunk, not the suite, and every block's uses lie in its chunk, so
//! a reader holds no block past it. Chunks depend only on the tests: a seed still gives one
//! byte-identical suite.
//!
//! Each pass reads its tests [`BATCH`] at a time on every core (reading a test back and
//! keying its runs are most of the work: the record's workers are idle by then); counting,
//! planning and writing then take them in order, so the file does not depend on the cores.

use super::share::{CHUNK_RUNS, Counter, Runs};
use super::{SuiteError, Test, Writer};
use rayon::prelude::*;
use std::borrow::Borrow;
use std::ops::Range;

/// Tests read at once in each pass: enough to keep the cores busy, few enough that a
/// batch of expanded tests is small next to the chunk's plan.
const BATCH: usize = 1024;

/// Writes the `n` regression tests `test(0)`, …, `test(n - 1)` through `w`; each is asked
/// for three times (counted, planned, written), a batch at a time, in parallel.
pub fn write_tests<T, E>(
    w: &mut Writer,
    n: usize,
    test: impl Fn(usize) -> Result<T, E> + Sync,
) -> Result<(), E>
where
    T: Borrow<Test> + Send,
    E: From<SuiteError> + Send,
{
    write_in_chunks(w, n, test, CHUNK_RUNS)
}

/// [`write_tests`] with chunks closed at `runs` distinct runs.
fn write_in_chunks<T, E>(
    w: &mut Writer,
    n: usize,
    test: impl Fn(usize) -> Result<T, E> + Sync,
    runs: usize,
) -> Result<(), E>
where
    T: Borrow<Test> + Send,
    E: From<SuiteError> + Send,
{
    let mut start = 0;
    while start < n {
        let (counter, end) = count(start..n, &test, runs)?;
        let mut planner = counter.planner();
        for batch in batches(start..end) {
            for r in read(batch, &test, |t| Runs::of(t.borrow()))? {
                planner.add_runs(r);
            }
        }
        w.share(planner.finish())?;
        for batch in batches(start..end) {
            for t in read(batch, &test, |t| t)? {
                w.test(t.borrow())?;
            }
        }
        start = end;
    }
    Ok(())
}

/// Counts the runs of the tests from `range.start` on until the counter holds `runs`
/// distinct runs (or the tests end); the counter and where the chunk ends.
fn count<T, E>(
    range: Range<usize>,
    test: &(impl Fn(usize) -> Result<T, E> + Sync),
    runs: usize,
) -> Result<(Counter, usize), E>
where
    T: Borrow<Test> + Send,
    E: Send,
{
    let mut counter = Counter::default();
    let mut end = range.start;
    while end < range.end && !counter.full(runs) {
        let batch = end..(end + BATCH).min(range.end);
        for r in read(batch, test, |t| Runs::of(t.borrow()))? {
            if counter.full(runs) {
                break;
            }
            counter.add_runs(&r);
            end += 1;
        }
    }
    Ok((counter, end))
}

/// `range` cut into batches.
fn batches(range: Range<usize>) -> impl Iterator<Item = Range<usize>> {
    range
        .clone()
        .step_by(BATCH)
        .map(move |a| a..(a + BATCH).min(range.end))
}

/// `then(test(i))` for every `i` of `batch`, in parallel, in order.
fn read<T, E, U: Send>(
    batch: Range<usize>,
    test: &(impl Fn(usize) -> Result<T, E> + Sync),
    then: impl Fn(T) -> U + Sync,
) -> Result<Vec<U>, E>
where
    T: Send,
    E: Send,
{
    batch.into_par_iter().map(|i| test(i).map(&then)).collect()
}

#[cfg(test)]
mod tests;
