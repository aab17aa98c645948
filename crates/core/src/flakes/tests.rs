//! Flake removal on fake references: what changes is dropped, what reads it too, and
//! which tests each rerun runs.

use super::*;
use crate::generate::on_fake;
use crate::message::SeqRequest;
use crate::pool::Executor;
use crate::pool::fake::{CountingLane, Fake, Flavor, FreshLane};
use crate::sequence::{Observed, SeqResult};

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
        let full = t.expand(&rec.templates, &rec.names);
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

/// A lane whose rerun `i` runs on the executor `make(i)` builds: a fake whose runs differ.
struct PerRun(fn(usize) -> Box<dyn Executor>);

impl Lane for PerRun {
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
        Ok((self.0)(run))
    }

    fn start_run_single(&self, run: usize) -> Result<Box<dyn Executor>, PoolError> {
        self.start_run(run)
    }
}

/// A lane whose rerun `i` is a [`Twist`] of its own.
const TWIST_LANE: PerRun = PerRun(|run| Box::new(Twist(Fake::reference(), run)));

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
                .any(|(_, v)| matches!(v, Observed::Threw { .. }))
        })
        .count();
    assert!(throwing > 0, "the fake records expected exceptions");
    let report = rerun(&mut rec, 2, &TWIST_LANE);
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
        .filter(|t| t.observers.len() >= 2 && t.observations[0].is_some())
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
        let full = t.expand(&rec.templates, &rec.names);
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

/// Runs the reference fake; in rerun 1 (the last of two) every value a step gives reads
/// otherwise.
struct LastRerunDiffers(usize);

impl Executor for LastRerunDiffers {
    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        let mut results = Fake::reference().run(seqs, contracts)?;
        for r in &mut results {
            if let (SeqResult::Done { steps, .. }, 1) = (r, self.0) {
                for step in steps.iter_mut() {
                    if let Observed::Value { text, .. } = step {
                        text.push('!');
                    }
                }
            }
        }
        Ok(results)
    }
}

#[test]
fn the_suite_keeps_every_test_the_last_rerun_ran_even_those_left_without_checks() {
    let mut rec = on_fake::recorded(3, 300);
    let mut ran_last = 0;
    let mut between = |rec: &mut Recorded| {
        ran_last = rec.tests.len();
        Ok(())
    };
    let stop = AtomicBool::new(false);
    let lane = PerRun(|run| Box::new(LastRerunDiffers(run)));
    let report = remove_flakes(&mut rec, 2, 9, &lane, &stop, &mut between, |_, _, _| {}).unwrap();
    assert!(report.last_rerun_kept_whole);
    assert!(report.kept_without_checks > 0, "{report:?}");
    assert_eq!(
        rec.tests.len(),
        ran_last,
        "replay runs the tests the last rerun ran, so it cuts the same segments"
    );
    let checkless = rec
        .tests
        .all()
        .iter()
        .filter(|t| t.check_count() == 0)
        .count();
    assert_eq!(checkless as u64, report.kept_without_checks);
}

/// Template ids of the hand-made computations below.
const BUILDER: u32 = 1;
const DICE: u32 = 2;
const APPEND: u32 = 3;
const TEXT: u32 = 4;
const KEY: u32 = 5;
const PARSE: u32 = 6;

fn random_in(flat: &[(u32, Vec<u32>)], known: &BTreeSet<u128>) -> Vec<u32> {
    steps_making_random(&computations(flat, &[]), known)
}

#[test]
fn a_printed_object_is_random_only_where_it_has_the_same_history() {
    // b = new Builder(); d = new Dice(); b.append(d): b's and d's toString() changed.
    let with_dice = [(BUILDER, vec![]), (DICE, vec![]), (APPEND, vec![0, 1])];
    let mut known = BTreeSet::new();
    note_random(&computations(&with_dice, &[]), &[], &[0, 1], &mut known);
    assert_eq!(random_in(&with_dice, &known), [0, 1]);
    // The same builder filled with a text elsewhere, or never filled, is not random.
    let with_text = [(BUILDER, vec![]), (TEXT, vec![]), (APPEND, vec![0, 1])];
    assert!(random_in(&with_text, &known).is_empty());
    assert!(random_in(&[(BUILDER, vec![])], &known).is_empty());
    // Nor is a dice with another history: which call made its text random is not known
    // (its own reruns judge it).
    assert!(random_in(&[(TEXT, vec![]), (DICE, vec![])], &known).is_empty());
    // One that no later call took is, wherever it is made.
    let mut known = BTreeSet::new();
    note_random(&computations(&[(DICE, vec![])], &[]), &[], &[0], &mut known);
    assert_eq!(random_in(&[(TEXT, vec![]), (DICE, vec![])], &known), [1]);
}

#[test]
fn a_random_array_is_random_wherever_it_is_made() {
    let mut known = BTreeSet::new();
    note_random(&computations(&[(KEY, vec![])], &[]), &[0], &[], &mut known);
    let parsed = [(KEY, vec![]), (PARSE, vec![0])];
    assert_eq!(random_in(&parsed, &known), [0]);
}

#[test]
fn only_calls_whose_outcome_flips_one_way_in_many_tests_are_named() {
    let mut r = RerunReport::default();
    let flips = [
        ("lib.Zones.forId(java.lang.String)", [40, 1]),
        (
            "java.lang.reflect.Array.get(java.lang.Object,int)",
            [60, 61],
        ),
        ("lib.Few.call()", [19, 0]),
        ("lib.Reverse.call()", [0, 25]),
    ];
    for (callee, counts) in flips {
        r.outcome_flips_by_method.insert(callee.to_string(), counts);
    }
    let named = r.most_flipped(3, 20);
    let expected = [
        ("lib.Zones.forId(java.lang.String)", 40),
        ("lib.Reverse.call()", 25),
    ];
    assert_eq!(named, expected.map(|(m, n)| (m.to_string(), n)));
}
