//! Which tests a later rerun still needs: after the first rerun has run every test, a test
//! can still show something only if it calls or observes a method whose value an earlier
//! rerun already saw change (somewhere in the suite), or if it checks a method so few tests
//! check that one run of them is no evidence that its values hold. The rest ran once more
//! on a fresh JVM with nothing changing, among thousands of other tests of the same methods.

use crate::generate::Recorded;
use crate::generate::spool::SpoolError;
use crate::generate::type_names::NameId;
use std::collections::HashMap;

/// A method checked by fewer tests than this is rare: one rerun of its few tests is no
/// evidence that its values hold, so a later rerun runs them again.
pub const RARE_BELOW: u32 = 8;

/// Every callee of the suite (a statement's `Class.method(params)`, an observer's
/// `Class.method()`, as `RerunReport::unstable_by_method` names them) by a small number.
#[derive(Default)]
struct Callees {
    ids: HashMap<String, u32>,
    of_template: HashMap<u32, u32>,
    of_observer: HashMap<(NameId, NameId), u32>,
}

impl Callees {
    fn id(&mut self, name: String) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(name).or_insert(next)
    }

    fn template(&mut self, rec: &Recorded, tmpl: u32) -> u32 {
        if let Some(&id) = self.of_template.get(&tmpl) {
            return id;
        }
        let id = self.id(rec.store.templates.get(tmpl).stmt.callee());
        self.of_template.insert(tmpl, id);
        id
    }

    fn observer(&mut self, rec: &Recorded, class: NameId, method: NameId) -> u32 {
        if let Some(&id) = self.of_observer.get(&(class, method)) {
            return id;
        }
        let name = format!("{}.{}()", rec.names.name(class), rec.names.name(method));
        let id = self.id(name);
        self.of_observer.insert((class, method), id);
        id
    }
}

/// The callees test `t` touches (every statement and observer), and those it checks.
struct Touched {
    all: Vec<u32>,
    checked: Vec<u32>,
}

fn touched(rec: &Recorded, t: usize, callees: &mut Callees) -> Result<Touched, SpoolError> {
    let test = rec.tests.get(t)?;
    let flat = rec.store.flatten(&rec.store.node(test.seq).parts);
    let steps: Vec<u32> = flat
        .iter()
        .map(|&(tmpl, _)| callees.template(rec, tmpl))
        .collect();
    let observed: Vec<u32> = test
        .observers
        .iter()
        .map(|o| callees.observer(rec, o.class, o.method))
        .collect();
    let mut checked: Vec<u32> = test
        .checks
        .iter()
        .map(|&(s, _)| steps[s as usize])
        .collect();
    checked.extend(&observed);
    checked.sort_unstable();
    checked.dedup();
    let mut all = steps;
    all.extend(observed);
    Ok(Touched { all, checked })
}

/// How many live tests check each method (by name): counted once the first rerun has run
/// every test, the evidence that a method's values hold. Later reruns judge rarity by it,
/// not by the suite reduction left them, which has fewer tests of every method.
pub(crate) fn checked_by(
    rec: &Recorded,
    dead: &[bool],
) -> Result<HashMap<String, u32>, SpoolError> {
    let mut callees = Callees::default();
    let mut checkers: Vec<u32> = Vec::new();
    for t in (0..rec.tests.len()).filter(|&t| !dead[t]) {
        for c in touched(rec, t, &mut callees)?.checked {
            if checkers.len() <= c as usize {
                checkers.resize(c as usize + 1, 0);
            }
            checkers[c as usize] += 1;
        }
    }
    let count = |id: u32| checkers.get(id as usize).copied().unwrap_or(0);
    Ok(callees
        .ids
        .into_iter()
        .map(|(name, id)| (name, count(id)))
        .collect())
}

/// The tests a rerun after the first still runs, in suite order: the live ones that touch a
/// method `doubtful` names (one whose value or exception message an earlier rerun saw
/// change) or check a method that fewer than [`RARE_BELOW`] tests checked in the first
/// rerun (`evidence`, from [`checked_by`]).
pub(crate) fn still_in_doubt(
    rec: &Recorded,
    dead: &[bool],
    doubtful: impl Fn(&str) -> bool,
    evidence: &HashMap<String, u32>,
) -> Result<Vec<usize>, SpoolError> {
    let mut callees = Callees::default();
    let live = (0..rec.tests.len()).filter(|&t| !dead[t]);
    for t in live.clone() {
        touched(rec, t, &mut callees)?;
    }
    let (mut unstable, mut rare) = (
        vec![false; callees.ids.len()],
        vec![false; callees.ids.len()],
    );
    for (name, &id) in &callees.ids {
        unstable[id as usize] = doubtful(name);
        rare[id as usize] = evidence.get(name).copied().unwrap_or(0) < RARE_BELOW;
    }
    let mut chosen = Vec::new();
    for t in live {
        let touched = touched(rec, t, &mut callees)?;
        let is_rare = touched.checked.iter().any(|&c| rare[c as usize]);
        if is_rare || touched.all.iter().any(|&c| unstable[c as usize]) {
            chosen.push(t);
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flakes::remove_flakes;
    use crate::generate::on_fake;
    use crate::message::SeqRequest;
    use crate::pool::fake::Fake;
    use crate::pool::{Executor, Lane, PoolError};
    use crate::sequence::SeqResult;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};

    /// A lane whose every run is a fresh reference fake, kept to count what each ran.
    #[derive(Default)]
    struct Counting(Mutex<Vec<Arc<Fake>>>);

    struct Counted(Arc<Fake>);

    impl Executor for Counted {
        fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
            self.0.run(seqs, contracts)
        }
    }

    impl Lane for Counting {
        fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
            let fake = Arc::new(Fake::reference());
            self.0.lock().unwrap().push(fake.clone());
            Ok(Box::new(Counted(fake)))
        }

        fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
            self.start()
        }

        fn jobs(&self) -> usize {
            1
        }
    }

    fn calls_clock(rec: &Recorded, t: usize) -> bool {
        let test = rec.tests.get(t).unwrap();
        let stmts = rec.store.statements(&rec.store.node(test.seq).parts);
        stmts.iter().any(|s| s.callee() == "t.Clock.now()")
    }

    #[test]
    fn a_later_rerun_runs_only_the_tests_still_in_doubt() {
        let mut rec = on_fake::recorded(3, 300);
        let clock = (0..rec.tests.len())
            .filter(|&t| calls_clock(&rec, t))
            .count();
        let (made, lane) = (rec.tests.len(), Counting::default());
        let stop = AtomicBool::new(false);
        let report =
            remove_flakes(&mut rec, 2, 9, &lane, &stop, &mut |_| Ok(()), |_, _, _| {}).unwrap();
        let ran: Vec<u64> = (lane.0.lock().unwrap().iter())
            .map(|f| f.sequences.load(Ordering::Relaxed))
            .collect();
        assert_eq!(ran[0], made as u64, "the first rerun runs every test");
        assert_eq!(report.ran_per_rerun, ran);
        assert!(ran[1] < ran[0] / 2, "the second runs fewer: {ran:?}");
        // Every test still written that calls the clock was in doubt, so it ran again.
        let clock_left = (0..rec.tests.len())
            .filter(|&t| calls_clock(&rec, t))
            .count();
        assert!(clock > 0, "the fake calls the clock");
        assert!(
            ran[1] >= clock_left as u64,
            "{clock_left} left call the clock"
        );
    }

    #[test]
    fn in_doubt_are_the_tests_of_unstable_methods_and_of_rarely_checked_ones() {
        let rec = on_fake::recorded(3, 300);
        let dead = vec![false; rec.tests.len()];
        let evidence = checked_by(&rec, &dead).unwrap();
        let unstable = |m: &str| m == "t.Clock.now()";
        let chosen = still_in_doubt(&rec, &dead, unstable, &evidence).unwrap();
        let clock: Vec<usize> = (0..rec.tests.len())
            .filter(|&t| calls_clock(&rec, t))
            .collect();
        assert!(!clock.is_empty() && clock.iter().all(|t| chosen.contains(t)));
        assert!(chosen.len() < rec.tests.len());
        let stable = still_in_doubt(&rec, &dead, |_| false, &evidence).unwrap();
        assert!(
            stable.len() < chosen.len(),
            "no unstable method, fewer in doubt"
        );
        // In a suite of a few tests every method is rarely checked: all are in doubt.
        let mut few = on_fake::recorded(3, 300);
        few.tests.truncate(RARE_BELOW as usize - 1);
        let none_dead = vec![false; few.tests.len()];
        let few_evidence = checked_by(&few, &none_dead).unwrap();
        let all = still_in_doubt(&few, &none_dead, |_| false, &few_evidence).unwrap();
        assert_eq!(all, (0..few.tests.len()).collect::<Vec<_>>());
        // Rarity is judged by the evidence of the first rerun, not by how many tests of a
        // method are left: the same few tests, judged by the whole suite's counts, are not
        // all in doubt.
        let judged = still_in_doubt(&few, &none_dead, |_| false, &evidence).unwrap();
        assert!(judged.len() < all.len(), "{judged:?}");
        // A dead test is never run again.
        let mut dead = dead;
        dead[clock[0]] = true;
        let chosen = still_in_doubt(&rec, &dead, unstable, &evidence).unwrap();
        assert!(!chosen.contains(&clock[0]));
    }
}
