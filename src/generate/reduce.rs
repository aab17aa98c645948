//! Suite reduction over observed behaviour: of the regression tests generation kept, keep
//! those that observe something no earlier test observed, and drop the rest. A behaviour is
//! a checked step's statement shape (the callee, with literals as written) and the value it
//! gave (its rendering, runtime class, or exception class and message), or an observer call
//! (type and method) and its value. Like test-suite minimisation for coverage, but the
//! coverage is what the reference did, so every value the full suite checked is still
//! checked by some test. Tests are taken in id order, so the result is deterministic.

use super::Recorded;
use super::components::key_of;
use std::collections::HashSet;

/// What reduction did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reduction {
    pub before: usize,
    pub after: usize,
    /// Distinct behaviours, all of which the kept tests still observe.
    pub behaviours: usize,
}

/// Keeps the tests that add a behaviour; error-revealing tests are all kept.
pub fn reduce(rec: &mut Recorded) -> Reduction {
    let before = rec.tests.len();
    let mut seen: HashSet<u128> = HashSet::new();
    let (store, tests) = (&rec.store, &mut rec.tests);
    tests.retain(|t| {
        let parts = &store.node(t.seq).parts;
        let mut new = false;
        for &(step, value) in &t.checks {
            let shape = store.template_at(parts, step);
            new |= seen.insert(key_of(&(0u8, shape, value)));
        }
        for (o, &value) in t.observers.iter().zip(&t.observations) {
            new |= seen.insert(key_of(&(1u8, o.class, o.method, value)));
        }
        new
    });
    Reduction {
        before,
        after: rec.tests.len(),
        behaviours: seen.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fake;
    use super::*;
    use crate::sequence::Statement;

    /// Every (callee, value) a set of tests checks, spelled out.
    fn behaviours(rec: &Recorded) -> HashSet<(String, String)> {
        let mut out = HashSet::new();
        for t in &rec.tests {
            let test = t.expand(&rec.store, &rec.names, &rec.values);
            for (s, o) in test.statements.iter().zip(&test.expected_steps) {
                if let Some(o) = o {
                    out.insert((shape(s), format!("{o:?}")));
                }
            }
            for (c, o) in test.observers.iter().zip(&test.expected_observations) {
                out.insert((format!("{}.{}", c.class, c.method), format!("{o:?}")));
            }
        }
        out
    }

    /// A statement without its variables: what the reduction calls a shape.
    fn shape(s: &Statement) -> String {
        match s {
            Statement::Literal { .. } => format!("{s:?}"),
            _ => s.callee(),
        }
    }

    #[test]
    fn keeps_fewer_tests_that_still_observe_every_behaviour_in_id_order() {
        let mut rec = fake::recorded(3, 400);
        let all = behaviours(&rec);
        let errors = rec.errors.len();
        let r = reduce(&mut rec);
        assert!(r.before >= 400 && r.after < r.before, "{r:?}");
        assert_eq!(behaviours(&rec), all, "no behaviour lost");
        assert_eq!(rec.errors.len(), errors);
        assert!(rec.tests.windows(2).all(|w| w[0].id < w[1].id));
    }
}
