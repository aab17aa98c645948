//! A warm spare: a worker started in the background to replace the next one a run loses.
//! Each call that times out or crashes kills its worker, and the run waited for a new JVM to
//! start (seconds on a loaded machine) before it went on; with a spare ready it goes on at
//! once, and the next spare starts while it does. The first loss is replaced the slow way
//! and starts the first spare, so a pool that never loses a worker (replay on a well-behaved
//! implementation, describe) never runs one more JVM than it uses.

use super::process::{Launch, SpawnError, WorkerProcess};
use crate::targets::JvmSpec;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Replacements for a worker killed from outside (SIGKILL) while starting.
const KILLED_RETRIES: u32 = 10;

/// Everything needed to start a worker, owned, so a spare can start on a thread of its own.
#[derive(Clone)]
pub(crate) struct Recipe {
    pub(crate) exe: PathBuf,
    pub(crate) jvm: JvmSpec,
    pub(crate) startup: Duration,
    pub(crate) launch: Launch,
}

impl Recipe {
    /// Starts a worker; one killed from outside while starting (OOM killer, operator) is
    /// started again, a few times at most.
    pub(crate) fn start(&self) -> Result<WorkerProcess, SpawnError> {
        let mut tries = 0;
        loop {
            match WorkerProcess::spawn(&self.exe, &self.jvm, self.startup, self.launch) {
                Err(e) if e.killed && tries < KILLED_RETRIES => tries += 1,
                other => return other,
            }
        }
    }
}

/// The spare being started or ready, if any.
#[derive(Default)]
pub(crate) struct Spare {
    coming: Mutex<Option<Receiver<Result<WorkerProcess, SpawnError>>>>,
}

impl Spare {
    /// The spare, waiting for it if it is still starting; `None` when no spare was started
    /// (or its thread could not run).
    pub(crate) fn take(&self) -> Option<Result<WorkerProcess, SpawnError>> {
        let coming = self.coming.lock().ok()?.take()?;
        coming.recv().ok()
    }

    /// Starts the next spare in the background, unless one is already coming.
    pub(crate) fn refill(&self, recipe: &Recipe) {
        let Ok(mut coming) = self.coming.lock() else {
            return;
        };
        if coming.is_some() {
            return;
        }
        let (tx, rx) = channel();
        let recipe = recipe.clone();
        let started = std::thread::Builder::new()
            .name("difftest-spare".into())
            .spawn(move || {
                let _ = tx.send(recipe.start());
            });
        if started.is_ok() {
            *coming = Some(rx);
        }
    }
}
