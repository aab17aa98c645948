//! `compare`'s whole run: records one suite on each of A and B (one record plan, the same
//! flags for both), replays A's suite on B and B's on A, and reads the two reports from A
//! to B ([`super::summarise`]), writing `compare-A-to-B.{json,md}` beside them.

use super::{Comparison, summarise, write};
use crate::pipeline::Error;
use crate::pipeline::record::{self, Recording};
use crate::pipeline::replay;
use crate::pipeline::replay_suite::replay_suite;
use crate::pool::PoolConfig;
use crate::report::Report;
use crate::targets::TargetStore;
use std::path::{Path, PathBuf};

/// What `compare` will do.
pub struct Plan {
    /// A (older, or the reference) and B, each with the suite recorded on it.
    pub sides: [Side; 2],
    /// The record both sides run; each side replaces its reference and output.
    pub record: record::Plan,
    /// The record's pools.
    pub record_pool: PoolConfig,
    /// The replay settings of both replays; each replays on the other side only.
    pub replay: replay::Plan,
    /// The replays' pools.
    pub replay_pool: PoolConfig,
}

/// One of the two implementations.
pub struct Side {
    /// The target's name.
    pub name: String,
    /// Where the suite recorded on it is written.
    pub suite: PathBuf,
}

/// What a compare tells as it goes: each record's progress and its end, then each replay's.
pub trait Progress: replay::Progress {
    /// What one record tells.
    type Record: record::Progress;
    /// The record of `plan` starts.
    fn recording(&mut self, plan: &record::Plan) -> Self::Record;
    /// The record is done and its suite at `output` written (partial, or cut short by the
    /// workers, when `recording` says so); `shown` is what [`Progress::recording`] returned.
    fn recorded(&mut self, output: &Path, recording: &Recording, shown: Self::Record);
}

/// What a compare did.
pub enum Compared {
    /// A record was interrupted: its partial suite is written, nothing was replayed.
    Interrupted,
    /// Both replays ran and the comparison is written.
    Done {
        /// A's suite replayed on B.
        forward: Box<Report>,
        /// B's suite replayed on A.
        reverse: Box<Report>,
        /// The two read from A to B.
        comparison: Comparison,
        /// `compare-A-to-B.md`.
        written: PathBuf,
    },
}

/// Records on both sides, replays each suite on the other side, and writes the comparison.
/// A record whose workers failed is an error once its (partial) suite is written.
pub fn compare(
    store: &TargetStore,
    plan: Plan,
    progress: &mut impl Progress,
) -> Result<Compared, Error> {
    for side in &plan.sides {
        let mut one = plan.record.clone();
        one.reference = side.name.clone();
        one.output = side.suite.clone();
        let mut shown = progress.recording(&one);
        let recording = record::record(store, one, plan.record_pool.clone(), &mut shown)?;
        progress.recorded(&side.suite, &recording, shown);
        if let Some(e) = recording.error {
            return Err(Error::Pool(e));
        }
        if recording.partial {
            return Ok(Compared::Interrupted);
        }
    }
    let [a, b] = &plan.sides;
    let forward = replay_on(store, &plan, &a.suite, &b.name, &*progress)?;
    let reverse = replay_on(store, &plan, &b.suite, &a.name, &*progress)?;
    let comparison = summarise(&forward, &reverse);
    let written = write(&comparison, &plan.replay.report_dir).map_err(Error::WriteComparison)?;
    Ok(Compared::Done {
        forward: Box::new(forward),
        reverse: Box::new(reverse),
        comparison,
        written,
    })
}

/// Replays the suite at `suite` on `target` with the plan's replay settings.
fn replay_on(
    store: &TargetStore,
    plan: &Plan,
    suite: &Path,
    target: &str,
    progress: &dyn replay::Progress,
) -> Result<Report, Error> {
    let settings = replay::Plan {
        impls: vec![target.to_string()],
        ..plan.replay.clone()
    };
    let pool = plan.replay_pool.clone();
    let mut reports = replay_suite(Some(suite), settings, store.clone(), pool, progress)?;
    Ok(reports.remove(0))
}
