//! The one abstraction over worker pools that generation, reruns, replay and minimization
//! run sequences through: an [`Executor`] runs sequences on one implementation, a [`Lane`]
//! starts fresh executors (fresh JVMs) on it — for replay's confirmations and for each of
//! flake removal's reruns. [`Pool`] and [`PoolLane`] (and the record's rerun lane) in
//! production; the one fake of the unit tests (`pool::fake`) otherwise.

use super::{Pool, PoolConfig, PoolError};
use crate::message::SeqRequest;
use crate::sequence::SeqResult;
use crate::targets::JvmSpec;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Runs sequences on one implementation.
pub(crate) trait Executor: Sync {
    /// Runs every sequence (in parallel where it can), checking the contracts if asked;
    /// results in input order.
    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError>;

    /// Peak resident set size of each worker so far, in KiB.
    fn peak_rss_kib(&self) -> Vec<u64> {
        Vec::new()
    }

    /// Work still running at `deadline` is killed and fails with `PoolError::Stopped`.
    fn set_deadline(&self, _deadline: Option<Instant>) {}
}

impl Executor for Pool {
    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        Pool::run(self, seqs, contracts)
    }

    fn peak_rss_kib(&self) -> Vec<u64> {
        Pool::peak_rss_kib(self)
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        Pool::set_deadline(self, deadline)
    }
}

/// Starts executors on one implementation; each start gives fresh workers (fresh JVMs).
pub(crate) trait Lane: Sync {
    /// An executor with `jobs` workers.
    fn start(&self) -> Result<Box<dyn Executor>, PoolError>;
    /// An executor with one fresh worker: one JVM that runs what it is given in order.
    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError>;
    /// How many single executors may run at once.
    fn jobs(&self) -> usize;
    /// An executor for run `run` of several over the same tests (flake removal's reruns): a
    /// lane may set each run up its own way (batch sizes, JVM options) so that values which
    /// depend on it show as unstable. By default, [`Lane::start`].
    fn start_run(&self, _run: usize) -> Result<Box<dyn Executor>, PoolError> {
        self.start()
    }
    /// An executor with one fresh worker set up for run `run` as [`Lane::start_run`] sets
    /// it up. By default, [`Lane::start_single`].
    fn start_run_single(&self, _run: usize) -> Result<Box<dyn Executor>, PoolError> {
        self.start_single()
    }
}

/// A lane of worker pools for one provisioned target; it adds up what its pools used.
pub(crate) struct PoolLane {
    pub name: String,
    pub jvm: JvmSpec,
    pub config: PoolConfig,
    usage: Arc<Mutex<Usage>>,
}

/// What the pools of a lane used, summed when each pool is dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    pub workers_started: u64,
    pub startup_ms: u64,
    pub timeouts: u64,
    pub crashes: u64,
    /// The largest peak RSS of any worker, KiB.
    pub worker_peak_rss_kib: u64,
}

impl PoolLane {
    pub(crate) fn new(name: &str, jvm: JvmSpec, config: PoolConfig) -> PoolLane {
        PoolLane {
            name: name.to_string(),
            jvm,
            config,
            usage: Arc::default(),
        }
    }

    /// What the lane's finished pools used.
    pub(crate) fn usage(&self) -> Usage {
        self.usage.lock().map(|u| u.clone()).unwrap_or_default()
    }

    fn start_with(&self, config: PoolConfig) -> Result<Box<dyn Executor>, PoolError> {
        let pool = Pool::start(&self.name, self.jvm.clone(), config)?;
        Ok(Box::new(Tracked {
            pool,
            usage: self.usage.clone(),
        }))
    }
}

impl Lane for PoolLane {
    fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.start_with(self.config.clone())
    }

    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
        let mut config = self.config.clone();
        config.jobs = 1;
        self.start_with(config)
    }

    fn jobs(&self) -> usize {
        self.config.jobs.max(1)
    }
}

/// A pool that reports its usage to its lane when dropped.
struct Tracked {
    pool: Pool,
    usage: Arc<Mutex<Usage>>,
}

impl Executor for Tracked {
    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        self.pool.run(seqs, contracts)
    }

    fn peak_rss_kib(&self) -> Vec<u64> {
        self.pool.peak_rss_kib()
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let stats = self.pool.stats();
        let peak = self.pool.peak_rss_kib().into_iter().max().unwrap_or(0);
        if let Ok(mut u) = self.usage.lock() {
            u.workers_started += stats.workers_started;
            u.startup_ms += stats.startup_ms_total;
            u.timeouts += stats.timeouts;
            u.crashes += stats.crashes;
            u.worker_peak_rss_kib = u.worker_peak_rss_kib.max(peak);
        }
    }
}
