//! `difftest explain ID` end to end: the group (or cause) found in a report folder, the
//! groups of its cause, its example as Java, and — unless the plan says not to — the
//! sequence run again on the report's reference and target. Nothing here prints.

use super::Error;
use crate::explain::{ExplainError, Found, cause_groups, find, rerun};
use crate::pool::PoolConfig;
use crate::report::{GroupReport, Report};
use crate::targets::TargetStore;
use std::path::PathBuf;

pub use crate::explain::Rerun;

/// What to explain.
pub struct Plan {
    /// The folder whose JSON reports are searched.
    pub report_dir: PathBuf,
    /// A group id (`g-…`) or a cause id (`c-…`, its first group).
    pub id: String,
    /// Whether to run the sequence again now on both implementations.
    pub rerun: bool,
}

/// A group explained.
pub struct Explained {
    /// The report the group was found in.
    pub report: Report,
    /// The group (a cause's first group when the id named a cause).
    pub group: GroupReport,
    /// Every group of the group's cause, most tests first; the group alone when its cause
    /// has no other.
    pub cause_groups: Vec<GroupReport>,
    /// The heading of the example's Java (whether it was minimized, and from how long)
    /// and its lines.
    pub example: (String, Vec<String>),
    /// The reruns on the reference and the target, when the plan asked for them; an error
    /// here leaves what was found above to be shown.
    pub reruns: Option<Result<Vec<Rerun>, Error>>,
}

/// Finds the plan's group in its report folder and, if asked, reruns it on one fresh
/// worker per implementation. A missing id, folder or unreadable report is bad input.
pub fn explain(store: &TargetStore, plan: &Plan, config: &PoolConfig) -> Result<Explained, Error> {
    let found = find(&plan.report_dir, &plan.id).map_err(|e| match e {
        ExplainError::NotFound { .. } | ExplainError::Report(_) | ExplainError::Dir { .. } => {
            Error::BadInput(e.to_string())
        }
        other => Error::Explain(other),
    })?;
    let reruns = plan
        .rerun
        .then(|| rerun(store, &found, config).map_err(Error::Explain));
    let Found { report, group, .. } = found;
    let cause_groups = cause_groups(&report, &group).into_iter().cloned().collect();
    let example = crate::report::markdown::example_java(&group);
    Ok(Explained {
        report,
        group,
        cause_groups,
        example,
        reruns,
    })
}
