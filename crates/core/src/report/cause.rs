//! Causes: each group gets its kind of change ([`Label`]) and normalised change, and groups
//! with the same label and change join into one cause — one row of the table, one line of
//! the gate, one `accept`. A group nothing joins is a cause of its own (its id stays the
//! group id, so existing accepted entries and links keep working). Used when a report is
//! built and again when shard reports are merged (older reports get their labels there).

mod contained;
mod members;

use super::{
    CauseCallee, CauseReport, GroupReport, GroupStatus, Implementation, TestReport, TestStatus,
};
use crate::triage::label::{
    Evidence, Label, RUNTIME, Versions, cause_id, classify, feature_release,
};
use std::collections::BTreeMap;

/// The label and normalised change of a group, from its kind, values and example, and the
/// data versions of the two implementations.
pub(crate) fn label_of(g: &GroupReport, versions: &Versions) -> (Label, Option<String>) {
    let java = g.minimized.as_ref().map_or(&g.example_java, |m| &m.java);
    classify(&Evidence {
        callee: &g.callee,
        kind: g.kind,
        expected: g.ref_observed.as_ref(),
        actual: g.tgt_observed.as_ref(),
        ref_value: &g.ref_value,
        tgt_value: &g.tgt_value,
        java,
        versions: Some(versions),
    })
}

/// Sets every group's label, normalised change and cause id. Value differences whose
/// changed text is the same substitution (the same tokens removed and added) are one
/// cause, whatever callee, container or rendering shows them: each joins the most telling
/// label any of them earned ([`telling`]), so `63` → `60` through another collection, or a
/// checksum a data change moved, lands under the one cause; a substitution contained in a
/// wider one joins it ([`contained`]). Then one method's single new
/// answer, and removed members of one class ([`members`]), join.
pub(crate) fn label_groups(groups: &mut [GroupReport], versions: &Versions) {
    let labels: Vec<(Label, Option<String>)> =
        groups.iter().map(|g| label_of(g, versions)).collect();
    let own_subs: Vec<Option<String>> = groups.iter().map(substitution).collect();
    let substitutions = contained::widest(groups, &labels, &own_subs);
    let mut best: BTreeMap<&str, (Label, Option<String>)> = BTreeMap::new();
    for (sub, (label, change)) in substitutions.iter().zip(&labels) {
        let Some(sub) = sub.as_deref() else { continue };
        if *label == Label::ToolArtefact {
            continue;
        }
        let slot = best.entry(sub).or_insert_with(|| (*label, change.clone()));
        if telling(*label) < telling(slot.0) {
            *slot = (*label, change.clone());
        }
    }
    let joined: Vec<(Label, Option<String>)> = substitutions
        .iter()
        .zip(&own_subs)
        .zip(labels)
        .map(|((sub, own_sub), own)| {
            let widened = sub != own_sub;
            match sub.as_deref().and_then(|s| best.get(s)) {
                Some(b) if own.0 != Label::ToolArtefact && b.0 != Label::ValueDiffers => b.clone(),
                Some(_) if own.0 != Label::ToolArtefact && widened => {
                    (Label::ValueDiffers, sub.clone())
                }
                _ => own,
            }
        })
        .collect();
    let joined = one_answer_per_method(groups, joined);
    let joined = members::removed_members(groups, joined);
    for (g, (label, change)) in groups.iter_mut().zip(joined) {
        g.cause = match &change {
            Some(c) => cause_id(label, c),
            None => g.id.clone(),
        };
        g.label = label;
        g.change = change;
    }
}

/// Plain value differences of one method of a type and its nested types
/// (`Spliterator.estimateSize()`, `Spliterator$OfInt.estimateSize()`) that now return the
/// same value are one cause: the method changed, whatever the inputs gave before. The
/// change names the method and the new value.
fn one_answer_per_method(
    groups: &[GroupReport],
    joined: Vec<(Label, Option<String>)>,
) -> Vec<(Label, Option<String>)> {
    let key = |g: &GroupReport, label: Label| {
        let plain = label == Label::ValueDiffers && g.kind == crate::compare::Kind::Value;
        plain.then(|| format!("{} now returns {}", outer_method(&g.callee), g.tgt_value))
    };
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for (g, (label, _)) in groups.iter().zip(&joined) {
        if let Some(k) = key(g, *label) {
            *count.entry(k).or_default() += 1;
        }
    }
    groups
        .iter()
        .zip(joined)
        .map(|(g, (label, change))| match key(g, label) {
            Some(k) if count[&k] > 1 => (label, Some(k)),
            _ => (label, change),
        })
        .collect()
}

/// A callee with its class's nested part dropped: `java.util.Spliterator$OfInt.estimateSize()`
/// → `java.util.Spliterator.estimateSize()`.
fn outer_method(callee: &str) -> String {
    let (head, params) = callee.split_once('(').unwrap_or((callee, ""));
    let (class, method) = head.rsplit_once('.').unwrap_or(("", head));
    let outer = class.split('$').next().unwrap_or(class);
    let open = if callee.contains('(') { "(" } else { "" };
    format!("{outer}.{method}{open}{params}")
}

/// The substitution a value difference makes (its changed hunks), when distinctive (see
/// [`crate::text::change`]) and not only words: `true` → `false` or one enum constant for
/// another says nothing about which change caused it. `None` for other kinds of difference.
fn substitution(g: &GroupReport) -> Option<String> {
    if g.kind != crate::compare::Kind::Value {
        return None;
    }
    let sub = crate::text::change(&g.ref_value, &g.tgt_value)?;
    let words_only = sub
        .split([' ', '-', '+'])
        .all(|w| w.chars().all(|c| c.is_ascii_alphabetic()));
    (!words_only).then_some(sub)
}

/// How much a label says about a substitution it shares with other groups, lower first: a
/// named data version, then the text rules, then a hash, and a plain difference last.
fn telling(label: Label) -> u8 {
    match label {
        Label::DataVersion => 0,
        Label::Rendering | Label::Invisible | Label::LastPlace => 1,
        Label::HashOnly => 2,
        Label::ToolArtefact => 4,
        Label::ValueDiffers => 5,
        _ => 3,
    }
}

/// The causes of sorted, labelled groups: in order of their first group, statuses and
/// tests summed over their groups.
pub(crate) fn causes(groups: &[GroupReport]) -> Vec<CauseReport> {
    let mut order: Vec<&str> = Vec::new();
    let mut members: BTreeMap<&str, Vec<&GroupReport>> = BTreeMap::new();
    for g in groups {
        let list = members.entry(&g.cause).or_default();
        if list.is_empty() {
            order.push(&g.cause);
        }
        list.push(g);
    }
    let mut out: Vec<CauseReport> = order
        .into_iter()
        .map(|id| cause(id, &members[id]))
        .collect();
    out.sort_by(|a, b| (a.status, b.tests, &a.id).cmp(&(b.status, a.tests, &b.id)));
    out
}

fn cause(id: &str, groups: &[&GroupReport]) -> CauseReport {
    let first = groups[0];
    let status = groups
        .iter()
        .map(|g| g.status)
        .min()
        .unwrap_or(first.status);
    let accepted = groups
        .iter()
        .filter_map(|g| g.accepted.as_ref())
        .find(|a| a.cause.is_some())
        .or_else(|| groups.iter().find_map(|g| g.accepted.as_ref()))
        .cloned();
    let covers_new_callees = match &accepted {
        Some(a) if a.cause.is_some() => groups
            .iter()
            .filter(|g| g.status == GroupStatus::Accepted && !a.callees.contains(&g.callee))
            .map(|g| g.callee.clone())
            .collect(),
        _ => Vec::new(),
    };
    CauseReport {
        id: id.to_string(),
        label: first.label,
        change: first.change.clone(),
        status,
        tests: groups.iter().map(|g| g.tests).sum(),
        callees: groups
            .iter()
            .map(|g| CauseCallee {
                callee: g.callee.clone(),
                group: g.id.clone(),
                kind: g.kind,
                status: g.status,
                tests: g.tests,
            })
            .collect(),
        kind: first.kind,
        ref_value: first.ref_value.clone(),
        tgt_value: first.tgt_value.clone(),
        example: first.example,
        accepted,
        covers_new_callees,
    }
}

/// The data versions of a report's two implementations.
/// Each side's feature release, read from its fingerprint, rides along under
/// [`RUNTIME`] (it is no data version: the report's header does not list it).
pub(crate) fn versions(reference: &Implementation, target: &Implementation) -> Versions {
    let with_release = |i: &Implementation| {
        let mut map = i.data_versions.clone();
        if let Some(release) = i.fingerprint.as_deref().and_then(feature_release) {
            map.insert(RUNTIME.to_string(), release);
        }
        map
    };
    Versions {
        reference: with_release(reference),
        target: with_release(target),
        same_runtime: reference.fingerprint.is_some()
            && reference.fingerprint == target.fingerprint,
    }
}

/// The data versions of both sides for the report header, one entry per version name
/// (`unicode 13.0 → 15.0, tzdata 2025b`: one value when both sides agree, `?` where a side
/// did not say); `None` when neither side reported any.
pub(crate) fn versions_line(reference: &Implementation, target: &Implementation) -> Option<String> {
    let (a, b) = (&reference.data_versions, &target.data_versions);
    let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let parts: Vec<String> = names
        .into_iter()
        .map(|n| match (a.get(n), b.get(n)) {
            (Some(x), Some(y)) if x == y => format!("{n} {x}"),
            (x, y) => format!(
                "{n} {} → {}",
                x.map_or("?", String::as_str),
                y.map_or("?", String::as_str)
            ),
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// Fills each non-passing test's cause and label from its group.
pub(crate) fn fill_tests(tests: &mut [TestReport], groups: &[GroupReport]) {
    let by_id: BTreeMap<&str, &GroupReport> = groups.iter().map(|g| (g.id.as_str(), g)).collect();
    for t in tests.iter_mut() {
        let group = t.detail().group.as_deref();
        if let Some(g) = group.and_then(|id| by_id.get(id).copied()) {
            let d = t.detail_mut();
            d.cause = Some(g.cause.clone());
            d.label = Some(g.label);
            if g.status == GroupStatus::Artefact && t.status == TestStatus::Differs {
                t.status = TestStatus::Artefact;
            }
        }
    }
}

/// A new group that is a tool artefact is kept out of the gate, as is one whose example
/// did not differ when run side by side on both implementations: its recorded value depends
/// on when or where it was recorded (the clock, an identity hash's order), so it is no
/// difference between the two.
pub(crate) fn set_artefacts(groups: &mut [GroupReport]) {
    for g in groups.iter_mut() {
        let artefact = g.label == Label::ToolArtefact || g.reproduced == Some(false);
        if artefact && g.status == GroupStatus::New {
            g.status = GroupStatus::Artefact;
        }
    }
}
