//! `difftest replay --impl TGT[,TGT…]`: finds the suite, turns the flags into a plan for
//! [`crate::pipeline::replay`] (which checks the suite, replays, groups, minimizes and
//! writes the reports), shows its progress, prints the table (or the matrix), and turns the
//! gate into the exit code.

use super::{pool_config, store};
use crate::cli::{GlobalArgs, ReplayArgs};
use crate::exit::Exit;
use crate::pipeline::replay::{Plan, Progress};
use crate::pipeline::replay_suite::replay_suite;
use crate::progress::{Mode, Phase, rate_and_eta};
use crate::report::{Gate, Report, matrix, table};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

pub fn run(global: &GlobalArgs, args: &ReplayArgs) -> anyhow::Result<Exit> {
    let reports = match replay_reports(global, args) {
        Ok(reports) => reports,
        Err(_) if crate::interrupt::interrupted() => {
            eprintln!("difftest: interrupted; no report written");
            return Ok(Exit::Interrupted);
        }
        Err(e) => return Err(e),
    };
    print(&reports, global.wide);
    Ok(exit_of(&reports))
}

/// Replays the suite on every target and writes each report; prints nothing on stdout.
pub fn replay_reports(global: &GlobalArgs, args: &ReplayArgs) -> anyhow::Result<Vec<Report>> {
    let config = pool_config(&args.pool)?;
    let store = store(global)?;
    let suite = args.suite.as_deref();
    let shown = Shown::new(args.no_progress);
    replay_suite(suite, plan(args), store, config, &shown).map_err(|e| e.into_anyhow())
}

/// The replay's settings, from its flags.
pub fn plan(args: &ReplayArgs) -> Plan {
    Plan {
        impls: args.impls.clone(),
        report_dir: args.report_dir.clone(),
        shard: args.shard,
        confirm: args.confirm,
        segment: args.segment,
        strict_messages: args.strict_messages,
        minimize: !args.no_minimize,
        minimize_budget: args.minimize_budget,
    }
}

/// A bar or log lines on stderr for each target (none when `quiet`), and the files written.
#[derive(Default)]
pub struct Shown {
    phase: Mutex<Option<Phase>>,
    quiet: bool,
}

impl Shown {
    /// Progress as [`Mode::detect`] decides, or none with `quiet` (`--no-progress`).
    pub fn new(quiet: bool) -> Shown {
        Shown {
            phase: Mutex::default(),
            quiet,
        }
    }
}

impl Progress for Shown {
    fn replaying(&self, target: &str, tests: usize) {
        let phase = Phase::start(
            &format!("replaying on {target}"),
            tests as u64,
            Mode::detect(self.quiet),
        );
        *self.phase.lock().unwrap_or_else(|e| e.into_inner()) = Some(phase);
    }

    fn replayed(&self, done: usize, tests: usize, elapsed: Duration) {
        let (done, total) = (done as u64, tests as u64);
        if let Some(phase) = self
            .phase
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            phase.update(done, || {
                let left = total.saturating_sub(done);
                let (rate, eta) = rate_and_eta(done, left, elapsed);
                format!("{done}/{total} tests · {rate:.0} tests/s · about {eta} s left")
            })
        }
    }

    fn replay_done(&self, tests: usize) {
        if let Some(phase) = self.phase.lock().unwrap_or_else(|e| e.into_inner()).take() {
            phase.finish(&format!("{tests} tests"));
        }
    }

    fn wrote(&self, paths: &[PathBuf]) {
        eprintln!("difftest: wrote {}", display_paths(paths));
    }
}

/// The exit code of one or more reports: 3 when a target's class path lacks a class the
/// code needs (infrastructure, whatever else differs), else 1 when any gate fails.
pub fn exit_of(reports: &[Report]) -> Exit {
    if reports.iter().any(|r| r.classpath_fault().is_some()) {
        Exit::Infrastructure
    } else if reports.iter().any(|r| r.gate == Gate::Fail) {
        Exit::Differences
    } else {
        Exit::Success
    }
}

/// Prints the table (one target; fitted to the terminal unless `wide`) or the matrix
/// (several), then summary lines and notes.
pub fn print(reports: &[Report], wide: bool) {
    let width = table::Width::for_stdout(wide);
    let table = match reports {
        [one] => table::groups_table(one, width),
        many => matrix::matrix_table(many, width),
    };
    if !table.is_empty() {
        outln!("{table}");
    }
    for r in reports {
        for line in table::footnotes(r) {
            outln!("{}", table::wrapped(&line, width));
        }
        outln!("{}", crate::color::gate(&table::summary_lines(r, width)));
    }
}

fn display_paths(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(", ")
}
