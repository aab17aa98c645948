//! The supervisor: keeps up to `jobs` worker processes for one target, fans batches of
//! sequences out over them in parallel (rayon), enforces the per-call timeout from outside
//! (on a clock that does not count the time load kept a worker from a CPU: `clock`), and
//! replaces any worker that hangs or dies. A hang is reported as `timeout` and a death
//! as `crash` for the one sequence that caused it; the rest of the batch is run again on a
//! fresh worker, so nothing the code under test does loses results already collected.
//!
//! Two things end a run early: the abort flag (Ctrl-C, SIGTERM) and a hard deadline (the
//! record's time limit). Either kills the workers of the run at once, whatever the code
//! under test is doing, and the run returns [`PoolError::Stopped`]. A worker whose resident
//! memory grows past `worker_memory` is killed and its sequence reported as a `crash` whose
//! exit reads `memory limit`. A worker killed from outside with SIGKILL (`kill -9`, the OOM
//! killer) is not the sequence's doing: a sequence is run again (twice at most) before such a
//! death is blamed on it, and a worker killed while starting or describing is replaced. A
//! worker lost to a hang or a crash is replaced by a warm spare started in the background
//! (`spare`), so the run does not wait for a JVM to start. So is a worker whose heap a
//! sequence ran out (`heap`): that sequence's answer stands, the rest run on the spare.

mod clock;
mod coverage;
pub(crate) mod executor;
#[cfg(test)]
pub(crate) mod fake;
mod fit;
mod heap;
pub(crate) mod pipeline;
mod process;
mod spare;
#[cfg(feature = "bench")]
mod timings;

pub(crate) use executor::{Executor, Lane, PoolLane};
pub(crate) use pipeline::Pipeline;

use crate::message::{Request, Response, SeqRequest};
use crate::model::ApiModel;
use crate::sequence::SeqResult;
use crate::targets::JvmSpec;
use process::{Failure, Launch, Watch, WorkerProcess};
use rayon::prelude::*;
use spare::{Recipe, Spare};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Replacements for a worker killed from outside (SIGKILL) while describing; a large scope
/// takes seconds to describe on a loaded machine.
const KILLED_RETRIES: u32 = 10;

/// Longest an Espresso worker may take to start: a context needs 10–30 s on a loaded
/// 2-core machine, and over 60 s when several start at once under load.
const ESPRESSO_STARTUP: Duration = Duration::from_secs(300);

/// Default `--worker-memory`: 2 GiB resident (workers normally use 40–100 MiB).
pub(crate) const DEFAULT_WORKER_MEMORY: u64 = 2 << 30;

/// The shortest time a fraction of the timeout gives a call: below it a class's first use
/// (loading, linking, locale data) would read as a hang.
pub(crate) const MIN_CALL_TIMEOUT: Duration = Duration::from_millis(100);

/// What one sequence may run: `timeout` divided by `fraction` (at least 1), but not below
/// [`MIN_CALL_TIMEOUT`] unless `timeout` is.
fn call_timeout(timeout: Duration, fraction: u32) -> Duration {
    (timeout / fraction.max(1)).max(timeout.min(MIN_CALL_TIMEOUT))
}

/// How a pool runs its workers.
#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// Worker processes at most.
    pub jobs: usize,
    /// Longest a single sequence may run before its worker is killed, not counting the time
    /// the machine's load kept the worker's Java thread waiting for a CPU (`pool/clock`; at
    /// most five times this in wall time).
    pub timeout: Duration,
    /// Use the target's own `timeout:` instead of `timeout` when it sets one (the user gave
    /// no `--timeout`).
    pub target_timeout: bool,
    /// Each sequence gets `timeout / timeout_fraction` (a fraction of at least 1), but never
    /// less than [`MIN_CALL_TIMEOUT`] unless `timeout` itself is: generation gives a
    /// twentieth, so a call that hangs costs it less and every recorded test ran well within
    /// what its replay allows.
    pub timeout_fraction: u32,
    /// Longest a JVM may take to start.
    pub startup_timeout: Duration,
    /// Sequences sent to a worker in one message.
    pub batch: usize,
    /// The `difftest` executable that serves as worker (`__worker`).
    pub worker_exe: PathBuf,
    /// Run workers in the sandbox (`crate::worker::sandbox`).
    pub sandbox: bool,
    /// Resident memory one worker may use, in bytes, before it is killed.
    pub worker_memory: Option<u64>,
    /// When set, every run stops at once: workers are killed, the run fails with `Stopped`.
    pub abort: Option<&'static AtomicBool>,
    /// A value whose escaped text is longer is answered as `Observed::Large`; `None` keeps
    /// every value whole (a suite recorded before the limit existed).
    pub max_value_bytes: Option<u64>,
    /// The `toString()` observer of an object whose class keeps `Object.toString()` is
    /// answered as `Class@0`, never calling the class's `hashCode()` (a suite
    /// recorded so says it in its header, [`crate::suite::PLAIN_OBJECT_TEXT_OPTION`]).
    pub plain_class_text: bool,
    /// The workers run JaCoCo's agent: their data is taken over now and then as they
    /// finish a chunk (see `pool/coverage`), so a worker killed later loses little.
    pub coverage: bool,
}

impl PoolConfig {
    /// Defaults: one job per core, 5 s per call, batches of 500, this executable as worker.
    pub fn new() -> Self {
        PoolConfig {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            timeout: Duration::from_secs(5),
            target_timeout: false,
            timeout_fraction: 1,
            startup_timeout: Duration::from_secs(60),
            batch: 500,
            worker_exe: std::env::current_exe().unwrap_or_else(|_| "difftest".into()),
            sandbox: true,
            worker_memory: Some(DEFAULT_WORKER_MEMORY),
            abort: None,
            max_value_bytes: None,
            plain_class_text: false,
            coverage: false,
        }
    }
}

impl Default for PoolConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// Why the pool could not do its work (the code under test never causes these).
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// A worker could not start.
    #[error("target {target}: {message}")]
    Start {
        /// The target.
        target: String,
        /// What is wrong.
        message: String,
    },
    /// A worker answered wrongly or failed.
    #[error("target {target}: {message}")]
    Worker {
        /// The target.
        target: String,
        /// What is wrong.
        message: String,
    },
    /// The thread pool could not be built.
    #[error("cannot build the thread pool: {0}")]
    Threads(String),
    /// The run was stopped by the abort flag or the deadline; its results are incomplete.
    #[error("stopped")]
    Stopped,
}

/// What a describe request found: the model, the names the JVM did not know, and the classes
/// of the scope left out because loading or describing them needs a class the class path
/// lacks (class → the missing class).
#[derive(Debug)]
pub struct Described {
    /// The API model of the classes described.
    pub model: ApiModel,
    /// Names the JVM did not know.
    pub unknown: Vec<String>,
    /// Classes left out, with the class each needs that the class path lacks.
    pub missing: BTreeMap<String, String>,
}

/// How a worker's batch ended without a failure.
enum RunEnd {
    /// Every sequence of the batch answered.
    AllAnswered,
    /// The last answer shows the worker's heap ran out (`heap::exhausted`): that answer
    /// stands, and the worker must run no other sequence.
    HeapExhausted,
}

/// Counters for reports and benchmarks.
#[derive(Debug, Default, Clone)]
pub struct PoolStats {
    /// Workers started.
    pub workers_started: u64,
    /// Milliseconds the workers took to start, summed.
    pub startup_ms_total: u64,
    /// Sequences that hit the timeout.
    pub timeouts: u64,
    /// Workers that died running a sequence.
    pub crashes: u64,
    /// Workers replaced because a sequence ran their heap out (`heap`).
    pub heap_exhausted: u64,
    /// Milliseconds workers spent on batches (checked out, from sending to the last answer),
    /// summed over workers: against jobs × wall time, how busy the pool was.
    pub busy_ms: u64,
}

/// Workers for one target.
pub struct Pool {
    target: String,
    jvm: JvmSpec,
    config: PoolConfig,
    idle: Mutex<Vec<WorkerProcess>>,
    threads: rayon::ThreadPool,
    started: AtomicU64,
    startup_ms: AtomicU64,
    timeouts: AtomicU64,
    busy_us: AtomicU64,
    crashes: AtomicU64,
    heap_exhausted: AtomicU64,
    peak_rss: Mutex<Vec<u64>>,
    deadline: Mutex<Option<Instant>>,
    harvest: coverage::Harvest,
    /// The worker that replaces the next one lost (`spare`).
    spare: Spare,
}

impl Pool {
    /// A pool for `target`; starts one worker at once so a broken JVM is reported here.
    pub fn start(target: &str, jvm: JvmSpec, mut config: PoolConfig) -> Result<Pool, PoolError> {
        if jvm.espresso.is_some() {
            config.startup_timeout = config.startup_timeout.max(ESPRESSO_STARTUP);
        }
        if let Some(timeout) = jvm.timeout.filter(|_| config.target_timeout) {
            config.timeout = timeout;
        }
        config.timeout = call_timeout(config.timeout, config.timeout_fraction);
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(config.jobs.max(1))
            .build()
            .map_err(|e| PoolError::Threads(e.to_string()))?;
        let pool = Pool {
            target: target.to_string(),
            jvm,
            config,
            idle: Mutex::new(Vec::new()),
            threads,
            started: AtomicU64::new(0),
            startup_ms: AtomicU64::new(0),
            timeouts: AtomicU64::new(0),
            busy_us: AtomicU64::new(0),
            crashes: AtomicU64::new(0),
            heap_exhausted: AtomicU64::new(0),
            peak_rss: Mutex::new(Vec::new()),
            deadline: Mutex::new(None),
            harvest: coverage::Harvest::default(),
            spare: Spare::default(),
        };
        let first = pool.spawn()?;
        pool.checkin(first);
        Ok(pool)
    }

    /// The target's name.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// Workers run at once.
    pub fn jobs(&self) -> usize {
        self.config.jobs.max(1)
    }

    /// The counters so far.
    pub fn stats(&self) -> PoolStats {
        PoolStats {
            workers_started: self.started.load(Ordering::Relaxed),
            startup_ms_total: self.startup_ms.load(Ordering::Relaxed),
            timeouts: self.timeouts.load(Ordering::Relaxed),
            crashes: self.crashes.load(Ordering::Relaxed),
            heap_exhausted: self.heap_exhausted.load(Ordering::Relaxed),
            busy_ms: self.busy_us.load(Ordering::Relaxed) / 1000,
        }
    }

    /// Peak RSS in KiB of every worker seen so far (live ones read now).
    pub fn peak_rss_kib(&self) -> Vec<u64> {
        let mut all = self.peak_rss.lock().map(|v| v.clone()).unwrap_or_default();
        if let Ok(idle) = self.idle.lock() {
            all.extend(idle.iter().filter_map(|w| w.peak_rss_kib()));
        }
        all
    }

    /// The API of these classes and packages (`p` alone, `p.*` with its subpackages); also
    /// returns the names the JVM did not know.
    pub fn describe(
        &self,
        classes: &[String],
        packages: &[String],
    ) -> Result<(ApiModel, Vec<String>), PoolError> {
        let d = self.describe_scope(classes, packages, &[])?;
        Ok((d.model, d.unknown))
    }

    /// Like [`Pool::describe`], with every public class in these jars or class folders too,
    /// and the classes left out for a class missing from the class path.
    pub fn describe_scope(
        &self,
        classes: &[String],
        packages: &[String],
        jars: &[std::path::PathBuf],
    ) -> Result<Described, PoolError> {
        let req = Request::Describe {
            classes: classes.to_vec(),
            packages: packages.to_vec(),
            jars: jars.to_vec(),
        };
        match self.ask(&req)? {
            Response::Model {
                model,
                unknown,
                missing,
            } => Ok(Described {
                model,
                unknown,
                missing,
            }),
            other => Err(self.unexpected(other)),
        }
    }

    /// The literal constants of these classes' class files (see [`Response::Constants`]).
    pub fn constants(
        &self,
        classes: &[String],
    ) -> Result<BTreeMap<String, Vec<String>>, PoolError> {
        let req = Request::Constants {
            classes: classes.to_vec(),
        };
        match self.ask(&req)? {
            Response::Constants { classes } => Ok(classes),
            other => Err(self.unexpected(other)),
        }
    }

    /// System properties of the target's JVM.
    pub fn properties(&self, names: &[&str]) -> Result<BTreeMap<String, String>, PoolError> {
        let req = Request::Properties {
            names: names.iter().map(|s| s.to_string()).collect(),
        };
        match self.ask(&req)? {
            Response::Properties { values } => Ok(values),
            other => Err(self.unexpected(other)),
        }
    }

    /// From now on, runs end at `deadline`: whatever is still running then is killed and the
    /// run fails with [`PoolError::Stopped`]. `None` lifts it.
    pub fn set_deadline(&self, deadline: Option<Instant>) {
        if let Ok(mut d) = self.deadline.lock() {
            *d = deadline;
        }
    }

    fn watch(&self) -> Watch<'static> {
        Watch {
            abort: self.config.abort,
            deadline: self.deadline.lock().ok().and_then(|d| *d),
            max_rss_kib: self.config.worker_memory.map(|b| b / 1024),
        }
    }

    /// Runs every sequence, in parallel over the workers; results in input order.
    pub fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        let chunk = self.chunk_size(seqs.len());
        let parts: Vec<Result<Vec<SeqResult>, PoolError>> = self.threads.install(|| {
            seqs.par_chunks(chunk)
                .map(|part| {
                    let began = Instant::now();
                    let results = self.run_chunk(part, contracts);
                    let us = began.elapsed().as_micros() as u64;
                    self.busy_us.fetch_add(us, Ordering::Relaxed);
                    results
                })
                .collect()
        });
        let mut all = Vec::with_capacity(seqs.len());
        for part in parts {
            all.extend(part?);
        }
        Ok(all)
    }

    /// Sequences per message: with several workers, a quarter of each one's share, so that
    /// a worker that finishes early takes over the rest; with one worker the whole batch
    /// (up to `batch`), since every message costs a round trip in which the worker waits.
    fn chunk_size(&self, total: usize) -> usize {
        let even = match self.jobs() {
            1 => total,
            jobs => total.div_ceil(jobs * 4),
        };
        even.clamp(1, self.config.batch.max(1))
    }

    /// Asks one worker; a worker killed from outside meanwhile is replaced (a few times at most:
    /// describing a large scope takes seconds).
    fn ask(&self, req: &Request) -> Result<Response, PoolError> {
        let mut tries = 0;
        loop {
            let mut worker = self.checkout()?;
            let deadline = self.config.startup_timeout.max(self.config.timeout);
            // Describing and reading properties are short and needed even after an
            // interrupt, so only the memory bound applies here.
            let watch = Watch {
                max_rss_kib: self.config.worker_memory.map(|b| b / 1024),
                ..Watch::default()
            };
            let answer = worker
                .send(req)
                .and_then(|_| worker.receive(deadline, &watch));
            match answer {
                Ok(Response::Failed { error }) => {
                    self.checkin(worker);
                    return Err(self.worker_error(error));
                }
                Ok(resp) => {
                    self.checkin(worker);
                    return Ok(resp);
                }
                Err(f) if f.killed_from_outside() && tries < KILLED_RETRIES => tries += 1,
                Err(f) => return Err(self.worker_error(describe_failure(&f))),
            }
        }
    }

    fn run_chunk(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        let watch = self.watch();
        if watch.stopped() {
            return Err(PoolError::Stopped);
        }
        let mut results = Vec::with_capacity(seqs.len());
        let mut worker = self.checkout()?;
        let mut isolate = false;
        let mut outside = 0; // kills from outside while isolating the current sequence
        while results.len() < seqs.len() {
            let rest = &seqs[results.len()..];
            match self.run_on(&mut worker, rest, isolate, contracts, &mut results, &watch) {
                Ok(RunEnd::AllAnswered) => {
                    isolate = false;
                    outside = 0;
                }
                Ok(RunEnd::HeapExhausted) => {
                    // Its answer is in; the JVM may be damaged for whatever runs next.
                    self.retire(&worker);
                    self.heap_exhausted.fetch_add(1, Ordering::Relaxed);
                    worker = self.replacement()?;
                }
                Err(Failure::Stopped) => {
                    self.retire(&worker);
                    return Err(PoolError::Stopped);
                }
                Err(_) if watch.stopped() => {
                    // A worker that failed just as the run stops: nothing to pin, stop too.
                    self.retire(&worker);
                    return Err(PoolError::Stopped);
                }
                Err(Failure::Timeout) if !isolate => {
                    // Every earlier answer arrived (the worker sends each as soon as it is
                    // complete), so the first sequence not answered is the one that hangs:
                    // blamed at once, without waiting for it a second time.
                    self.retire(&worker);
                    results.push(self.blame(Failure::Timeout));
                    worker = self.replacement()?;
                }
                Err(failure) => {
                    self.retire(&worker);
                    if isolate && failure.killed_from_outside() && outside < 2 {
                        // kill -9 or the OOM killer, not the sequence: run it again.
                        outside += 1;
                    } else if isolate {
                        results.push(self.blame(failure));
                        isolate = false;
                        outside = 0;
                    } else {
                        // A crash may lose the answers not yet written: run the rest one
                        // written answer at a time to find the culprit.
                        isolate = true;
                    }
                    worker = self.replacement()?;
                }
            }
        }
        if self.harvest_from(&mut worker) {
            self.checkin(worker);
        }
        Ok(results)
    }

    /// Sends `seqs` to `worker` and collects answers into `results` until the run is done,
    /// or until an answer shows the worker's heap ran out (the rest is not waited for).
    fn run_on(
        &self,
        worker: &mut WorkerProcess,
        seqs: &[SeqRequest],
        isolate: bool,
        contracts: bool,
        results: &mut Vec<SeqResult>,
        watch: &Watch,
    ) -> Result<RunEnd, Failure> {
        let first = results.len();
        let req = Request::Run {
            first_id: 0,
            isolate,
            contracts,
            max_value_bytes: self.config.max_value_bytes,
            plain_class_text: self.config.plain_class_text,
            sequences: seqs.to_vec(),
        };
        worker.send(&req)?;
        loop {
            let at = results.len() - first;
            let index = u32::try_from(at).ok();
            match worker.receive_stoppable(self.config.timeout, watch, index)? {
                Response::Result { id, result } => {
                    fit::answer_fits(id, at, seqs.get(at), &result).map_err(Failure::Garbled)?;
                    let exhausted = heap::exhausted(&result);
                    results.push(self.stopped_as_timeout(result));
                    if exhausted {
                        return Ok(RunEnd::HeapExhausted);
                    }
                }
                Response::RunDone if results.len() - first == seqs.len() => {
                    return Ok(RunEnd::AllAnswered);
                }
                other => return Err(Failure::Garbled(format!("unexpected answer {other:?}"))),
            }
        }
    }

    /// A sequence the worker stopped at the supervisor's request answers as timed out (the
    /// worker does not know the timeout); it counts as a timeout, as a kill does.
    fn stopped_as_timeout(&self, result: SeqResult) -> SeqResult {
        match result {
            SeqResult::Timeout { .. } => self.blame(Failure::Timeout),
            other => other,
        }
    }

    fn blame(&self, failure: Failure) -> SeqResult {
        match failure {
            Failure::Timeout => {
                self.timeouts.fetch_add(1, Ordering::Relaxed);
                SeqResult::Timeout {
                    millis: self.config.timeout.as_millis() as u64,
                }
            }
            Failure::Died { exit, stderr_tail } => {
                self.crashes.fetch_add(1, Ordering::Relaxed);
                SeqResult::Crash { exit, stderr_tail }
            }
            Failure::Garbled(message) => {
                self.crashes.fetch_add(1, Ordering::Relaxed);
                SeqResult::Crash {
                    exit: "garbled answer".into(),
                    stderr_tail: message,
                }
            }
            Failure::Memory { rss_kib, limit_kib } => {
                self.crashes.fetch_add(1, Ordering::Relaxed);
                SeqResult::Crash {
                    exit: format!(
                        "memory limit: killed at {} MiB resident (--worker-memory {} MiB)",
                        rss_kib / 1024,
                        limit_kib / 1024
                    ),
                    stderr_tail: String::new(),
                }
            }
            // Never blamed: a stopped run returns before.
            Failure::Stopped => SeqResult::Crash {
                exit: "stopped".into(),
                stderr_tail: String::new(),
            },
        }
    }

    fn checkout(&self) -> Result<WorkerProcess, PoolError> {
        let idle = self.idle.lock().ok().and_then(|mut v| v.pop());
        match idle {
            Some(w) => Ok(w),
            None => self.spawn(),
        }
    }

    fn checkin(&self, worker: WorkerProcess) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(worker);
        }
    }

    fn retire(&self, worker: &WorkerProcess) {
        if let (Some(rss), Ok(mut peaks)) = (worker.peak_rss_kib(), self.peak_rss.lock()) {
            peaks.push(rss);
        }
    }

    fn recipe(&self) -> Recipe {
        Recipe {
            exe: self.config.worker_exe.clone(),
            jvm: self.jvm.clone(),
            startup: self.config.startup_timeout,
            launch: Launch {
                sandbox: self.config.sandbox,
                // The kernel's bound is a backstop for when nobody watches (a thread the code
                // under test left running while the worker is idle): committed memory is more
                // than resident, so it gets twice the room and the supervisor's RSS check
                // fires first.
                data_limit: self.config.worker_memory.map(|b| b.saturating_mul(2)),
            },
        }
    }

    fn spawn(&self) -> Result<WorkerProcess, PoolError> {
        let worker = self.recipe().start().map_err(|e| self.start_error(e))?;
        self.count_started(&worker);
        Ok(worker)
    }

    /// A worker for a run that lost one: the warm spare when one was started, else a new
    /// one; either way the next spare starts now.
    fn replacement(&self) -> Result<WorkerProcess, PoolError> {
        let worker = match self.spare.take() {
            Some(Ok(worker)) => {
                self.count_started(&worker);
                worker
            }
            // A spare that failed to start: the error is reported by a start of our own.
            Some(Err(_)) | None => self.spawn()?,
        };
        self.spare.refill(&self.recipe());
        Ok(worker)
    }

    fn count_started(&self, worker: &WorkerProcess) {
        self.started.fetch_add(1, Ordering::Relaxed);
        self.startup_ms
            .fetch_add(worker.startup_ms, Ordering::Relaxed);
    }

    fn start_error(&self, e: process::SpawnError) -> PoolError {
        PoolError::Start {
            target: self.target.clone(),
            message: e.message,
        }
    }

    fn worker_error(&self, message: String) -> PoolError {
        PoolError::Worker {
            target: self.target.clone(),
            message,
        }
    }

    fn unexpected(&self, resp: Response) -> PoolError {
        self.worker_error(format!("unexpected answer {resp:?}"))
    }
}

fn describe_failure(f: &Failure) -> String {
    match f {
        Failure::Timeout => "the worker stopped answering".into(),
        Failure::Died { exit, stderr_tail } => format!("the worker died ({exit}): {stderr_tail}"),
        Failure::Garbled(m) => m.clone(),
        Failure::Memory { rss_kib, limit_kib } => format!(
            "the worker used {} MiB, more than --worker-memory {} MiB",
            rss_kib / 1024,
            limit_kib / 1024
        ),
        Failure::Stopped => "stopped".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Duration, MIN_CALL_TIMEOUT, call_timeout};

    #[test]
    fn a_fraction_of_the_timeout_stops_at_the_floor_unless_the_timeout_is_below_it() {
        let ms = Duration::from_millis;
        assert_eq!(call_timeout(ms(5000), 20), ms(250));
        assert_eq!(call_timeout(ms(5000), 1), ms(5000));
        assert_eq!(call_timeout(ms(5000), 0), ms(5000));
        assert_eq!(call_timeout(ms(1000), 20), MIN_CALL_TIMEOUT);
        assert_eq!(call_timeout(ms(60), 20), ms(60));
    }
}
