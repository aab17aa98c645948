//! Fetching the execution data of a JaCoCo agent from every live worker of a pool (asked
//! after generation, before the pool is dropped): each worker's data stays in its JVM
//! (`output=none`), since the sandbox lets workers write nowhere lasting and a killed
//! worker runs no shutdown hook. A worker that died or was replaced took its data with it.

use super::{Pool, PoolError, Watch, describe_failure};
use crate::worker::protocol::{Request, Response};

impl Pool {
    /// The JaCoCo execution data (`.exec` bytes) of each idle worker, one entry per worker.
    pub fn coverage(&self) -> Result<Vec<Vec<u8>>, PoolError> {
        let workers: Vec<_> = match self.idle.lock() {
            Ok(mut idle) => idle.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        let mut all = Vec::with_capacity(workers.len());
        for mut worker in workers {
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
            self.checkin(worker);
            all.push(
                from_hex(&hex)
                    .ok_or_else(|| self.worker_error("coverage data is not hex".to_string()))?,
            );
        }
        Ok(all)
    }
}

/// Bytes from lower- or upper-case hex; `None` for anything else.
fn from_hex(hex: &str) -> Option<Vec<u8>> {
    let digits = hex.as_bytes();
    if digits.len() % 2 != 0 {
        return None;
    }
    let value = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    digits
        .chunks(2)
        .map(|pair| Some(value(pair[0])? << 4 | value(pair[1])?))
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
