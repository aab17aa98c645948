//! The per-call clock: how long a worker has been on its current call, not counting the
//! time a loaded machine kept its Java thread waiting for a CPU. On 2 cores at load 20 a
//! runnable thread gets about a tenth of a core, so a call needing 0.2 s of CPU took 2 s of
//! wall time and was killed as a hang by a 1 s timeout; each such kill cost a cold JVM.
//!
//! A call's time is its wall time minus the thread's run-queue wait over it
//! (`/proc/PID/task/TID/schedstat`): a call that computes forever still ends at the timeout on
//! a quiet machine, one blocked forever (sleeping, waiting on a lock) too, since a sleeping
//! thread waits for nothing; only the time the scheduler took away is given back. Wall time
//! is still bounded: [`LOAD_ALLOWANCE`] times the timeout at most. Where the kernel keeps no
//! such count, or the thread is not known (a worker starting), the clock is wall time.

use crate::usage::thread_cpu_wait;
use std::time::{Duration, Instant};

/// The longest a call may take in wall time, in timeouts, however loaded the machine.
pub(crate) const LOAD_ALLOWANCE: u32 = 5;

/// One call's clock (one wait for one answer).
pub(crate) struct CallClock {
    began: Instant,
    timeout: Duration,
    /// The worker's process and its Java thread, when known.
    thread: Option<(u32, u32)>,
    /// The thread's run-queue wait when first read.
    baseline: Option<Duration>,
}

impl CallClock {
    /// Starts timing a call of `timeout` on thread `thread` (`(pid, tid)`), now.
    pub(crate) fn start(timeout: Duration, thread: Option<(u32, u32)>) -> Self {
        CallClock {
            began: Instant::now(),
            timeout,
            thread,
            baseline: None,
        }
    }

    /// Whether the call has used up its timeout. Called every few milliseconds while
    /// waiting; reads `/proc` at the first call and, once the wall time passes the timeout,
    /// at each call.
    pub(crate) fn expired(&mut self) -> bool {
        let wall = self.began.elapsed();
        let needed = self.baseline.is_none() || wall >= self.timeout;
        let wait = if needed { self.cpu_wait() } else { None };
        self.expired_at(wall, wait)
    }

    /// [`CallClock::expired`] with the wall time and the thread's run-queue wait given.
    fn expired_at(&mut self, wall: Duration, cpu_wait: Option<Duration>) -> bool {
        if self.baseline.is_none() {
            // The wait before this first reading is not given back: a little early, never late.
            self.baseline = cpu_wait;
        }
        if wall < self.timeout {
            return false;
        }
        if wall >= self.timeout.saturating_mul(LOAD_ALLOWANCE) {
            return true;
        }
        match (self.baseline, cpu_wait) {
            (Some(first), Some(now)) => {
                wall.saturating_sub(now.saturating_sub(first)) >= self.timeout
            }
            _ => true,
        }
    }

    fn cpu_wait(&self) -> Option<Duration> {
        let (pid, tid) = self.thread?;
        thread_cpu_wait(pid, tid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn this_thread() -> (u32, u32) {
        // SAFETY: gettid has no preconditions.
        (std::process::id(), unsafe { libc::gettid() } as u32)
    }

    #[test]
    fn a_sleeping_thread_times_out_at_the_timeout() {
        let mut clock = CallClock::start(ms(50), Some(this_thread()));
        assert!(!clock.expired());
        assert!(clock.baseline.is_some(), "this thread's schedstat is read");
        std::thread::sleep(ms(150));
        assert!(
            clock.expired(),
            "sleeping waits for no CPU: nothing given back"
        );
    }

    #[test]
    fn an_unknown_thread_is_timed_by_the_wall_clock() {
        let mut clock = CallClock::start(ms(30), Some((u32::MAX, 1)));
        assert!(!clock.expired());
        std::thread::sleep(ms(40));
        assert!(clock.expired());
        let mut clock = CallClock::start(ms(30), None);
        std::thread::sleep(ms(40));
        assert!(clock.expired());
    }

    #[test]
    fn time_spent_waiting_for_a_cpu_is_given_back() {
        let mut clock = CallClock::start(ms(100), None);
        assert!(!clock.expired_at(ms(25), Some(ms(1_000))));
        assert!(!clock.expired_at(ms(99), Some(ms(1_000))));
        assert!(
            clock.expired_at(ms(100), Some(ms(1_000))),
            "no wait: the wall clock"
        );
        assert!(
            !clock.expired_at(ms(140), Some(ms(1_050))),
            "50 ms taken by load"
        );
        assert!(clock.expired_at(ms(150), Some(ms(1_050))));
        assert!(
            clock.expired_at(ms(150), None),
            "no reading: the wall clock"
        );
    }

    #[test]
    fn wall_time_is_bounded_however_loaded() {
        let mut clock = CallClock::start(ms(100), None);
        assert!(!clock.expired_at(ms(25), Some(ms(0))));
        assert!(
            !clock.expired_at(ms(499), Some(ms(9_000))),
            "load gives time back"
        );
        assert!(
            clock.expired_at(ms(500), Some(ms(9_000))),
            "five timeouts of wall time"
        );
    }
}
