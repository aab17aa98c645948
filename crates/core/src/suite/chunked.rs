//! Regression tests written with shared blocks ([`super::share`]) planned chunk by chunk:
//! consecutive tests are counted until the count holds [`super::share::CHUNK_RUNS`] distinct
//! runs, then that chunk is planned and written before the next is read. What planning
//! holds is bounded by the chunk, not the suite, and every block's uses lie in its chunk, so
//! a reader holds no block past it. Chunks depend only on the tests: a seed still gives one
//! byte-identical suite.

use super::share::{CHUNK_RUNS, Counter};
use super::{SuiteError, Test, Writer};
use std::borrow::Borrow;

/// Writes the `n` regression tests `test(0)`, …, `test(n - 1)` through `w`; each is asked
/// for three times (counted, planned, written), one at a time.
pub fn write_tests<T, E>(
    w: &mut Writer,
    n: usize,
    test: impl FnMut(usize) -> Result<T, E>,
) -> Result<(), E>
where
    T: Borrow<Test>,
    E: From<SuiteError>,
{
    write_in_chunks(w, n, test, CHUNK_RUNS)
}

/// [`write_tests`] with chunks closed at `runs` distinct runs.
fn write_in_chunks<T, E>(
    w: &mut Writer,
    n: usize,
    mut test: impl FnMut(usize) -> Result<T, E>,
    runs: usize,
) -> Result<(), E>
where
    T: Borrow<Test>,
    E: From<SuiteError>,
{
    let mut start = 0;
    while start < n {
        let mut counter = Counter::default();
        let mut end = start;
        while end < n && !counter.full(runs) {
            counter.add(test(end)?.borrow());
            end += 1;
        }
        let mut planner = counter.planner();
        for i in start..end {
            planner.add(test(i)?.borrow());
        }
        w.share(planner.finish())?;
        for i in start..end {
            w.test(test(i)?.borrow())?;
        }
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
