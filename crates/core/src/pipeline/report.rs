//! `report`'s runs over reports already written: [`merge`] (the shards of a replay joined
//! per target) and [`summary`] (one page across whole replays). Both check the output
//! folder before reading any report, and tell each set of files written as a replay does.

use super::Error;
use super::folder::check_writable;
use super::replay::Progress;
use crate::report::Report;
use crate::report::summary::{Pair, write};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Reads the shard reports `parts`, merges them per target (in target order; a missing
/// shard is refused unless `allow_partial`), and writes each merged report into `dir`.
pub fn merge(
    parts: &[PathBuf],
    allow_partial: bool,
    dir: &Path,
    progress: &dyn Progress,
) -> Result<Vec<Report>, Error> {
    writable(dir, "the merged reports")?;
    let mut by_target: BTreeMap<String, Vec<Report>> = BTreeMap::new();
    for path in parts {
        let report = Report::read(path).map_err(|e| Error::BadInput(e.to_string()))?;
        by_target
            .entry(report.target.name.clone())
            .or_default()
            .push(report);
    }
    let mut merged = Vec::new();
    for (_, parts) in by_target {
        let report = crate::report::merge::merge(parts, allow_partial)
            .map_err(|e| Error::BadInput(e.to_string()))?;
        progress.wrote(&report.write_all(dir)?);
        merged.push(report);
    }
    Ok(merged)
}

/// The replays a summary covers, and how many of those expected sent no report.
pub struct Summary {
    /// Each replay's report, with its links from the summary's folder.
    pub pairs: Vec<Pair>,
    /// Replays expected (`expect`) that sent no report.
    pub missing: usize,
}

/// Reads the whole replays' `reports` and writes one summary across them into `dir`
/// (`summary.md`, `index.html`); fewer reports than `expect` are counted as missing.
pub fn summary(
    reports: &[PathBuf],
    expect: Option<usize>,
    dir: &Path,
    progress: &dyn Progress,
) -> Result<Summary, Error> {
    writable(dir, "the summary")?;
    let mut pairs = Vec::new();
    for path in reports {
        pairs.push(Pair::read(path, dir).map_err(|e| Error::BadInput(e.to_string()))?);
    }
    let missing = expect.unwrap_or(0).saturating_sub(pairs.len());
    progress.wrote(&write(dir, &pairs, missing)?);
    Ok(Summary { pairs, missing })
}

/// A folder that cannot take the files is said before any report is read, as replay does.
fn writable(dir: &Path, what: &str) -> Result<(), Error> {
    check_writable(dir).map_err(|e| {
        Error::BadInput(format!(
            "--report-dir {}: cannot write {what} there: {e}",
            dir.display()
        ))
    })
}
