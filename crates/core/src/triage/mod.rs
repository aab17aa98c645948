//! Root causes: failing tests grouped by the first diverging call and the kind of
//! difference (like REDUCE in the Randoop paper, which turned 98 failing tests into 12
//! distinct errors), each group with a short stable id (`g-3fa2c1`), an example test (the
//! shortest), and later a minimized sequence ([`minimize`]) and an accepted-list entry
//! ([`accepted`]).

pub mod accepted;
pub mod label;
pub(crate) mod minimize;

use crate::compare::{Divergence, Kind};
use crate::replay::{Record, TestOutcome};
use crate::suite::Test;
use label::Label;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The groups' example tests, by id.
pub(crate) type Examples<'a> = BTreeMap<u64, &'a Test>;

/// The example tests of `groups` among `tests` (replayed in memory).
#[cfg(test)]
pub(crate) fn examples<'a>(tests: &[&'a Test], groups: &[Group]) -> Examples<'a> {
    let wanted: std::collections::BTreeSet<u64> = groups.iter().map(|g| g.example).collect();
    tests
        .iter()
        .filter(|t| wanted.contains(&t.id))
        .map(|t| (t.id, *t))
        .collect()
}

/// The id of the group of `callee` and `kind`: `g-` and six hex digits of a 64-bit FNV-1a
/// hash of `callee`, a NUL and the kind's name. Stable across runs, machines and versions.
pub(crate) fn group_id(callee: &str, kind: Kind) -> String {
    crate::hash::short_id("g", callee, kind.name())
}

/// A sequence shrunk by delta debugging that still shows the group's difference.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub(crate) struct Minimized {
    pub test: Test,
    /// The difference the minimized test shows (values from its own REF and TGT runs).
    pub divergence: Divergence,
    /// Candidate sequences tried (each run on both implementations).
    pub runs: u32,
    /// Statements before minimization.
    pub original_len: usize,
}

/// One root cause: tests whose first difference is the same kind at the same callee.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Group {
    pub id: String,
    pub callee: String,
    pub kind: Kind,
    /// Ids of the affected tests, ascending.
    pub tests: Vec<u64>,
    /// Id of the example: the shortest test, then lowest id.
    pub example: u64,
    /// The example's divergence.
    pub divergence: Divergence,
    pub minimized: Option<Minimized>,
    /// Whether the example, run side by side on the reference and the target during
    /// minimization, still differed (`None`: not tried).
    pub reproduced: Option<bool>,
    /// Other tests of the group, with their divergences, run side by side in turn when the
    /// example does not differ alone ([`ALTERNATES`] at most, spread from the shortest to
    /// the longest): the example may only have inherited state an earlier test of its
    /// segment left, while a longer test makes that state itself.
    pub alternates: Vec<(u64, Divergence)>,
}

/// Tests of a group tried side by side, beside its example, before the group is said not
/// to reproduce.
pub(crate) const ALTERNATES: usize = 4;

/// The id of a group of `callee` and `kind` whose tests all show the kind of change
/// `label` (a value-based label: the same callee can also show a plain difference): the
/// hash of callee, kind and label's name.
pub(crate) fn group_id_labelled(callee: &str, kind: Kind, label: Option<Label>) -> String {
    match label {
        None => group_id(callee, kind),
        Some(l) => crate::hash::short_id("g", &format!("{callee}\0{}", kind.name()), l.name()),
    }
}

/// The value-based label of one test's divergence, when it is one the tests of a callee
/// are split by (same value printed otherwise, invisible characters, hash only, last-place
/// float difference, permitted exception, tool artefact); `None` for a plain difference or a
/// data version (which depends on the example, decided per group).
pub(crate) fn split_label(d: &Divergence) -> Option<Label> {
    use crate::text::show;
    let (r, t) = (
        show(d.expected.as_ref(), None, ""),
        show(d.actual.as_ref(), None, ""),
    );
    let (l, _) = label::classify(&label::Evidence {
        callee: &d.callee,
        kind: d.kind,
        expected: d.expected.as_ref(),
        actual: d.actual.as_ref(),
        ref_value: &r,
        tgt_value: &t,
        java: &[],
        versions: None,
    });
    match l {
        Label::Rendering
        | Label::Invisible
        | Label::HashOnly
        | Label::LastPlace
        | Label::PermittedNarrowing
        | Label::ToolArtefact
        | Label::Classpath => Some(l),
        _ => None,
    }
}

/// Groups the tests that differ (not the unstable ones), in a deterministic order: most
/// tests first, then by callee and kind. Tests of one callee and kind whose differences
/// are of another value-based kind of change ([`split_label`]) form groups of their own.
pub(crate) fn group(tests: &[Record], outcomes: &[TestOutcome]) -> Vec<Group> {
    type Key = (String, Kind, Option<Label>);
    let mut by_key: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    for (i, outcome) in outcomes.iter().enumerate() {
        if let TestOutcome::Differs { verdict } = outcome
            && let Some(d) = verdict.divergence()
        {
            let label = split_label(d);
            by_key
                .entry((d.callee.clone(), d.kind, label))
                .or_default()
                .push(i);
        }
    }
    let mut taken = std::collections::HashSet::new();
    let mut groups: Vec<Group> = by_key
        .into_iter()
        .map(|((callee, kind, label), members)| {
            let mut g = make_group(tests, outcomes, callee, kind, &members);
            g.id = unique_id(&mut taken, &g.callee, kind, label);
            g
        })
        .collect();
    groups.sort_by(|a, b| {
        (b.tests.len(), &a.callee, a.kind).cmp(&(a.tests.len(), &b.callee, b.kind))
    });
    groups
}

/// A group's id, made unique among the report's groups: should two keys' hashes meet (six
/// hex digits), the later key in key order hashes again with a counter, so a report never
/// names two groups alike.
fn unique_id(
    taken: &mut std::collections::HashSet<String>,
    callee: &str,
    kind: Kind,
    label: Option<Label>,
) -> String {
    let mut id = group_id_labelled(callee, kind, label);
    let mut n = 1;
    while !taken.insert(id.clone()) {
        id = group_id_labelled(&format!("{callee}\0{n}"), kind, label);
        n += 1;
    }
    id
}

fn make_group(
    tests: &[Record],
    outcomes: &[TestOutcome],
    callee: String,
    kind: Kind,
    members: &[usize],
) -> Group {
    let mut by_length = members.to_vec();
    by_length.sort_by_key(|&i| (tests[i].statements, tests[i].id));
    let example = by_length[0];
    let divergence_of = |i: usize| match &outcomes[i] {
        TestOutcome::Differs { verdict } => verdict.divergence().cloned(),
        _ => None,
    };
    let divergence = divergence_of(example).unwrap_or_else(|| placeholder(&callee, kind));
    let alternates = spread(by_length.len(), ALTERNATES)
        .filter_map(|k| Some((tests[by_length[k]].id, divergence_of(by_length[k])?)))
        .collect();
    let mut ids: Vec<u64> = members.iter().map(|&i| tests[i].id).collect();
    ids.sort_unstable();
    Group {
        id: group_id(&callee, kind),
        callee,
        kind,
        tests: ids,
        example: tests[example].id,
        divergence,
        minimized: None,
        reproduced: None,
        alternates,
    }
}

/// Up to `most` positions in `1..len`, spread evenly and ending at the last: positions in a
/// list sorted shortest first, position 0 being the example.
pub(crate) fn spread(len: usize, most: usize) -> impl Iterator<Item = usize> {
    let last = len.saturating_sub(1);
    let mut picked: Vec<usize> = (1..=most.min(last))
        .map(|k| (k * last).div_ceil(most.min(last)))
        .collect();
    picked.dedup();
    picked.into_iter()
}

fn placeholder(callee: &str, kind: Kind) -> Divergence {
    Divergence {
        kind,
        site: crate::compare::Site::Whole,
        callee: callee.to_string(),
        expected: None,
        actual: None,
        detail: None,
        observed: None,
    }
}

#[cfg(test)]
mod tests;
