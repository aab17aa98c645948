//! The progress bars of `record` (stderr, only on a terminal and without `--no-progress`):
//! sequences executed per second, tests kept, errors, pool size and time left while
//! generating; rerun number and tests done while removing flakes.

use crate::generate::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

fn bar(len: u64, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr_with_hz(4));
    let style = ProgressStyle::with_template("{bar:24} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    pb.set_style(style);
    pb
}

/// A bar over the generation time limit.
pub fn generation(limit: Duration, show: bool) -> ProgressBar {
    bar(limit.as_secs().max(1), show)
}

/// Shows a round's progress.
pub fn generated(pb: &ProgressBar, p: &Progress, limit: Duration) {
    let secs = p.elapsed.as_secs_f64().max(1e-3);
    let left = limit.saturating_sub(p.elapsed).as_secs();
    pb.set_position(p.elapsed.as_secs());
    pb.set_message(format!(
        "{} run ({:.0}/s) · {} tests · {} errors · pool {} · {left} s left",
        p.executed,
        p.executed as f64 / secs,
        p.tests,
        p.errors,
        p.pool,
    ));
}

/// A bar over all reruns of all tests.
pub fn reruns(reruns: usize, tests: usize, show: bool) -> ProgressBar {
    bar((reruns * tests).max(1) as u64, show)
}

/// Shows how far rerun `i` got.
pub fn rerun(pb: &ProgressBar, i: usize, of: usize, tests: usize, done: usize) {
    pb.set_position((i * tests + done) as u64);
    pb.set_message(format!("rerun {}/{of} · {done}/{tests} tests", i + 1));
}
