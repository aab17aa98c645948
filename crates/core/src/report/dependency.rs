//! Dependencies that changed version as causes of their own. The rule: a group belongs to
//! a changed dependency when a class its difference involves is a class of that
//! dependency's jar (the target's version of it) — the callee's declaring class, or the
//! class of what either side returned or threw. Its label is `dependency` and its change
//! `g:a old → new`, so every such group joins that one row. A changed dependency no group
//! involves still gets a row with no tests: shown, never failing the gate by itself.
//! `classpath` groups (a missing class: infrastructure) and tool artefacts keep their label.

use super::{CauseReport, GroupReport, GroupStatus};
use crate::compare::Kind;
use crate::sequence::Observed;
use crate::targets::dependency::DependencyChange;
use crate::triage::accepted::AcceptedList;
use crate::triage::label::{Label, cause_id};

/// Relabels the groups whose difference involves a changed dependency's classes; call
/// after [`super::cause::label_groups`].
pub(crate) fn attribute(groups: &mut [GroupReport], dependencies: &[DependencyChange]) {
    for g in groups.iter_mut() {
        if matches!(g.label, Label::Classpath | Label::ToolArtefact) {
            continue;
        }
        let classes = involved_classes(g);
        let owner = dependencies.iter().find(|d| {
            classes
                .iter()
                .any(|c| d.classes.binary_search_by(|x| x.as_str().cmp(c)).is_ok())
        });
        if let Some(d) = owner {
            let change = d.change();
            g.cause = cause_id(Label::Dependency, &change);
            g.label = Label::Dependency;
            g.change = Some(change);
        }
    }
}

/// The classes a group's difference involves: the callee's declaring class and the
/// classes both sides returned or threw.
fn involved_classes(g: &GroupReport) -> Vec<&str> {
    let head = g.callee.split('(').next().unwrap_or(&g.callee);
    let declaring = head.rsplit_once('.').map(|(class, _)| class);
    let observed = [g.ref_observed.as_ref(), g.tgt_observed.as_ref()];
    declaring
        .into_iter()
        .chain(observed.into_iter().flatten().filter_map(class_of))
        .collect()
}

fn class_of(o: &Observed) -> Option<&str> {
    match o {
        Observed::Value { class, .. }
        | Observed::Object { class }
        | Observed::Threw { class, .. } => Some(class.as_str()),
        Observed::Large { class, .. } => Some(class.as_ref()),
        Observed::Void | Observed::Null | Observed::Missing { .. } => None,
    }
}

/// The rows of changed dependencies no group was attributed to: no tests, `shown` (or
/// `accepted` when the accepted list has the cause), the two versions as the values.
pub(crate) fn quiet_rows(
    dependencies: &[DependencyChange],
    causes: &[CauseReport],
    accepted: &AcceptedList,
    target: &str,
) -> Vec<CauseReport> {
    dependencies
        .iter()
        .map(|d| (d, d.change()))
        .filter(|(_, change)| !causes.iter().any(|c| c.change.as_deref() == Some(change)))
        .map(|(d, change)| {
            let id = cause_id(Label::Dependency, &change);
            let entry = accepted.find_for(&id, Label::Dependency, Some(&change), target);
            let version = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
            CauseReport {
                status: match entry {
                    Some(_) => GroupStatus::Accepted,
                    None => GroupStatus::Shown,
                },
                accepted: entry.cloned(),
                id,
                label: Label::Dependency,
                change: Some(change),
                tests: 0,
                callees: Vec::new(),
                kind: Kind::Value,
                ref_value: version(&d.reference),
                tgt_value: version(&d.target),
                example: 0,
                covers_new_callees: Vec::new(),
            }
        })
        .collect()
}

/// Adds to `causes` (recomputed from merged groups) the dependency rows with no tests of
/// `before`, unless a group now carries that change.
pub(crate) fn keep_quiet_rows(before: Vec<CauseReport>, causes: &mut Vec<CauseReport>) {
    let quiet: Vec<CauseReport> = before
        .into_iter()
        .filter(|c| c.label == Label::Dependency && c.tests == 0)
        .filter(|c| !causes.iter().any(|n| n.change == c.change))
        .collect();
    causes.extend(quiet);
}
