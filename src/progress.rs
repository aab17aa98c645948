//! Progress on stderr, the one way every long phase reports it: a bar on a terminal; in a
//! log (CI, a pipe, a file) a line when the phase starts, a status line at most every
//! [`LOG_EVERY`] and a line when it ends, as cargo and nextest do; nothing with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a log gets a status line.
pub const LOG_EVERY: Duration = Duration::from_secs(15);

static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences every progress line and bar of this process (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Where progress goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Bar,
    Log,
    Quiet,
}

impl Mode {
    /// A bar on a terminal, lines otherwise; `quiet` (or `--quiet`) silences both.
    pub fn detect(quiet: bool) -> Mode {
        if quiet || QUIET.load(Ordering::Relaxed) {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Log
        }
    }
}

/// One phase's progress.
pub struct Phase {
    name: String,
    mode: Mode,
    bar: ProgressBar,
    began: Instant,
    last_line: Mutex<Instant>,
}

impl Phase {
    /// Starts a phase of `len` steps (the bar's length; lines do not use it).
    pub fn start(name: &str, len: u64, mode: Mode) -> Phase {
        let bar = match mode {
            Mode::Bar => {
                let target = ProgressDrawTarget::stderr_with_hz(4);
                let pb = ProgressBar::with_draw_target(Some(len.max(1)), target);
                let style = ProgressStyle::with_template("{bar:24} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar());
                pb.set_style(style);
                pb
            }
            _ => ProgressBar::hidden(),
        };
        if mode == Mode::Log {
            eprintln!("difftest: {name}: started");
        }
        let now = Instant::now();
        Phase {
            name: name.to_string(),
            mode,
            bar,
            began: now,
            last_line: Mutex::new(now),
        }
    }

    /// Moves the bar to `position` and shows `message` (in a log: at most every
    /// [`LOG_EVERY`], with the time elapsed).
    pub fn update(&self, position: u64, message: impl FnOnce() -> String) {
        match self.mode {
            Mode::Quiet => {}
            Mode::Bar => {
                self.bar.set_position(position);
                self.bar.set_message(message());
            }
            Mode::Log => {
                let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
                if last.elapsed() >= LOG_EVERY {
                    *last = Instant::now();
                    let secs = self.began.elapsed().as_secs();
                    eprintln!("difftest: {}: {} · {secs} s elapsed", self.name, message());
                }
            }
        }
    }

    /// The bar's new length, when the work turned out smaller or larger than announced.
    pub fn set_len(&self, len: u64) {
        self.bar.set_length(len.max(1));
    }

    /// Ends the phase with a closing line in a log.
    pub fn finish(&self, summary: &str) {
        self.bar.finish_and_clear();
        if self.mode == Mode::Log {
            let secs = self.began.elapsed().as_secs_f64();
            eprintln!("difftest: {}: done in {secs:.1} s, {summary}", self.name);
        }
    }
}

/// `n` units per second over `elapsed`, and the seconds left for `remaining` at that rate.
pub fn rate_and_eta(n: u64, remaining: u64, elapsed: Duration) -> (f64, u64) {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = n as f64 / secs;
    let eta = if rate > 0.0 {
        (remaining as f64 / rate).ceil() as u64
    } else {
        0
    };
    (rate, eta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_wins_and_rates_are_per_second() {
        assert_eq!(Mode::detect(true), Mode::Quiet);
        let (rate, eta) = rate_and_eta(100, 300, Duration::from_secs(10));
        assert_eq!((rate, eta), (10.0, 30));
        assert_eq!(rate_and_eta(0, 5, Duration::from_secs(1)), (0.0, 0));
    }
}
