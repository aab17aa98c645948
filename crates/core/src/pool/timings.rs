//! Taking the time per part of a run from a pool's workers, for `difftest bench attribute`:
//! each idle worker is asked `Request::Timings` (its agent's table, then its own), and put
//! back. A worker's first ask turns its timing on.

use super::{Pool, PoolError, Watch, describe_failure};
use crate::message::{Request, Response};

impl Pool {
    /// Each idle worker's table of the time spent per part since it was last asked, one
    /// `part<TAB>key<TAB>count<TAB>nanoseconds` line each; the first ask of a worker turns
    /// its timing on and answers an empty table.
    pub fn timings(&self) -> Result<Vec<String>, PoolError> {
        let workers: Vec<_> = match self.idle.lock() {
            Ok(mut idle) => idle.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        let mut tables = Vec::with_capacity(workers.len());
        for mut worker in workers {
            let watch = Watch {
                max_rss_kib: self.config.worker_memory.map(|b| b / 1024),
                ..Watch::default()
            };
            let deadline = self.config.startup_timeout.max(self.config.timeout);
            let answer = worker
                .send(&Request::Timings)
                .and_then(|_| worker.receive(deadline, &watch));
            match answer {
                Ok(Response::Timings { table }) => tables.push(table),
                Ok(Response::Failed { error }) => return Err(self.worker_error(error)),
                Ok(other) => return Err(self.unexpected(other)),
                Err(f) => return Err(self.worker_error(describe_failure(&f))),
            }
            self.checkin(worker);
        }
        Ok(tables)
    }
}
