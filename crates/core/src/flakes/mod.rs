//! Flake removal (section III-A of the regression-suite paper): after generation, the whole
//! suite runs again `--reruns` times on the reference, each time on fresh workers, in a
//! shuffled order and cut into batches of random sizes, so that results which depend on the
//! JVM start (hash seeds, identity hashes, the clock) or on what ran before (static state)
//! show up as changes. Every check whose value changed in any run is dropped — an exception
//! whose class held but whose message changed keeps its class only — and so is every check
//! and observation that reads a changed value ([`taint`]). The same computation — the same
//! call on inputs made and used the same way, down to the literals — is the same in every
//! test, so once its value changed in one test it counts as changed in all of them: a call
//! without inputs (`RandomUtils.nextBoolean()`, a static field), and the length of a random
//! key's encoding (`KeyPairGenerator.getInstance("DSA").genKeyPair().getPrivate()
//! .getEncoded()`: 608 or 609 bytes), which two reruns of one test see unchanged one time in
//! four. Content no observation sees is caught too: a step whose array digest (the worker's
//! `contents`) or `toString()` observation changed is random content, and what reads it is
//! tainted (a random key's bytes passed to a parser), though the array's length stays
//! checked. Every test left with no check is dropped. Two batches are in flight at a time
//! ([`Pipeline`]), compared in order. Between reruns the suite is reduced again, so a later
//! rerun runs only the tests that can still be written.

mod as_replay;

use crate::generate::Recorded;
use crate::generate::kept::{KeptTest, ObsRef, UNCHECKED, retain_observers, trim_unchecked};
use crate::generate::reduce::computations;
use crate::generate::spool::SpoolError;
use crate::generate::store::Part;
use crate::generate::taint;
use crate::pool::{Executor, Lane, Pipeline, PoolError};
use crate::sequence::{Observed, SeqResult};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Reruns by default: the measured curve of values first found unstable per rerun falls
/// from tens of thousands in the first to tens or hundreds in the second and third
/// (DESIGN.md, "The defaults"); what a third would still find is left to replay's confirmation run
/// and side-by-side check, and replays of suites recorded with two reruns on the recording
/// JDK showed no counted difference for three seeds. Each rerun costs about a third of a
/// default record's time (the second less, after the reduction in between).
pub const DEFAULT_RERUNS: usize = 2;

/// Why flake removal stopped.
#[derive(Debug, thiserror::Error)]
pub enum RerunError {
    /// The workers failed.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The kept tests could not be read back or written.
    #[error(transparent)]
    Spool(#[from] SpoolError),
}

/// Largest batch handed to the workers at once.
pub(crate) const MAX_BATCH: usize = 2000;

/// What flake removal did.
#[derive(Clone, Debug, Default)]
pub struct RerunReport {
    /// Reruns that went through the whole suite.
    pub reruns_done: usize,
    /// Step checks and observations dropped because their value changed.
    pub dropped_checks: u64,
    /// Observer checks removed because they varied.
    pub dropped_observations: u64,
    /// Checks and observations dropped because they read a value that changed (taint).
    pub dropped_derived: u64,
    /// Expected exceptions whose message changed (their class is still checked), counted
    /// in the tests kept: a weakened check that is dropped later does not count, so the
    /// number depends on the suite written, not on how reruns were split over workers.
    pub weakened_messages: u64,
    /// The checks `(test id, step)` and observations `(test id, stmt, class, method)` whose
    /// message was dropped, counted into `weakened_messages` at the end.
    weakened: BTreeSet<(u64, u32, u32, u32)>,
    /// Tests dropped: nothing left to check, a different number of steps, a timeout or crash.
    pub dropped_tests: u64,
    /// How often each method's value changed, for the report.
    pub unstable_by_method: BTreeMap<String, u64>,
    /// The computations whose value changed somewhere (calls, as
    /// [`crate::generate::reduce::computations`] keys them).
    pub unstable_computations: BTreeSet<u128>,
    /// The computations whose value held other content somewhere: an array whose digest
    /// changed, an object whose `toString()` did ([`taint::spread`]'s `random` steps).
    pub random_computations: BTreeSet<u128>,
    /// How long the reruns took.
    pub elapsed: Duration,
    /// Largest sum of the workers' peak RSS in one rerun, in KiB.
    pub workers_peak_kib: u64,
    /// Tests left after the last rerun.
    pub tests_left: usize,
    /// Checks and observations first found unstable in each rerun, and tests dropped in it
    /// (a timeout, a crash, steps that changed in number): the curve of what a later rerun
    /// still finds.
    pub new_per_rerun: Vec<u64>,
    /// Tests each complete rerun ran: the first every test, a later one those the reduction
    /// after the previous rerun kept.
    pub ran_per_rerun: Vec<u64>,
    /// How long each complete rerun took, beside `ran_per_rerun`.
    pub time_per_rerun: Vec<Duration>,
}

impl RerunReport {
    /// The `n` methods whose values changed most often, most often first.
    pub fn most_unstable(&self, n: usize) -> Vec<(String, u64)> {
        let mut all: Vec<(String, u64)> = self
            .unstable_by_method
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        all.truncate(n);
        all
    }
}

/// Rerun `i`: each test of `tests` once, in a shuffled order, in batches of random sizes, two
/// batches in flight ([`Pipeline`]) and compared in order. Returns how many tests were
/// compared: all of them unless `stop` was set.
#[allow(clippy::too_many_arguments)]
fn rerun_once(
    rec: &mut Recorded,
    seed: u64,
    i: usize,
    mut order: Vec<usize>,
    exec: &dyn Executor,
    stop: &AtomicBool,
    dead: &mut [bool],
    report: &mut RerunReport,
    mut progress: impl FnMut(usize),
) -> Result<usize, RerunError> {
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)));
    order.shuffle(&mut rng);
    std::thread::scope(|scope| {
        let mut flight: Pipeline<std::ops::Range<usize>> = Pipeline::new(scope, exec, false);
        let (mut sent, mut done) = (0, 0);
        let outcome = loop {
            if !flight.has_room() || sent == order.len() || stop.load(Ordering::SeqCst) {
                let Some((batch, _, results)) = flight.take() else {
                    break Ok(done);
                };
                let results = match results {
                    Err(PoolError::Stopped) => break Ok(done), // this rerun does not count
                    other => other?,
                };
                done += batch.len();
                for (&t, r) in order[batch].iter().zip(results) {
                    dead[t] |= !compare(rec, t, r, report)?;
                }
                progress(done);
                continue;
            }
            let size = rng
                .random_range(MAX_BATCH / 8..=MAX_BATCH)
                .min(order.len() - sent);
            let batch = sent..sent + size;
            let reqs = order[batch.clone()]
                .iter()
                .map(|&t| Ok(rec.tests.get(t)?.request(&rec.store, &rec.names)))
                .collect::<Result<_, SpoolError>>();
            match reqs {
                Ok(reqs) => flight.submit(batch, reqs),
                Err(e) => break Err(e.into()),
            }
            sent += size;
        };
        flight.drain();
        outcome
    })
}

/// Reruns `rec.tests` `reruns` times, each on a fresh executor of `lane`
/// ([`Lane::start_run`]), and drops what changed; stops early on `stop`. After every
/// rerun but the last, what it found is settled (unstable computations tainted everywhere,
/// tests left with nothing to check dropped) and `between` may shrink the suite
/// (reduction), so a later rerun never runs a test that will not be written. `progress`
/// hears `(rerun, tests done in it, tests it runs)`.
pub(crate) fn remove_flakes(
    rec: &mut Recorded,
    reruns: usize,
    seed: u64,
    lane: &dyn Lane,
    stop: &AtomicBool,
    between: &mut dyn FnMut(&mut Recorded) -> Result<(), SpoolError>,
    mut progress: impl FnMut(usize, usize, usize),
) -> Result<RerunReport, RerunError> {
    let began = Instant::now();
    let mut report = RerunReport::default();
    let mut dead = vec![false; rec.tests.len()];
    for i in 0..reruns {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let of = rec.tests.len();
        let rerun_began = Instant::now();
        let before = report.dropped_checks + report.dropped_observations + dead_count(&dead);
        let done = if i + 1 == reruns {
            let progress = |n| progress(i, n, of);
            as_replay::rerun_as_replay(rec, i, lane, stop, &mut dead, &mut report, progress)?
        } else {
            let exec = lane.start_run(i)?;
            let tests: Vec<usize> = (0..of).collect();
            let done = rerun_once(
                rec,
                seed,
                i,
                tests,
                exec.as_ref(),
                stop,
                &mut dead,
                &mut report,
                |n| progress(i, n, of),
            )?;
            let rss = exec.peak_rss_kib().iter().sum();
            report.workers_peak_kib = report.workers_peak_kib.max(rss);
            done
        };
        if done < of {
            continue;
        }
        report.reruns_done += 1;
        report.ran_per_rerun.push(of as u64);
        report.time_per_rerun.push(rerun_began.elapsed());
        let after = report.dropped_checks + report.dropped_observations + dead_count(&dead);
        report.new_per_rerun.push(after - before);
        if i + 1 < reruns && !stop.load(Ordering::SeqCst) {
            settle_dead(rec, &mut report, &mut dead)?;
            between(rec)?;
            dead = vec![false; rec.tests.len()];
        }
    }
    settle_dead(rec, &mut report, &mut dead)?;
    for test in rec.tests.iter() {
        report.weakened_messages += weakened_in(&test?, &report.weakened);
    }
    report.tests_left = rec.tests.len();
    report.elapsed = began.elapsed();
    Ok(report)
}

/// Taints what reads an unstable computation in every test, and drops the tests that are
/// `dead` or left with nothing to check (counted into `dropped_tests`).
fn settle_dead(
    rec: &mut Recorded,
    report: &mut RerunReport,
    dead: &mut [bool],
) -> Result<(), SpoolError> {
    taint_unstable_computations(rec, report)?;
    let before = rec.tests.len();
    for (t, test) in rec.tests.iter().enumerate() {
        dead[t] |= test?.check_count() == 0;
    }
    rec.tests.retain(|t, _| !dead[t]);
    report.dropped_tests += (before - rec.tests.len()) as u64;
    Ok(())
}

/// The checks and observations of `t` whose message was dropped.
fn weakened_in(t: &KeptTest, weakened: &BTreeSet<(u64, u32, u32, u32)>) -> u64 {
    let checks = t
        .checks
        .iter()
        .map(|&(step, _)| (t.id, step, u32::MAX, u32::MAX));
    let observers = t
        .observers
        .iter()
        .map(|o| (t.id, o.stmt, o.class, o.method));
    checks
        .chain(observers)
        .filter(|k| weakened.contains(k))
        .count() as u64
}

fn dead_count(dead: &[bool]) -> u64 {
    dead.iter().filter(|&&d| d).count() as u64
}

/// Compares one rerun with test `t`, dropping what changed; false if the whole test must go.
fn compare(
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
    let len = rec.store.node(made.seq).len as usize;
    if steps.len() != len || observations.len() != made.observers.len() {
        return Ok(false);
    }
    let mut test = made.clone();
    let mut changed = compare_steps(rec, &mut test, &steps, report);
    let unstable = &mut report.unstable_computations;
    changed.extend(unstable_computations_in(rec, &test, &changed, unstable));
    let mut random = random_contents(&test.contents, &contents);
    random.extend(compare_observations(rec, &mut test, &observations, report));
    let random_made = &mut report.random_computations;
    random.extend(unstable_computations_in(rec, &test, &random, random_made));
    drop_tainted(rec, &mut test, &steps, &changed, &random, report);
    if test != made {
        rec.tests.set(t, &test);
    }
    Ok(true)
}

/// Drops the checks and observations that read a value that changed in this run, an
/// identity-based one or one whose content is `random`, and marks those steps as varying
/// (replay does not hold it against the target when one throws there).
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
    let stmts = rec.store.statements(&rec.store.node(test.seq).parts);
    let taint = taint::spread(&stmts, steps, changed, random);
    apply_taint(test, &taint, report);
}

/// The steps whose array held other content in this run than when the test was made (a
/// random key's encoding, a salt): their class and length may still be the same every time.
fn random_contents(made: &[(u32, i32)], now: &[(u32, i32)]) -> Vec<u32> {
    made.iter()
        .filter(|m| !now.contains(m))
        .map(|&(step, _)| step)
        .collect()
}

/// Notes the computations of `changed` in `known`; returns the steps of `test` that make a
/// computation `known` names and are not in `changed` yet.
fn unstable_computations_in(
    rec: &Recorded,
    test: &KeptTest,
    changed: &[u32],
    known: &mut BTreeSet<u128>,
) -> Vec<u32> {
    if changed.is_empty() && known.is_empty() {
        return Vec::new();
    }
    let flat = rec.store.flatten(&rec.store.node(test.seq).parts);
    // How each step was made, not what it gave: the values are what changes.
    let keys = computations(&flat, &[]).call;
    for &c in changed {
        if let Some(&key) = keys.get(c as usize) {
            known.insert(key);
        }
    }
    (0..keys.len() as u32)
        .filter(|&s| known.contains(&keys[s as usize]) && !changed.contains(&s))
        .collect()
}

/// After the reruns: every test that makes a computation found unstable in another test
/// loses the checks that depend on it (objects it touched cannot be told apart here: no
/// values).
fn taint_unstable_computations(
    rec: &mut Recorded,
    report: &mut RerunReport,
) -> Result<(), SpoolError> {
    if report.unstable_computations.is_empty() && report.random_computations.is_empty() {
        return Ok(());
    }
    for t in 0..rec.tests.len() {
        let mut test = rec.tests.get(t)?;
        let calls = unstable_computations_in(rec, &test, &[], &mut report.unstable_computations);
        let random = unstable_computations_in(rec, &test, &[], &mut report.random_computations);
        if calls.is_empty() && random.is_empty() {
            continue;
        }
        let stmts = rec.store.statements(&rec.store.node(test.seq).parts);
        let taint = taint::spread(&stmts, &[], &calls, &random);
        apply_taint(&mut test, &taint, report);
        rec.tests.set(t, &test);
    }
    Ok(())
}

/// Drops the checks and observers `taint` covers and marks its steps as varying.
fn apply_taint(test: &mut KeptTest, taint: &taint::Taint, report: &mut RerunReport) {
    let before = test.check_count();
    test.checks.retain(|&(step, _)| !taint.step[step as usize]);
    retain_observers(&mut test.observers, &mut test.observations, |v| {
        !taint.var[v as usize]
    });
    report.dropped_derived += (before - test.check_count()) as u64;
    let tainted = (0..taint.step.len() as u32).filter(|&s| taint.step[s as usize]);
    test.varies.extend(tainted);
    test.varies.sort_unstable();
    test.varies.dedup();
}

fn compare_steps(
    rec: &mut Recorded,
    test: &mut KeptTest,
    steps: &[Observed],
    report: &mut RerunReport,
) -> Vec<u32> {
    let parts = &rec.store.node(test.seq).parts;
    let mut checks = Vec::with_capacity(test.checks.len());
    let mut changed = Vec::new();
    for &(step, v) in &test.checks {
        match settle(rec.values.get(v), &steps[step as usize]) {
            Settled::Same => checks.push((step, v)),
            Settled::ClassOnly(o) => {
                report.weakened.insert((test.id, step, u32::MAX, u32::MAX));
                checks.push((step, rec.values.intern(&o)));
            }
            Settled::Changed => {
                changed.push(step);
                report.dropped_checks += 1;
                let callee = callee_at(rec, parts, step);
                *report.unstable_by_method.entry(callee).or_default() += 1;
            }
        }
    }
    test.checks = checks;
    changed
}

/// The callee of step `step` of the sequence `parts`.
fn callee_at(rec: &Recorded, parts: &[Part], step: u32) -> String {
    (rec.store.template_at(parts, step))
        .map(|t| rec.store.templates.get(t).stmt.callee())
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
    for ((o, &v), got) in test
        .observers
        .iter()
        .zip(&test.observations)
        .zip(observations)
    {
        observers.push(*o);
        if v == UNCHECKED {
            values.push(v);
            continue;
        }
        match settle(rec.values.get(v), got) {
            Settled::Same => values.push(v),
            Settled::ClassOnly(c) => {
                report.weakened.insert((test.id, o.stmt, o.class, o.method));
                values.push(rec.values.intern(&c));
            }
            Settled::Changed => {
                report.dropped_observations += 1;
                let name = observer_name(rec, o);
                *report.unstable_by_method.entry(name).or_default() += 1;
                if rec.names.name(o.method) == "toString" {
                    random.push(o.stmt);
                }
                values.push(UNCHECKED);
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
    use crate::generate::on_fake;
    use crate::message::SeqRequest;
    use crate::pool::Executor;
    use crate::pool::fake::{CountingLane, Fake, Flavor, FreshLane};

    fn rerun(rec: &mut Recorded, reruns: usize, lane: &dyn Lane) -> RerunReport {
        let stop = AtomicBool::new(false);
        remove_flakes(rec, reruns, 9, lane, &stop, &mut |_| Ok(()), |_, _, _| {}).unwrap()
    }

    #[test]
    fn nondeterministic_values_are_dropped_and_nothing_else() {
        let mut rec = on_fake::recorded(3, 300);
        let checks_before: usize = rec.tests.all().iter().map(|t| t.check_count()).sum();
        let lane = FreshLane::new(Flavor::Reference, 2);
        let report = rerun(&mut rec, 3, &lane);
        let made = lane.starts.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!((made, report.reruns_done), (3, 3));
        let unstable: Vec<&String> = report.unstable_by_method.keys().collect();
        assert_eq!(unstable, ["t.Clock.now()"], "only the clock changes");
        let checks_after: usize = rec.tests.all().iter().map(|t| t.check_count()).sum();
        assert_eq!(
            checks_before as u64 - report.dropped_checks,
            checks_after as u64
        );
        for t in &rec.tests.all() {
            let full = t.expand(&rec.store, &rec.names, &rec.values);
            for (s, e) in full.statements.iter().zip(&full.expected_steps) {
                assert!(!(s.callee() == "t.Clock.now()" && e.is_some()));
            }
            assert!(full.check_count() > 0);
        }
        assert!(report.most_unstable(5)[0].0 == "t.Clock.now()");
    }

    /// Runs the reference fake, then gives every expected exception another message in
    /// rerun 0 and crashes the tests that throw in rerun 1.
    struct Twist(Fake, usize);

    impl Executor for Twist {
        fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
            let mut results = self.0.run(seqs, contracts)?;
            for r in &mut results {
                let SeqResult::Done { steps, .. } = r else {
                    continue;
                };
                let threw = steps.iter().any(|s| matches!(s, Observed::Threw { .. }));
                if threw && self.1 == 1 {
                    *r = SeqResult::Crash {
                        exit: "signal 9".into(),
                        stderr_tail: String::new(),
                    };
                    continue;
                }
                for s in steps.iter_mut() {
                    if let Observed::Threw { message, .. } = s {
                        *message = Some("another message".into());
                    }
                }
            }
            Ok(results)
        }
    }

    /// A lane whose rerun `i` is a [`Twist`] of its own.
    struct TwistLane;

    impl Lane for TwistLane {
        fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
            self.start_run(0)
        }

        fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
            self.start()
        }

        fn jobs(&self) -> usize {
            1
        }

        fn start_run(&self, run: usize) -> Result<Box<dyn Executor>, PoolError> {
            Ok(Box::new(Twist(Fake::reference(), run)))
        }

        fn start_run_single(&self, run: usize) -> Result<Box<dyn Executor>, PoolError> {
            self.start_run(run)
        }
    }

    #[test]
    fn an_array_is_random_when_its_digest_changed_or_went() {
        let made = [(1, 7), (3, -2), (5, 0)];
        assert_eq!(random_contents(&made, &[(1, 7), (3, 9), (5, 0)]), [3]);
        assert_eq!(random_contents(&made, &[(1, 7), (5, 0)]), [3]);
        assert!(random_contents(&made, &made).is_empty());
        assert!(random_contents(&[], &[(2, 1)]).is_empty());
    }

    #[test]
    fn weakened_messages_count_only_tests_that_are_kept() {
        let mut rec = on_fake::recorded(3, 300);
        let throwing = rec
            .tests
            .all()
            .iter()
            .filter(|t| {
                t.checks
                    .iter()
                    .any(|&(_, v)| matches!(rec.values.get(v), Observed::Threw { .. }))
            })
            .count();
        assert!(throwing > 0, "the fake records expected exceptions");
        let report = rerun(&mut rec, 2, &TwistLane);
        assert!(report.dropped_tests as usize >= throwing);
        assert_eq!(
            report.weakened_messages, 0,
            "every weakened check was in a test dropped later"
        );
    }

    /// Runs the reference fake, giving the first of two or more observations another value.
    struct FirstObserverVaries;

    impl Executor for FirstObserverVaries {
        fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
            let mut results = Fake::reference().run(seqs, contracts)?;
            for r in &mut results {
                if let SeqResult::Done { observations, .. } = r
                    && observations.len() >= 2
                {
                    observations[0] = Observed::Value {
                        class: "int".into(),
                        text: "-1".into(),
                    };
                }
            }
            Ok(results)
        }
    }

    impl Lane for FirstObserverVaries {
        fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
            Ok(Box::new(FirstObserverVaries))
        }

        fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
            self.start()
        }

        fn jobs(&self) -> usize {
            1
        }

        fn start_run(&self, _: usize) -> Result<Box<dyn Executor>, PoolError> {
            self.start()
        }
    }

    #[test]
    fn an_observer_that_varied_still_runs_unchecked_before_the_ones_it_may_change() {
        let mut rec = on_fake::recorded(3, 300);
        let before: BTreeMap<u64, KeptTest> = (rec.tests.all().into_iter())
            .filter(|t| t.observers.len() >= 2 && t.observations[0] != UNCHECKED)
            .map(|t| (t.id, t))
            .collect();
        assert!(
            !before.is_empty(),
            "the fake records tests with two observers"
        );
        let report = rerun(&mut rec, 1, &FirstObserverVaries);
        assert!(report.dropped_observations > 0);
        let mut unchecked = 0;
        for t in rec.tests.all() {
            let Some(made) = before.get(&t.id) else {
                continue;
            };
            let full = t.expand(&rec.store, &rec.names, &rec.values);
            assert_eq!(
                t.observers[0], made.observers[0],
                "test {}: still runs",
                t.id
            );
            assert_eq!(full.expected_observations[0], None, "test {}", t.id);
            assert!(full.expected_observations.last().unwrap().is_some());
            unchecked += 1;
        }
        assert!(unchecked > 0, "some of those tests are kept");
    }

    /// Two reruns with `between` in the middle: the tests each ran, and what was left.
    fn ran_with(
        between: &mut dyn FnMut(&mut Recorded) -> Result<(), SpoolError>,
    ) -> (Vec<usize>, RerunReport, usize) {
        let mut rec = on_fake::recorded(3, 300);
        let lane = CountingLane::default();
        let stop = AtomicBool::new(false);
        let report = remove_flakes(&mut rec, 2, 9, &lane, &stop, between, |_, _, _| {}).unwrap();
        let ran = lane.ran().into_iter().map(|n| n as usize).collect();
        (ran, report, rec.tests.len())
    }

    #[test]
    fn a_later_rerun_runs_only_what_the_reduction_in_between_kept() {
        let started = on_fake::recorded(3, 300).tests.len();
        let (whole, _, _) = ran_with(&mut |_| Ok(()));
        let mut shrunk_to = 0;
        let (halved, report, left) = ran_with(&mut |rec: &mut Recorded| {
            rec.tests.retain(|i, _| i % 2 == 0);
            shrunk_to = rec.tests.len();
            Ok(())
        });
        assert!(shrunk_to > 0 && shrunk_to < started);
        assert_eq!(
            (whole[0], halved[0]),
            (started, started),
            "rerun 1 runs all"
        );
        assert!(halved[1] <= shrunk_to, "rerun 2 runs only what was kept");
        assert!(halved[1] < whole[1], "{halved:?} against {whole:?}");
        let ran: Vec<u64> = halved.iter().map(|&n| n as u64).collect();
        assert_eq!(report.ran_per_rerun, ran);
        assert_eq!(report.tests_left, left);
        assert!(left <= shrunk_to);
    }
}
