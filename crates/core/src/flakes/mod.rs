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
//! checked; a `toString()` is read at the end of the test, so there the same computation is
//! the object's whole history, not only its call ([`note_random`]). Every test left with no
//! check is dropped. Two batches are in flight at a time ([`Pipeline`]), compared in order.
//! Between reruns the suite is reduced again, so a later rerun runs only the tests that can
//! still be written.

mod as_replay;
mod compare;

use crate::generate::Recorded;
use crate::generate::kept::{KeptTest, retain_observers};
use crate::generate::reduce::{Computations, computations};
use crate::generate::spool::SpoolError;
use crate::generate::store::Templates;
use crate::generate::taint;
use crate::in_order;
use crate::pool::{Executor, Lane, Pipeline, PoolError};
use crate::sequence::Statement;
use compare::compare;
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
    /// Of those, how often a step that threw before returned in a rerun, and how often one
    /// that returned threw. A call whose outcome flips one way in many tests usually depends
    /// on JVM-wide state that an earlier test in the generation worker changed (a provider
    /// replaced: every later lookup threw there and returns in a fresh JVM); flips both ways
    /// come from values that differ from run to run (an array of random length indexed).
    pub outcome_flips_by_method: BTreeMap<String, [u64; 2]>,
    /// The computations whose value changed somewhere (calls, as
    /// [`crate::generate::reduce::computations`] keys them).
    pub unstable_computations: BTreeSet<u128>,
    /// The computations whose value held other content somewhere ([`taint::spread`]'s
    /// `random` steps): an array whose digest changed, keyed by its call; an object whose
    /// `toString()` did, keyed by its whole history ([`note_random`]).
    pub random_computations: BTreeSet<u128>,
    /// The callees (`Class.method(params)`) of arrays whose content was random and whose
    /// length changed too somewhere (a DSA key's encoding: 608 or 609 bytes): the length of
    /// what they return is then unchecked in every test, not only where it changed.
    pub random_length_callees: BTreeSet<String>,
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
    /// Whether the suite keeps every test the last rerun (run as replay runs the suite) ran
    /// but those that crashed, timed out or changed their steps: then replay cuts the same
    /// segments and each test runs after the same tests as it did there, so a value that
    /// depends on them (a provider's lazily registered entries) is as the last rerun saw it.
    /// The suite must then not be reduced again.
    pub last_rerun_kept_whole: bool,
    /// Tests the last rerun left with nothing to check, kept for the tests after them.
    pub kept_without_checks: u64,
}

impl RerunReport {
    /// The `n` methods whose values changed most often, most often first.
    pub fn most_unstable(&self, n: usize) -> Vec<(String, u64)> {
        most(&self.unstable_by_method, n)
    }

    /// The `n` methods whose outcome flipped one way (threw, then returned; or the reverse)
    /// most often, at least `least` times and in nine flips of ten, most often first.
    pub fn most_flipped(&self, n: usize, least: u64) -> Vec<(String, u64)> {
        let one_way: BTreeMap<String, u64> = (self.outcome_flips_by_method.iter())
            .map(|(m, &[a, b])| (m.clone(), a.max(b), a.min(b)))
            .filter(|&(_, most, fewest)| most >= least && fewest * 9 <= most)
            .map(|(m, most, _)| (m, most))
            .collect();
        most(&one_way, n)
    }
}

/// The `n` largest counts of `by_method`, largest first (ties by name).
fn most(by_method: &BTreeMap<String, u64>, n: usize) -> Vec<(String, u64)> {
    let mut all: Vec<(String, u64)> = by_method.iter().map(|(k, v)| (k.clone(), *v)).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all.truncate(n);
    all
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
                .map(|&t| Ok(rec.tests.get(t)?.request(&rec.templates, &rec.names)))
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
            settle_dead(rec, &mut report, &mut dead, false)?;
            between(rec)?;
            dead = vec![false; rec.tests.len()];
        }
    }
    report.last_rerun_kept_whole = reruns > 0 && report.reruns_done == reruns;
    let keep_checkless = report.last_rerun_kept_whole;
    settle_dead(rec, &mut report, &mut dead, keep_checkless)?;
    let (tests, weakened) = (&rec.tests, &report.weakened);
    let mut messages = 0;
    in_order::for_each(
        0..tests.len(),
        |t| Ok::<_, SpoolError>(weakened_in(&tests.get(t)?, weakened)),
        |n| {
            messages += n;
            Ok(())
        },
    )?;
    report.weakened_messages += messages;
    report.tests_left = rec.tests.len();
    report.elapsed = began.elapsed();
    Ok(report)
}

/// Taints what reads an unstable computation in every test, and drops the tests that are
/// `dead` or, unless `keep_checkless`, left with nothing to check (counted into
/// `dropped_tests`).
fn settle_dead(
    rec: &mut Recorded,
    report: &mut RerunReport,
    dead: &mut [bool],
    keep_checkless: bool,
) -> Result<(), SpoolError> {
    let before = rec.tests.len();
    let checkless = taint_unstable_computations(rec, report)?;
    for (t, checkless) in checkless.into_iter().enumerate() {
        if checkless && keep_checkless && !dead[t] {
            report.kept_without_checks += 1;
        }
        dead[t] |= checkless && !keep_checkless;
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

/// Notes the computations of `changed` in `known`; returns the steps of `test` that make a
/// computation `known` names and are not in `changed` yet.
fn unstable_computations_in(
    test: &KeptTest,
    changed: &[u32],
    known: &mut BTreeSet<u128>,
) -> Vec<u32> {
    if changed.is_empty() && known.is_empty() {
        return Vec::new();
    }
    let keys = call_keys(test);
    for &c in changed {
        if let Some(&key) = keys.get(c as usize) {
            known.insert(key);
        }
    }
    let mut steps = steps_making(&keys, known);
    steps.retain(|s| !changed.contains(s));
    steps
}

/// Notes in `known` how the random content of `arrays` and `printed` was made
/// ([`note_random`]); returns the other steps of `test` that make content `known` names.
fn random_computations_in(
    test: &KeptTest,
    arrays: &[u32],
    printed: &[u32],
    known: &mut BTreeSet<u128>,
) -> Vec<u32> {
    if arrays.is_empty() && printed.is_empty() && known.is_empty() {
        return Vec::new();
    }
    let keys = computations(&test.flat(), &[]);
    note_random(&keys, arrays, printed, known);
    let mut steps = steps_making_random(&keys, known);
    steps.retain(|s| !arrays.contains(s) && !printed.contains(s));
    steps
}

/// An array's digest is taken as its step returns, so its random content came from that
/// call: `arrays` are noted by their call. A `toString()` is read at the end of the test,
/// after every later call that took the object (`sb.append(randomThing)`), so `printed` are
/// noted by the object's whole history ([`Computations::state`]): the same builder made the
/// same way but filled otherwise elsewhere stays checked.
fn note_random(keys: &Computations, arrays: &[u32], printed: &[u32], known: &mut BTreeSet<u128>) {
    known.extend(arrays.iter().filter_map(|&a| keys.call.get(a as usize)));
    known.extend(printed.iter().filter_map(|&p| keys.state.get(p as usize)));
}

/// The steps whose call or history `known` names ([`note_random`]; an object no later call
/// took has a history equal to its call).
fn steps_making_random(keys: &Computations, known: &BTreeSet<u128>) -> Vec<u32> {
    (0..keys.call.len())
        .filter(|&s| known.contains(&keys.call[s]) || known.contains(&keys.state[s]))
        .map(|s| s as u32)
        .collect()
}

/// The steps whose computation (`keys`, [`call_keys`]) `known` names.
fn steps_making(keys: &[u128], known: &BTreeSet<u128>) -> Vec<u32> {
    (0..keys.len() as u32)
        .filter(|&s| known.contains(&keys[s as usize]))
        .collect()
}

/// How each step of `test` was made, not what it gave: the values are what changes.
fn call_keys(test: &KeptTest) -> Vec<u128> {
    computations(&test.flat(), &[]).call
}

/// Tests settled at once: the changed ones among them are held until written back.
const SETTLE_SPAN: usize = 1 << 14;

/// After the reruns: every test that makes a computation found unstable in another test
/// loses the checks that depend on it (objects it touched cannot be told apart here: no
/// values). The tests are read and tainted on every core ([`in_order`]), and the changed
/// ones written back every [`SETTLE_SPAN`] tests; returns, per test, whether it is left with
/// nothing to check.
fn taint_unstable_computations(
    rec: &mut Recorded,
    report: &mut RerunReport,
) -> Result<Vec<bool>, SpoolError> {
    let n = rec.tests.len();
    let mut checkless = Vec::with_capacity(n);
    let mut derived = 0;
    for start in (0..n).step_by(SETTLE_SPAN) {
        let mut changed: Vec<(usize, KeptTest)> = Vec::new();
        let (tests, templates, found) = (&rec.tests, &rec.templates, &*report);
        in_order::for_each(
            start..(start + SETTLE_SPAN).min(n),
            |t| {
                let mut test = tests.get(t)?;
                let dropped = taint_in(&mut test, templates, found);
                Ok((t, test, dropped))
            },
            |(t, test, dropped)| {
                checkless.push(test.check_count() == 0);
                if let Some(n) = dropped {
                    derived += n;
                    changed.push((t, test));
                }
                Ok(())
            },
        )?;
        for (t, test) in changed {
            rec.tests.set(t, &test);
        }
    }
    report.dropped_derived += derived;
    Ok(checkless)
}

/// Taints in `test` what reads a computation the reruns found unstable in any test
/// (`found`); the checks it dropped, or `None` when nothing in it is tainted.
fn taint_in(test: &mut KeptTest, templates: &Templates, found: &RerunReport) -> Option<u64> {
    let lengths = &found.random_length_callees;
    let (calls_known, random_known) = (&found.unstable_computations, &found.random_computations);
    if calls_known.is_empty() && random_known.is_empty() && lengths.is_empty() {
        return None;
    }
    let (mut calls, random) = match calls_known.is_empty() && random_known.is_empty() {
        true => (Vec::new(), Vec::new()),
        false => {
            let keys = computations(&test.flat(), &[]);
            let random = steps_making_random(&keys, random_known);
            (steps_making(&keys.call, calls_known), random)
        }
    };
    if calls.is_empty() && random.is_empty() && lengths.is_empty() {
        return None;
    }
    let stmts = templates.statements(test.parts());
    calls.extend(lengths_of(&stmts, lengths));
    if calls.is_empty() && random.is_empty() {
        return None;
    }
    let taint = taint::spread(&stmts, &[], &calls, &random);
    Some(apply_taint(test, &taint))
}

/// The steps of `stmts` that read the length of what one of `callees` returned.
fn lengths_of(stmts: &[Statement], callees: &BTreeSet<String>) -> Vec<u32> {
    (0..stmts.len())
        .filter(|&i| {
            taint::length_read_of(&stmts[i])
                .and_then(|a| stmts.get(a))
                .is_some_and(|a| callees.contains(&a.callee()))
        })
        .map(|i| i as u32)
        .collect()
}

/// Drops the checks and observers `taint` covers and marks its steps as varying; returns
/// how many checks went.
fn apply_taint(test: &mut KeptTest, taint: &taint::Taint) -> u64 {
    let before = test.check_count();
    test.checks.retain(|&(step, _)| !taint.step[step as usize]);
    retain_observers(&mut test.observers, &mut test.observations, |v| {
        !taint.var[v as usize]
    });
    let tainted = (0..taint.step.len() as u32).filter(|&s| taint.step[s as usize]);
    test.varies.extend(tainted);
    test.varies.sort_unstable();
    test.varies.dedup();
    (before - test.check_count()) as u64
}

#[cfg(test)]
mod tests;
