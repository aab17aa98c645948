//! The progress of `record` (see [`crate::progress`]; off with `--no-progress` or
//! `--quiet`): sequences executed per second, tests kept, errors, pool size and time left
//! while generating; rerun number and tests done while removing flakes.

use crate::generate::Progress;
use crate::progress::{Mode, Phase, rate_and_eta};
use std::time::Duration;

/// Generation, measured against its time limit.
pub fn generation(limit: Duration, quiet: bool) -> Phase {
    Phase::start("generating", limit.as_secs(), Mode::detect(quiet))
}

/// Shows a round's progress.
pub fn generated(phase: &Phase, p: &Progress, limit: Duration) {
    let left = limit.saturating_sub(p.elapsed).as_secs();
    phase.update(p.elapsed.as_secs(), || {
        let (rate, _) = rate_and_eta(p.executed, 0, p.elapsed);
        format!(
            "{} run ({rate:.0}/s) · {} tests · {} errors · pool {} · at most {left} s left",
            p.executed, p.tests, p.errors, p.pool,
        )
    });
}

/// All reruns of all tests.
pub fn reruns(reruns: usize, tests: usize, quiet: bool) -> Phase {
    let name = format!("rerunning {tests} tests {reruns} times");
    Phase::start(&name, (reruns * tests) as u64, Mode::detect(quiet))
}

/// Shows how far rerun `i` got.
pub fn rerun(phase: &Phase, i: usize, of: usize, tests: usize, done: usize, elapsed: Duration) {
    let position = (i * tests + done) as u64;
    let total = (of * tests) as u64;
    phase.update(position, || {
        let (rate, eta) = rate_and_eta(position, total.saturating_sub(position), elapsed);
        format!(
            "rerun {}/{of} · {done}/{tests} tests · {rate:.0} tests/s · about {eta} s left",
            i + 1
        )
    });
}
