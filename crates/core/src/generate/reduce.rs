//! Suite reduction over observed behaviour: of the regression tests generation kept, keep a
//! subset that still observes every behaviour the full suite observed, and drop the rest
//! (test-suite minimisation, with observed behaviour as the coverage). A behaviour is a
//! checked value together with the computation that gave it: the call's shape (callee, with
//! literals as written) applied to the *states* of its inputs. A checked primitive, String
//! or enum value is its value (how it was computed does not matter to the callee); any
//! other variable is the computation that made it plus every later call that took it as an
//! input (and so may have changed it). An observer's behaviour is its method on the final
//! state of its variable. So `count()` of two different streams, or `size()` of a list
//! after other `add`s, are different behaviours even when the values agree: the same value
//! from other inputs on the reference need not be the same on the target. Aliasing (an
//! iterator that changes its list) and static state are not followed.
//!
//! Greedy, and deterministic: tests with more checks are taken first (ties by id), a test is
//! kept if it observes a behaviour no kept test observes, and the kept tests stay in id
//! order. Error-revealing tests are all kept.

use super::Recorded;
use super::kept::KeptTest;
use super::scratch_words::ScratchWords;
use super::spool::SpoolError;
use crate::hash::{PrehashedSet, key128};
use crate::in_order;
use crate::sequence::Observed;

/// What reduction did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reduction {
    /// Tests before the reduction.
    pub before: usize,
    /// Tests after it.
    pub after: usize,
    /// Distinct behaviours, all of which the kept tests still observe.
    pub behaviours: usize,
}

/// Keeps the tests that add a behaviour (see the module comment), reading them back one at
/// a time.
pub(crate) fn reduce(rec: &mut Recorded) -> Result<Reduction, SpoolError> {
    reduce_with(rec, true)
}

/// Behaviours one pass of reduction holds at most (a set of 64-bit keys: about 18 MiB).
const BEHAVIOURS_PER_PASS: usize = 1 << 20;

/// [`reduce`], keeping every test unless `drop` (the behaviours are counted either way).
///
/// Whether a behaviour is new to a test depends only on the tests before it in the order,
/// so the behaviours are split by key into parts taken one pass each, a test kept if any
/// pass finds it new: the same tests as one pass, with a set of a bounded size.
fn reduce_with(rec: &mut Recorded, drop: bool) -> Result<Reduction, SpoolError> {
    reduce_in_passes(rec, drop, BEHAVIOURS_PER_PASS)
}

fn reduce_in_passes(
    rec: &mut Recorded,
    drop: bool,
    per_pass: usize,
) -> Result<Reduction, SpoolError> {
    let before = rec.tests.len();
    let keyed = Keyed::of(rec)?;
    let checks = keyed.keys.len();
    let mut order: Vec<u64> = (0..before).map(|i| rank(keyed.count(i), i)).collect();
    order.sort_unstable();
    let passes = checks.div_ceil(per_pass).max(1) as u64;
    let mut keep = vec![false; before];
    let mut behaviours_seen = 0;
    for pass in 0..passes {
        let mut seen: PrehashedSet<u64> = PrehashedSet::default();
        seen.reserve(checks.min(per_pass));
        in_order::for_each(
            order.iter().map(|&r| r as u32 as usize),
            |t| {
                let keys = keyed.of_test(t).map_err(|e| rec.tests.io(e))?;
                Ok((
                    t,
                    keys.into_iter()
                        .filter(|b| b % passes == pass)
                        .collect::<Vec<_>>(),
                ))
            },
            |(t, keys)| {
                for b in keys {
                    keep[t] |= seen.insert(b);
                }
                Ok(())
            },
        )?;
        behaviours_seen += seen.len();
    }
    std::mem::drop(keyed); // its scratch file, before the tests are retained
    if drop {
        rec.tests.retain(|i, _| keep[i]);
    }
    Ok(Reduction {
        before,
        after: rec.tests.len(),
        behaviours: behaviours_seen,
    })
}

/// Every test's behaviour keys ([`folded`]), computed once on every core and kept in a
/// scratch file, so that each pass reads 8 bytes a check instead of the test. Memory holds
/// 8 bytes a test (where its keys start), beside the order's 8.
struct Keyed {
    keys: ScratchWords,
    /// Where each test's keys start, and after the last test, where they end.
    starts: Vec<u64>,
}

impl Keyed {
    fn of(rec: &Recorded) -> Result<Keyed, SpoolError> {
        let tests = &rec.tests;
        let mut keyed = Keyed {
            keys: tests.words_beside(),
            starts: Vec::with_capacity(tests.len() + 1),
        };
        in_order::for_each(
            0..tests.len(),
            |i| {
                Ok(behaviours(&tests.get(i)?)
                    .into_iter()
                    .map(folded)
                    .collect::<Vec<u64>>())
            },
            |keys| {
                keyed.starts.push(keyed.keys.len() as u64);
                keys.into_iter().for_each(|k| keyed.keys.push(k));
                Ok(())
            },
        )?;
        keyed.starts.push(keyed.keys.len() as u64);
        match keyed.keys.failed() {
            Some(kind) => Err(tests.io(kind.into())),
            None => Ok(keyed),
        }
    }

    /// How many checks test `i` has.
    fn count(&self, i: usize) -> usize {
        (self.starts[i + 1] - self.starts[i]) as usize
    }

    /// Test `i`'s keys.
    fn of_test(&self, i: usize) -> std::io::Result<Vec<u64>> {
        self.keys.range(self.starts[i] as usize, self.count(i))
    }
}

/// Test `i`'s place in reduction's order, 8 bytes a test: more checks first, then the
/// order kept (which is the order of ids).
fn rank(checks: usize, i: usize) -> u64 {
    let fewer = u32::MAX - u32::try_from(checks).unwrap_or(u32::MAX);
    (u64::from(fewer) << 32) | i as u64
}

/// A behaviour's key in 64 bits, as the set of those seen holds it: the 2 million
/// behaviours of a 300 s record took a 68 MiB table as 128-bit keys (36 MiB now), the
/// largest thing that record held; two of them meet in 64 bits about once in ten million
/// such records.
fn folded(key: u128) -> u64 {
    (key as u64) ^ ((key >> 64) as u64)
}

/// Reduces again once reruns dropped unstable values, which may leave kept tests with
/// nothing new; the counts are from `first`'s full suite to the end. With `keep_every_test`
/// (the suite must stay as the last rerun ran it) the behaviours are counted and no test
/// goes.
pub(crate) fn after_reruns(
    first: Reduction,
    rec: &mut Recorded,
    keep_every_test: bool,
) -> Result<Reduction, SpoolError> {
    let again = reduce_with(rec, !keep_every_test)?;
    Ok(Reduction {
        before: first.before,
        ..again
    })
}

/// The behaviours test `t` checks: a key per checked step and per observer.
pub(crate) fn behaviours(t: &KeptTest) -> Vec<u128> {
    let flat = t.flat();
    let mut value: Vec<Option<u128>> = vec![None; flat.len()];
    for (step, v) in &t.checks {
        if let Observed::Value { .. } | Observed::Large { .. } = v {
            value[*step as usize] = Some(key128(&(2u8, v)));
        }
    }
    let Computations { call, state } = computations(&flat, &value);
    let checks = t
        .checks
        .iter()
        .map(|(step, value)| key128(&(0u8, call[*step as usize], value)));
    let observers = t
        .checked_observations()
        .map(|(o, value)| key128(&(1u8, state[o.stmt as usize], o.class, o.method, value)));
    checks.chain(observers).collect()
}

/// The keys of a flattened test's statements (see the module comment).
pub(crate) struct Computations {
    /// Each statement's call: its template applied to the states of its inputs then.
    pub call: Vec<u128>,
    /// Each variable's final state: its call, then every later call that took it.
    pub state: Vec<u128>,
}

/// The computations of `flat` (template and inputs per statement, as
/// [`Store::flatten`] gives them); a step with a `value` stands for that value wherever it
/// is an input (a checked primitive, String or enum value), not for how it was made.
pub(crate) fn computations(flat: &[(u32, Vec<u32>)], value: &[Option<u128>]) -> Computations {
    let mut state: Vec<u128> = Vec::with_capacity(flat.len());
    let mut call: Vec<u128> = Vec::with_capacity(flat.len());
    for (s, (tmpl, inputs)) in flat.iter().enumerate() {
        let ins: Vec<u128> = inputs
            .iter()
            .map(|&i| {
                value
                    .get(i as usize)
                    .copied()
                    .flatten()
                    .unwrap_or(state[i as usize])
            })
            .collect();
        let key = key128(&(tmpl, &ins));
        for (j, &i) in inputs.iter().enumerate() {
            state[i as usize] = key128(&(state[i as usize], key, j));
        }
        debug_assert_eq!(state.len(), s);
        state.push(key);
        call.push(key);
    }
    Computations { call, state }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::on_fake;
    use crate::sequence::Statement;
    use std::collections::HashSet;

    /// Every (callee, value) a set of tests checks, spelled out.
    fn behaviours(rec: &Recorded) -> HashSet<(String, String)> {
        let mut out = HashSet::new();
        for t in &rec.tests.all() {
            let test = t.expand(&rec.templates, &rec.names);
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

    /// Every behaviour key the tests of `rec` observe.
    fn keys(rec: &Recorded) -> HashSet<u128> {
        let all = rec.tests.all();
        all.iter().flat_map(super::behaviours).collect()
    }

    fn ids(rec: &Recorded) -> Vec<u64> {
        rec.tests.all().iter().map(|t| t.id).collect()
    }

    #[test]
    fn keeps_fewer_tests_that_still_observe_every_behaviour_in_id_order() {
        let mut rec = on_fake::recorded(3, 400);
        let (all, all_keys) = (behaviours(&rec), keys(&rec));
        let errors = rec.errors.len();
        let r = reduce(&mut rec).unwrap();
        assert!(r.before >= 400 && r.after < r.before, "{r:?}");
        assert_eq!(behaviours(&rec), all, "no (callee, value) lost");
        assert_eq!(keys(&rec), all_keys, "no behaviour lost");
        assert_eq!(r.behaviours, all_keys.len());
        assert_eq!(rec.errors.len(), errors);
        assert!(rec.tests.all().windows(2).all(|w| w[0].id < w[1].id));
        let mut again = on_fake::recorded(3, 400);
        reduce(&mut again).unwrap();
        assert_eq!(ids(&again), ids(&rec), "the same tests for the same seed");
    }

    #[test]
    fn reduction_in_several_passes_keeps_the_same_tests_as_in_one() {
        let mut one = on_fake::recorded(7, 400);
        let mut many = on_fake::recorded(7, 400);
        let a = reduce_in_passes(&mut one, true, usize::MAX).expect("reduce");
        let b = reduce_in_passes(&mut many, true, 50).expect("reduce");
        assert!(b.behaviours > 2 * 50, "several passes ran");
        assert_eq!(a, b);
        assert_eq!(ids(&one), ids(&many));
    }

    #[test]
    fn a_computation_is_the_same_wherever_it_runs_and_only_with_the_same_history() {
        // Templates: 1 "DSA", 2 getInstance, 3 genKeyPair, 4 getLength, 7 an unrelated call,
        // 8 a call that may change its input.
        let chain = |at: u32| {
            vec![
                (1, vec![]),
                (2, vec![at]),
                (3, vec![at + 1]),
                (4, vec![at + 2]),
            ]
        };
        let calls = |flat: &[(u32, Vec<u32>)]| computations(flat, &[]).call;
        let alone = calls(&chain(0));
        let mut later = vec![(7, vec![]), (7, vec![0])];
        later.extend(chain(2));
        assert_eq!(
            alone[3],
            calls(&later)[5],
            "the same computation two statements on"
        );
        // The key pair used by another call first has another history.
        let mut used = chain(0);
        used.insert(3, (8, vec![2]));
        let used = calls(&used);
        assert_ne!(alone[3], used[4]);
        assert_eq!(alone[2], used[2], "what came before is the same");
        // A checked value stands for itself, however it was made.
        let valued = computations(&chain(0), &[None, Some(9), None, None]).call;
        assert_ne!(alone[2], valued[2]);
    }

    #[test]
    fn a_callee_giving_the_same_value_from_other_inputs_is_another_behaviour() {
        let rec = on_fake::recorded(5, 400);
        let coarse = behaviours(&rec).len();
        assert!(keys(&rec).len() > coarse, "inputs tell behaviours apart");
    }
}
