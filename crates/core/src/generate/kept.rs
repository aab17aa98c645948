//! What generation keeps, in compact form until the suite is written: regression tests as
//! their statements, flat in words (templates and inputs, [`Store::flat_words`], so a test
//! needs no sequence store once it is kept), plus its checks (step index and expected
//! value) and observer calls; error-revealing tests as a stored sequence plus the
//! violated contract, written out when generation ends.

use super::store::{Parts, SeqId, Store, Templates};
use super::type_names::{NameId, Names};
use crate::message::SeqRequest;
use crate::sequence::{Observed, ObserverCall, Violation};
use crate::suite::{ErrorTest, Test};
use std::collections::BTreeMap;

/// An observer call: method `method` of type `class` on the value of statement `stmt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ObsRef {
    pub stmt: u32,
    pub class: NameId,
    pub method: NameId,
}

impl ObsRef {
    pub(crate) fn call(&self, names: &Names) -> ObserverCall {
        ObserverCall {
            stmt: self.stmt as usize,
            class: names.shared(self.class),
            method: names.shared(self.method),
        }
    }
}

/// Stops checking the observers whose variable `keep` rejects (their expected values, kept
/// alongside, become `None`). They are not removed while a checked observer follows: an
/// observer may change what it reads (a buffer's relative `getInt()` moves its position),
/// and the values after it were recorded after it ran, so it runs on, unchecked.
pub(crate) fn retain_observers(
    observers: &mut Vec<ObsRef>,
    values: &mut Vec<Option<Observed>>,
    keep: impl Fn(u32) -> bool,
) {
    for (o, v) in observers.iter().zip(values.iter_mut()) {
        if !keep(o.stmt) {
            *v = None;
        }
    }
    trim_unchecked(observers, values);
}

/// Removes the unchecked observers that no checked one follows.
pub(crate) fn trim_unchecked(observers: &mut Vec<ObsRef>, values: &mut Vec<Option<Observed>>) {
    let len = values
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |i| i + 1);
    observers.truncate(len);
    values.truncate(len);
}

/// A regression test in compact form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KeptTest {
    pub id: u64,
    /// The stored sequence it was made as (generation's lexical redundancy reads it).
    pub seq: SeqId,
    /// Its statements ([`Parts::flat`]).
    pub code: Vec<u32>,
    /// `(step, expected value)`, by step.
    pub checks: Vec<(u32, Observed)>,
    pub observers: Vec<ObsRef>,
    /// Expected value of each observer; `None` for one that runs unchecked
    /// ([`retain_observers`]).
    pub observations: Vec<Option<Observed>>,
    /// Steps whose value (even whether they return) varies from run to run, by step.
    pub varies: Vec<u32>,
    /// `(step, digest)` of what each array a step returned held
    /// ([`SeqResult::Done::contents`](crate::sequence::SeqResult)): flake removal compares
    /// them to learn which arrays are random.
    pub contents: Vec<(u32, i32)>,
}

impl KeptTest {
    pub(crate) fn check_count(&self) -> usize {
        self.checks.len() + self.checked_observations().count()
    }

    /// The observers that are checked, with their expected values.
    pub(crate) fn checked_observations(&self) -> impl Iterator<Item = (&ObsRef, &Observed)> {
        (self.observers.iter().zip(&self.observations)).filter_map(|(o, v)| Some((o, v.as_ref()?)))
    }

    /// Its statements.
    pub(crate) fn parts(&self) -> Parts<'_> {
        Parts::of(&self.code)
    }

    /// How many statements it has.
    pub(crate) fn statement_count(&self) -> usize {
        self.parts().flat().count()
    }

    /// Its statements' templates and inputs ([`Store::flatten`]).
    pub(crate) fn flat(&self) -> Vec<(u32, Vec<u32>)> {
        let flat = self.parts().flat();
        flat.map(|(tmpl, inputs)| (tmpl, inputs.to_vec())).collect()
    }

    /// What a worker runs to replay this test.
    pub(crate) fn request(&self, templates: &Templates, names: &Names) -> SeqRequest {
        SeqRequest {
            statements: templates.statements(self.parts()),
            observers: self.observers.iter().map(|o| o.call(names)).collect(),
        }
    }

    /// The full test, with its statements and values spelled out.
    pub(crate) fn expand(&self, templates: &Templates, names: &Names) -> Test {
        let statements = templates.statements(self.parts());
        let mut expected_steps = vec![None; statements.len()];
        for (step, v) in &self.checks {
            expected_steps[*step as usize] = Some(v.clone());
        }
        Test {
            id: self.id,
            statements,
            observers: self.observers.iter().map(|o| o.call(names)).collect(),
            expected_steps,
            expected_observations: self.observations.clone(),
            varies: self.varies.iter().map(|&s| s as usize).collect(),
        }
    }
}

/// An error-revealing test in compact form.
#[derive(Clone, Debug)]
pub(crate) struct ErrorKept {
    pub id: u64,
    pub seq: SeqId,
    pub violation: Violation,
}

impl ErrorKept {
    pub(crate) fn expand(&self, store: &Store) -> ErrorTest {
        ErrorTest {
            id: self.id,
            statements: store.statements(store.node(self.seq).parts),
            violation: self.violation.clone(),
        }
    }
}

/// Groups error-revealing tests by violated contract and call (like REDUCE), keeping the
/// `per_group` shortest of each; returns them in group order and the number of groups.
pub(crate) fn group_errors(
    store: &Store,
    errors: Vec<ErrorKept>,
    per_group: usize,
) -> (Vec<ErrorKept>, usize) {
    let mut groups: BTreeMap<(String, String), Vec<ErrorKept>> = BTreeMap::new();
    for e in errors {
        let node = store.node(e.seq);
        let callee = store
            .template_at(node.parts, e.violation.stmt as u32)
            .map(|t| store.templates.get(t).stmt.callee())
            .unwrap_or_default();
        let key = (callee, e.violation.contract.clone());
        groups.entry(key).or_default().push(e);
    }
    let count = groups.len();
    let mut out = Vec::new();
    for (_, mut group) in groups {
        group.sort_by_key(|e| (store.node(e.seq).len, e.id));
        out.extend(group.into_iter().take(per_group.max(1)));
    }
    (out, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_observer_no_longer_checked_runs_on_while_a_checked_one_follows() {
        let obs = |stmt| ObsRef {
            stmt,
            class: 0,
            method: 0,
        };
        let value = |n: i32| {
            Some(Observed::Value {
                class: "java.lang.Integer".into(),
                text: n.to_string(),
            })
        };
        let mut observers = vec![obs(0), obs(1), obs(0), obs(1)];
        let mut values = vec![value(10), value(11), value(12), value(13)];
        retain_observers(&mut observers, &mut values, |v| v == 0);
        assert_eq!(values, [value(10), None, value(12)], "the last one goes");
        assert_eq!(observers, [obs(0), obs(1), obs(0)]);
        retain_observers(&mut observers, &mut values, |_| false);
        assert!(observers.is_empty() && values.is_empty());
    }
}
