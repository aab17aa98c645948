//! The one fake implementation of the unit tests, standing in for a JVM behind the
//! [`Executor`] and [`Lane`] traits: a handful of classes in package `t`, interpreted in
//! Rust with the agent's semantics (stop at the first abnormal step, observers only after a
//! normal run, contracts on object values). The same world serves generation, flake removal,
//! replay and minimization:
//!
//! - `t.Counter` (new, `add(int) -> int` the running total, `inc()`, `get()` and `size()`
//!   the total, `getName()`) with the target's injected bugs: `get()` and `size()` add one
//!   once 7 was ever added; `check()` throws, `describe()` throws with another message,
//!   `newer()` is missing, `spin()` hangs, `boom()` crashes, `flaky()` alternates 1 and 0,
//!   and `poison()` gives 100, not 0, and leaves `get()` off by 100 for the rest of that
//!   JVM (that fake);
//! - `t.Util` (static `div(int,int)`, which throws on zero, `concat(String,String)`);
//! - `t.Clock` (static `now() -> long`, different on every call: nondeterministic);
//! - `t.Weird` (new; its `equals` is not reflexive: a contract violation).

mod world;

pub(crate) use world::{counter_test, expect, model};

use crate::message::SeqRequest;
use crate::pool::{Executor, Lane, PoolError};
use crate::sequence::SeqResult;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Which implementation the fake plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// The recording: no injected bug.
    Reference,
    /// The implementation under test, with the bugs of the module doc.
    Target,
}

/// One fake JVM.
pub(crate) struct Fake {
    pub flavor: Flavor,
    /// Counts `flaky()` calls on the target, so consecutive runs disagree.
    flaky: AtomicU64,
    /// Counts sequences run, for budget checks.
    pub sequences: AtomicU64,
    /// Set by `poison()` on the target: later `get()`s in this fake are off by 100.
    poisoned: AtomicBool,
}

impl Fake {
    pub(crate) fn new(flavor: Flavor) -> Fake {
        Fake {
            flavor,
            flaky: AtomicU64::new(0),
            sequences: AtomicU64::new(0),
            poisoned: AtomicBool::new(false),
        }
    }

    /// The reference.
    pub(crate) fn reference() -> Fake {
        Fake::new(Flavor::Reference)
    }

    /// The target, with its bugs.
    pub(crate) fn target() -> Fake {
        Fake::new(Flavor::Target)
    }
}

impl Executor for Fake {
    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        Ok(seqs.iter().map(|s| self.execute(s, contracts)).collect())
    }
}

/// A lane whose every start shares one fake (so `flaky()` keeps alternating); counts starts.
pub(crate) struct SharedLane {
    pub fake: Arc<Fake>,
    pub starts: AtomicU64,
}

impl SharedLane {
    /// A lane on one target fake.
    pub(crate) fn target() -> SharedLane {
        SharedLane {
            fake: Arc::new(Fake::target()),
            starts: AtomicU64::new(0),
        }
    }
}

impl Lane for SharedLane {
    fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.starts.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Shared(self.fake.clone())))
    }

    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.start()
    }

    fn jobs(&self) -> usize {
        2
    }
}

/// A lane whose every start is a fresh fake of `flavor` (a fresh JVM), `jobs` at a time.
pub(crate) struct FreshLane {
    pub flavor: Flavor,
    pub jobs: usize,
    pub starts: AtomicU64,
}

impl FreshLane {
    pub(crate) fn new(flavor: Flavor, jobs: usize) -> FreshLane {
        FreshLane {
            flavor,
            jobs,
            starts: AtomicU64::new(0),
        }
    }
}

impl Lane for FreshLane {
    fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.starts.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Fake::new(self.flavor)))
    }

    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.start()
    }

    fn jobs(&self) -> usize {
        self.jobs
    }
}

/// A lane whose every run is a fresh reference fake, kept so a test can count what each
/// run ran (`sequences` of the fakes, in the order they started).
#[derive(Default)]
pub(crate) struct CountingLane(pub std::sync::Mutex<Vec<Arc<Fake>>>);

impl CountingLane {
    /// The sequences each run ran, in order.
    pub(crate) fn ran(&self) -> Vec<u64> {
        let fakes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        fakes
            .iter()
            .map(|f| f.sequences.load(Ordering::Relaxed))
            .collect()
    }
}

impl Lane for CountingLane {
    fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
        let fake = Arc::new(Fake::reference());
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(fake.clone());
        Ok(Box::new(Shared(fake)))
    }

    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.start()
    }

    fn jobs(&self) -> usize {
        1
    }
}

struct Shared(Arc<Fake>);

impl Executor for Shared {
    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        self.0.run(seqs, contracts)
    }
}
