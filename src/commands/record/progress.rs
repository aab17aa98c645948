//! The progress of `record` (see [`crate::progress`]; off with `--no-progress` or
//! `--quiet`): sequences executed per second, tests kept, errors, pool size and time left
//! while generating; rerun number and tests done while removing flakes; a line on stderr
//! when generation stops early. It keeps the counts the summary needs (the reduction, the
//! tests rerun) for [`super::summary`], which prints them in pipeline order.

use crate::generate::reduce::Reduction;
use crate::generate::{self, StopReason};
use crate::interrupt;
use crate::pipeline::record::{Plan, Progress};
use crate::plural;
use crate::progress::{Mode, Phase, rate_and_eta};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// What `record` shows of a [`crate::pipeline::record`] run.
pub struct Shown {
    quiet: bool,
    limit: Duration,
    /// An output limit was asked for (so a time limit reached first is worth a warning).
    output_limit: bool,
    phase: Option<Phase>,
    reruns: usize,
    /// Tests of the rerun under way.
    tests: usize,
    /// Which rerun is under way, and the tests the earlier ones ran.
    rerun_index: usize,
    done_before: usize,
    /// Tests the reruns started with (what the first reduction kept), if they ran.
    pub rerun_tests: Option<usize>,
    /// The reduction, from the full suite to the tests written.
    pub reduction: Option<Reduction>,
}

impl Shown {
    pub fn new(plan: &Plan, quiet: bool) -> Shown {
        Shown {
            quiet,
            limit: plan.generation.time_limit,
            output_limit: plan.generation.output_limit.is_some(),
            phase: None,
            reruns: 0,
            tests: 0,
            rerun_index: 0,
            done_before: 0,
            rerun_tests: None,
            reduction: None,
        }
    }

    fn update(&self, position: u64, message: impl FnOnce() -> String) {
        if let Some(phase) = &self.phase {
            phase.update(position, message);
        }
    }

    fn finish(&mut self, summary: &str) {
        if let Some(phase) = self.phase.take() {
            phase.finish(summary);
        }
    }
}

impl Progress for Shown {
    fn generating(&mut self, limit: Duration) {
        self.limit = limit;
        let phase = Phase::start("generating", limit.as_secs(), Mode::detect(self.quiet));
        self.phase = Some(phase);
    }

    fn generated(&mut self, p: &generate::Progress) {
        let left = self.limit.saturating_sub(p.elapsed).as_secs();
        self.update(p.elapsed.as_secs(), || {
            let (rate, _) = rate_and_eta(p.executed, 0, p.elapsed);
            format!(
                "{} run ({rate:.0}/s) · {} · {} · pool {} · at most {left} s left",
                p.executed,
                plural(p.tests, "test"),
                plural(p.errors, "error"),
                p.pool,
            )
        });
    }

    fn generation_done(&mut self, tests: usize, reason: Option<StopReason>) {
        self.finish(&format!("{} kept", plural(tests, "test")));
        match reason {
            Some(StopReason::Interrupted) if interrupt::SECOND.load(Ordering::SeqCst) => {
                eprintln!("difftest: interrupted; writing the tests kept so far without reruns")
            }
            Some(StopReason::Interrupted) => eprintln!(
                "difftest: interrupted; rerunning and writing the tests kept so far \
                 (Ctrl-C again to skip the reruns)"
            ),
            Some(StopReason::TimeLimit) if self.output_limit => eprintln!(
                "difftest: warning: the time limit came before the output limit; this suite \
                 depends on the machine's speed and is not reproducible byte for byte"
            ),
            Some(StopReason::Exhausted) => {
                eprintln!("difftest: no new sequences could be drawn; the scope is exhausted")
            }
            _ => {}
        }
    }

    fn reduced(&mut self, r: &Reduction) {
        self.reduction = Some(*r);
    }

    fn rerunning(&mut self, reruns: usize, tests: usize) {
        (self.reruns, self.tests) = (reruns, tests);
        (self.rerun_index, self.done_before) = (0, 0);
        self.rerun_tests = Some(tests);
        let name = format!("rerunning {tests} tests {reruns} times");
        let phase = Phase::start(&name, (reruns * tests) as u64, Mode::detect(self.quiet));
        self.phase = Some(phase);
    }

    fn rerun(&mut self, i: usize, done: usize, tests: usize, elapsed: Duration) {
        let of = self.reruns;
        if i != self.rerun_index {
            // A later rerun: the earlier ones ran what they ran, this one and the rest
            // run `tests` each (the suite is reduced between reruns).
            self.rerun_index = i;
            self.done_before += self.tests;
            self.tests = tests;
        }
        let position = (self.done_before + done) as u64;
        let total = (self.done_before + (of - i) * tests) as u64;
        if let Some(phase) = &self.phase {
            phase.set_len(total);
        }
        self.update(position, || {
            let (rate, eta) = rate_and_eta(position, total.saturating_sub(position), elapsed);
            format!(
                "rerun {}/{of} · {done}/{tests} tests · {rate:.0} tests/s · about {eta} s left",
                i + 1
            )
        });
    }

    fn reruns_done(&mut self, done: usize) {
        self.finish(&format!("{} done", plural(done, "rerun")));
    }
}
