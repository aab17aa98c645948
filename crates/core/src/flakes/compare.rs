//! Comparing one rerun's result with the test as kept: a step or observation whose value
//! changed is dropped (an exception whose message alone changed keeps its class), what
//! reads it is tainted, and a test whose steps changed in number goes.

use super::{RerunReport, apply_taint, random_computations_in, unstable_computations_in};
use crate::generate::Recorded;
use crate::generate::kept::{KeptTest, ObsRef, trim_unchecked};
use crate::generate::spool::SpoolError;
use crate::generate::taint;
use crate::sequence::{Observed, SeqResult, Statement};
use std::collections::BTreeSet;

/// Compares one rerun with test `t`, dropping what changed; false if the whole test must go.
pub(super) fn compare(
    rec: &mut Recorded,
    t: usize,
    result: SeqResult,
    report: &mut RerunReport,
) -> Result<bool, SpoolError> {
    let SeqResult::Done {
        steps,
        observations,
        contents,
        ..
    } = result
    else {
        return Ok(false);
    };
    let made = rec.tests.get(t)?;
    let len = made.statement_count();
    if steps.len() != len || observations.len() != made.observers.len() {
        return Ok(false);
    }
    let mut test = made.clone();
    let mut changed = compare_steps(rec, &mut test, &steps, report);
    let unstable = &mut report.unstable_computations;
    changed.extend(unstable_computations_in(&test, &changed, unstable));
    let mut random = random_contents(&test.contents, &contents);
    let printed = compare_observations(rec, &mut test, &observations, report);
    let random_made = &mut report.random_computations;
    let elsewhere = random_computations_in(&test, &random, &printed, random_made);
    random.extend(printed);
    random.extend(elsewhere);
    drop_tainted(rec, &mut test, &steps, &changed, &random, report);
    if test != made {
        rec.tests.set(t, &test);
    }
    Ok(true)
}

/// Drops the checks and observations that read a value that changed in this run, an
/// identity-based one or one whose content is `random`, and marks those steps as varying
/// (replay does not hold it against the target when one throws there); notes the callees
/// whose random arrays changed length ([`note_random_lengths`]).
fn drop_tainted(
    rec: &Recorded,
    test: &mut KeptTest,
    steps: &[Observed],
    changed: &[u32],
    random: &[u32],
    report: &mut RerunReport,
) {
    if changed.is_empty() && random.is_empty() && !steps.iter().any(taint::identity_based) {
        return;
    }
    let stmts = rec.templates.statements(test.parts());
    note_random_lengths(&stmts, changed, random, &mut report.random_length_callees);
    let taint = taint::spread(&stmts, steps, changed, random);
    report.dropped_derived += apply_taint(test, &taint);
}

/// Notes the callee of each `random` array whose length read is among the `changed` steps:
/// its length is random too, wherever it is read.
fn note_random_lengths(
    stmts: &[Statement],
    changed: &[u32],
    random: &[u32],
    callees: &mut BTreeSet<String>,
) {
    for &c in changed {
        let Some(array) = stmts.get(c as usize).and_then(taint::length_read_of) else {
            continue;
        };
        if random.contains(&(array as u32)) {
            callees.insert(stmts[array].callee());
        }
    }
}

/// The steps whose array held other content in this run than when the test was made (a
/// random key's encoding, a salt): their class and length may still be the same every time.
fn random_contents(made: &[(u32, i32)], now: &[(u32, i32)]) -> Vec<u32> {
    made.iter()
        .filter(|m| !now.contains(m))
        .map(|&(step, _)| step)
        .collect()
}

fn compare_steps(
    rec: &mut Recorded,
    test: &mut KeptTest,
    steps: &[Observed],
    report: &mut RerunReport,
) -> Vec<u32> {
    let mut checks = Vec::with_capacity(test.checks.len());
    let mut changed = Vec::new();
    for (step, v) in std::mem::take(&mut test.checks) {
        match settle(&v, &steps[step as usize]) {
            Settled::Same => checks.push((step, v)),
            Settled::ClassOnly(o) => {
                report.weakened.insert((test.id, step, u32::MAX, u32::MAX));
                checks.push((step, o));
            }
            Settled::Changed => {
                changed.push(step);
                report.dropped_checks += 1;
                let callee = callee_at(rec, test, step);
                let (threw, throws) = (is_throw(&v), is_throw(&steps[step as usize]));
                if threw != throws {
                    let flips = report.outcome_flips_by_method.entry(callee.clone());
                    let [to_value, to_throw] = flips.or_default();
                    *if threw { to_value } else { to_throw } += 1;
                }
                *report.unstable_by_method.entry(callee).or_default() += 1;
            }
        }
    }
    test.checks = checks;
    changed
}

fn is_throw(o: &Observed) -> bool {
    matches!(o, Observed::Threw { .. })
}

/// The callee of step `step` of the sequence `parts`.
fn callee_at(rec: &Recorded, test: &KeptTest, step: u32) -> String {
    (test.parts().flat().nth(step as usize))
        .map(|(t, _)| rec.templates.get(t).stmt.callee())
        .unwrap_or_default()
}

/// Drops the observations whose value changed; returns the steps whose `toString()` changed:
/// their content is random (a `BigInteger` made from a random salt), however stable some of
/// their other observers happened to be.
fn compare_observations(
    rec: &mut Recorded,
    test: &mut KeptTest,
    observations: &[Observed],
    report: &mut RerunReport,
) -> Vec<u32> {
    let (mut observers, mut values, mut random) = (Vec::new(), Vec::new(), Vec::new());
    let expected = std::mem::take(&mut test.observations);
    for ((o, v), got) in test.observers.iter().zip(expected).zip(observations) {
        observers.push(*o);
        let Some(v) = v else {
            values.push(None);
            continue;
        };
        match settle(&v, got) {
            Settled::Same => values.push(Some(v)),
            Settled::ClassOnly(c) => {
                report.weakened.insert((test.id, o.stmt, o.class, o.method));
                values.push(Some(c));
            }
            Settled::Changed => {
                report.dropped_observations += 1;
                let name = observer_name(rec, o);
                *report.unstable_by_method.entry(name).or_default() += 1;
                if rec.names.name(o.method) == "toString" {
                    random.push(o.stmt);
                }
                values.push(None);
            }
        }
    }
    trim_unchecked(&mut observers, &mut values);
    test.observers = observers;
    test.observations = values;
    random
}

/// An observer's method as `unstable_by_method` names it: `Class.method()`.
fn observer_name(rec: &Recorded, o: &ObsRef) -> String {
    format!("{}.{}()", rec.names.name(o.class), rec.names.name(o.method))
}

enum Settled {
    Same,
    /// The same exception class with another message: expect the class only.
    ClassOnly(Observed),
    Changed,
}

fn settle(expected: &Observed, got: &Observed) -> Settled {
    if expected == got {
        return Settled::Same;
    }
    match (expected, got) {
        (Observed::Threw { class: a, .. }, Observed::Threw { class: b, .. }) if a == b => {
            Settled::ClassOnly(Observed::threw(a, None))
        }
        _ => Settled::Changed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_is_random_when_its_digest_changed_or_went() {
        let made = [(1, 7), (3, -2), (5, 0)];
        assert_eq!(random_contents(&made, &[(1, 7), (3, 9), (5, 0)]), [3]);
        assert_eq!(random_contents(&made, &[(1, 7), (5, 0)]), [3]);
        assert!(random_contents(&made, &made).is_empty());
        assert!(random_contents(&[], &[(2, 1)]).is_empty());
    }
}
