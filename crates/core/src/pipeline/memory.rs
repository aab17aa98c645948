//! This process's resident memory and wall time per phase of a record: a thread samples the
//! memory every 50 ms, and each phase's end notes the highest sample since the last one, the
//! memory held then and how long the phase took (`record -v` prints them beside generation's
//! `footprint`).

use crate::usage::rss_kib;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One phase's memory, in KiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseMemory {
    /// The phase: `setup` (provisioning, describing, mining), `generation`, `reduction`,
    /// `reruns`, `writing`.
    pub phase: &'static str,
    /// The highest resident memory sampled during it.
    pub peak_kib: u64,
    /// The resident memory when it ended.
    pub end_kib: u64,
    /// Its wall time.
    pub elapsed: Duration,
}

/// The sampling thread and the phases noted so far; the thread stops when this is dropped.
pub(crate) struct PhaseSampler {
    peak: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    phases: Vec<PhaseMemory>,
    /// When the current phase began.
    began: Instant,
}

/// How often the resident memory is sampled.
const EVERY: Duration = Duration::from_millis(50);

fn now_kib() -> u64 {
    rss_kib("self").unwrap_or(0)
}

impl PhaseSampler {
    /// Starts sampling; the first phase starts now.
    pub(crate) fn start() -> PhaseSampler {
        let peak = Arc::new(AtomicU64::new(now_kib()));
        let stop = Arc::new(AtomicBool::new(false));
        let (p, s) = (peak.clone(), stop.clone());
        let spawned = std::thread::Builder::new()
            .name("rss-sampler".into())
            .spawn(move || {
                while !s.load(Ordering::Relaxed) {
                    p.fetch_max(now_kib(), Ordering::Relaxed);
                    std::thread::sleep(EVERY);
                }
            });
        // Without the thread, each phase's peak is only what its end saw.
        drop(spawned);
        PhaseSampler {
            peak,
            stop,
            phases: Vec::new(),
            began: Instant::now(),
        }
    }

    /// Ends `phase`: notes its peak and its end, and starts the next phase's peak from now.
    pub(crate) fn end(&mut self, phase: &'static str) {
        let end_kib = now_kib();
        let peak_kib = self.peak.swap(end_kib, Ordering::Relaxed).max(end_kib);
        self.phases.push(PhaseMemory {
            phase,
            peak_kib,
            end_kib,
            elapsed: self.began.elapsed(),
        });
        self.began = Instant::now();
    }

    /// The phases noted, in order.
    pub(crate) fn phases(&self) -> Vec<PhaseMemory> {
        self.phases.clone()
    }
}

impl Drop for PhaseSampler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
