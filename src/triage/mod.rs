//! Root causes: failing tests grouped by the first diverging call and the kind of
//! difference (like REDUCE in the Randoop paper, which turned 98 failing tests into 12
//! distinct errors), each group with a short stable id (`g-3fa2c1`), an example test (the
//! shortest), and later a minimized sequence ([`minimize`]) and an accepted-list entry
//! ([`accepted`]).

pub mod accepted;
pub mod minimize;

use crate::compare::{Divergence, Kind};
use crate::replay::TestOutcome;
use crate::suite::Test;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The id of the group of `callee` and `kind`: `g-` and six hex digits of a 64-bit FNV-1a
/// hash of `callee`, a NUL and the kind's name. Stable across runs, machines and versions.
pub fn group_id(callee: &str, kind: Kind) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = callee.bytes().chain([0u8]).chain(kind.name().bytes());
    for b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("g-{:06x}", hash >> 40)
}

/// A sequence shrunk by delta debugging that still shows the group's difference.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Minimized {
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
pub struct Group {
    pub id: String,
    pub callee: String,
    pub kind: Kind,
    /// Ids of the affected tests, ascending.
    pub tests: Vec<u64>,
    /// Index (into the replayed tests) of the example: the shortest test, then lowest id.
    pub example: usize,
    /// The example's divergence.
    pub divergence: Divergence,
    pub minimized: Option<Minimized>,
    /// Whether the example, run side by side on the reference and the target during
    /// minimization, still differed (`None`: not tried).
    pub reproduced: Option<bool>,
}

/// Groups the tests that differ (not the unstable ones), in a deterministic order: most
/// tests first, then by callee and kind.
pub fn group(tests: &[&Test], outcomes: &[TestOutcome]) -> Vec<Group> {
    let mut by_key: BTreeMap<(String, Kind), Vec<usize>> = BTreeMap::new();
    for (i, outcome) in outcomes.iter().enumerate() {
        if let TestOutcome::Differs { verdict } = outcome
            && let Some(d) = verdict.divergence()
        {
            by_key
                .entry((d.callee.clone(), d.kind))
                .or_default()
                .push(i);
        }
    }
    let mut groups: Vec<Group> = by_key
        .into_iter()
        .map(|((callee, kind), members)| make_group(tests, outcomes, callee, kind, &members))
        .collect();
    groups.sort_by(|a, b| {
        (b.tests.len(), &a.callee, a.kind).cmp(&(a.tests.len(), &b.callee, b.kind))
    });
    groups
}

fn make_group(
    tests: &[&Test],
    outcomes: &[TestOutcome],
    callee: String,
    kind: Kind,
    members: &[usize],
) -> Group {
    let example = *members
        .iter()
        .min_by_key(|&&i| (tests[i].statements.len(), tests[i].id))
        .unwrap_or(&members[0]);
    let divergence = match &outcomes[example] {
        TestOutcome::Differs { verdict } => verdict.divergence().cloned(),
        _ => None,
    }
    .unwrap_or_else(|| placeholder(&callee, kind));
    let mut ids: Vec<u64> = members.iter().map(|&i| tests[i].id).collect();
    ids.sort_unstable();
    Group {
        id: group_id(&callee, kind),
        callee,
        kind,
        tests: ids,
        example,
        divergence,
        minimized: None,
        reproduced: None,
    }
}

fn placeholder(callee: &str, kind: Kind) -> Divergence {
    Divergence {
        kind,
        site: crate::compare::Site::Whole,
        callee: callee.to_string(),
        expected: None,
        actual: None,
        detail: None,
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
