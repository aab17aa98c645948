//! `difftest explain ID`: one group (or the first group of a cause, with the list of all its
//! groups) of a replay report, for a person at a terminal — the minimized Java with the
//! diverging line annotated, both recorded values, and a live rerun of the same sequence on the reference and on the
//! target now, so a reviewer sees whether the difference still shows.

use crate::compare::{Site, Verdict, compare};
use crate::pool::{Pool, PoolConfig, PoolError};
use crate::report::{GroupReport, Report, ReportError};
use crate::sequence::SeqResult;
use crate::suite::{Suite, Test};
use crate::targets::{TargetError, TargetStore};
use std::path::{Path, PathBuf};

/// Why a group cannot be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    #[error("no report in {dir} has a group or cause {id} (replay first, or pass --report-dir)")]
    NotFound { id: String, dir: PathBuf },
    #[error("cannot read {dir}: {source}")]
    Dir {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Report(#[from] ReportError),
    #[error("{suite}: test #{id}, the example of {group}, is not in the suite")]
    NoExample {
        suite: String,
        id: u64,
        group: String,
    },
    #[error("{0}")]
    Suite(String),
    #[error(transparent)]
    Target(#[from] TargetError),
    #[error(transparent)]
    Pool(#[from] PoolError),
}

/// A group found in a report: the report, the group, and its sequence as a test.
pub(crate) struct Found {
    pub report: Report,
    pub group: GroupReport,
    pub test: Test,
}

impl Found {
    /// Where [`Found::test`] differs: the minimized sequence's own site when there is one
    /// (its statements are numbered anew), else the example's.
    fn site(&self) -> Site {
        self.group
            .minimized
            .as_ref()
            .map_or(self.group.site, |m| m.site)
    }
}

/// What one implementation does with the sequence now.
pub struct Rerun {
    /// The implementation's target name.
    pub target: String,
    /// The outcome at the group's site (or the whole result for a timeout or crash).
    pub value: String,
    /// Whether it matches what the reference recorded.
    pub matches_recording: bool,
}

/// Finds `id` (a group `g-…` or cause `c-…`) in the JSON reports of `dir`.
pub(crate) fn find(dir: &Path, id: &str) -> Result<Found, ExplainError> {
    let entries = std::fs::read_dir(dir).map_err(|source| ExplainError::Dir {
        dir: dir.to_path_buf(),
        source,
    })?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for file in files {
        let report = Report::read(&file)?;
        let group = report
            .groups
            .iter()
            .find(|g| g.id == id)
            .or_else(|| report.groups.iter().find(|g| g.cause == id))
            .cloned();
        if let Some(group) = group {
            let test = test_of(&report, &group)?;
            return Ok(Found {
                report,
                group,
                test,
            });
        }
    }
    Err(ExplainError::NotFound {
        id: id.to_string(),
        dir: dir.to_path_buf(),
    })
}

/// Every group of the cause `group` belongs to, most tests first (the group alone when it is
/// a cause of its own).
pub(crate) fn cause_groups<'a>(report: &'a Report, group: &GroupReport) -> Vec<&'a GroupReport> {
    let mut groups: Vec<&GroupReport> = report
        .groups
        .iter()
        .filter(|g| g.cause == group.cause)
        .collect();
    groups.sort_by(|a, b| (b.tests, &a.id).cmp(&(a.tests, &b.id)));
    groups
}

/// The minimized sequence, else the example test from the suite.
fn test_of(report: &Report, g: &GroupReport) -> Result<Test, ExplainError> {
    if let Some(m) = &g.minimized {
        return Ok(m.test.clone());
    }
    let suite = Suite::load(Path::new(&report.suite))
        .map_err(|e| ExplainError::Suite(format!("{}: {e}", report.suite)))?;
    suite
        .tests
        .into_iter()
        .find(|t| t.id == g.example)
        .ok_or_else(|| ExplainError::NoExample {
            suite: report.suite.clone(),
            id: g.example,
            group: g.id.clone(),
        })
}

/// Runs the sequence on the report's reference and target, one fresh worker each, values
/// capped and plain objects answered as the replay did.
pub(crate) fn rerun(
    store: &TargetStore,
    found: &Found,
    config: &PoolConfig,
) -> Result<Vec<Rerun>, ExplainError> {
    let mut config = config.clone();
    config.jobs = 1;
    config.max_value_bytes = found.report.options.max_value_bytes;
    config.plain_class_text = found.report.options.plain_class_text;
    let names = [&found.report.reference.name, &found.report.target.name];
    let mut out = Vec::new();
    for name in names {
        let spec = store.load(name)?;
        let ready = store.provision(&spec)?;
        let pool = Pool::start(name, ready.jvm, config.clone())?;
        let result = pool
            .run(&[found.test.request()], false)?
            .pop()
            .unwrap_or(SeqResult::Timeout { millis: 0 });
        out.push(Rerun {
            target: name.clone(),
            value: at_site(&result, found.site()),
            matches_recording: compare(&found.test, &result) == Verdict::Pass,
        });
    }
    Ok(out)
}

/// The outcome at `site`, for people.
fn at_site(result: &SeqResult, site: Site) -> String {
    let observed = match (result, site) {
        (SeqResult::Done { steps, .. }, Site::Step(i)) => steps.get(i),
        (SeqResult::Done { observations, .. }, Site::Observer(j)) => observations.get(j),
        (SeqResult::Done { steps, .. }, Site::Whole) => steps.last(),
        (SeqResult::Timeout { millis }, _) => return format!("timeout: no answer in {millis} ms"),
        (SeqResult::Crash { exit, .. }, _) => return format!("crash: {exit}"),
    };
    match (observed, result) {
        (Some(o), _) => crate::text::visible(&o.render()),
        (None, SeqResult::Done { steps, .. }) => match steps.last() {
            Some(last) => format!(
                "not reached (statement {} ended the run: {})",
                steps.len() - 1,
                crate::text::visible(&last.render())
            ),
            None => "not reached".to_string(),
        },
        (None, _) => "not reached".to_string(),
    }
}
