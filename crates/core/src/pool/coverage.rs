//! Taking the execution data of a JaCoCo agent from the workers of a pool. Each worker's
//! data stays in its JVM (`output=none`), since the sandbox lets workers write nowhere
//! lasting and a killed worker runs no shutdown hook; so a worker that finished a chunk
//! hands its data over (and its agent starts again from zero) once [`HARVEST_EVERY`] has
//! passed since the pool last took any, and [`Pool::coverage`] takes the rest from every
//! live worker at the end. A worker killed (a hang, a crash, the deadline) loses only what
//! it gathered since it was last asked. JaCoCo reads execution data appended one after
//! another as one file, so the pool keeps one growing buffer.

use super::process::WorkerProcess;
use super::{Pool, PoolError, Watch, describe_failure};
use crate::message::{Request, Response};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often, at most, a worker that finished a chunk is asked for its data.
const HARVEST_EVERY: Duration = Duration::from_secs(1);

/// The data taken so far, and when it was last taken.
#[derive(Default)]
pub(super) struct Harvest {
    data: Mutex<Vec<u8>>,
    last: Mutex<Option<Instant>>,
}

impl Pool {
    /// With `coverage`, takes `worker`'s data when it is time; false when the worker failed
    /// to answer (it is then dropped, not checked in).
    pub(super) fn harvest_from(&self, worker: &mut WorkerProcess) -> bool {
        if !self.config.coverage || !self.harvest_due() {
            return true;
        }
        match self.ask_coverage(worker) {
            Ok(bytes) => {
                if let Ok(mut data) = self.harvest.data.lock() {
                    data.extend_from_slice(&bytes);
                }
                true
            }
            Err(_) => {
                self.retire(worker);
                false
            }
        }
    }

    fn harvest_due(&self) -> bool {
        let Ok(mut last) = self.harvest.last.lock() else {
            return false;
        };
        let due = last.is_none_or(|t| t.elapsed() >= HARVEST_EVERY);
        if due {
            *last = Some(Instant::now());
        }
        due
    }

    /// Every byte of JaCoCo execution data (`.exec`) taken so far, and the rest from each
    /// idle worker.
    pub fn coverage(&self) -> Result<Vec<u8>, PoolError> {
        let workers: Vec<_> = match self.idle.lock() {
            Ok(mut idle) => idle.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        let mut all = self
            .harvest
            .data
            .lock()
            .map(|d| d.clone())
            .unwrap_or_default();
        for mut worker in workers {
            all.extend(self.ask_coverage(&mut worker)?);
            self.checkin(worker);
        }
        Ok(all)
    }

    fn ask_coverage(&self, worker: &mut WorkerProcess) -> Result<Vec<u8>, PoolError> {
        let watch = Watch {
            max_rss_kib: self.config.worker_memory.map(|b| b / 1024),
            ..Watch::default()
        };
        let deadline = self.config.startup_timeout.max(self.config.timeout);
        let answer = worker
            .send(&Request::Coverage)
            .and_then(|_| worker.receive(deadline, &watch));
        let hex = match answer {
            Ok(Response::Coverage { hex }) => hex,
            Ok(Response::Failed { error }) => return Err(self.worker_error(error)),
            Ok(other) => return Err(self.unexpected(other)),
            Err(f) => return Err(self.worker_error(describe_failure(&f))),
        };
        from_hex(&hex).ok_or_else(|| self.worker_error("coverage data is not hex".to_string()))
    }
}

/// Bytes from lower- or upper-case hex; `None` for anything else.
fn from_hex(hex: &str) -> Option<Vec<u8>> {
    let digits = hex.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let value = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    digits
        .chunks(2)
        .map(|pair| Some((value(pair[0])? << 4) | value(pair[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::from_hex;

    #[test]
    fn hex_reads_back_and_refuses_odd_or_foreign_text() {
        assert_eq!(from_hex("00ff1A"), Some(vec![0, 255, 26]));
        assert_eq!(from_hex(""), Some(vec![]));
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("zz"), None);
    }
}
