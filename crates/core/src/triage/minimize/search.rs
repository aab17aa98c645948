//! One group's search: the sequence so far, the candidates of its next round (chunks to
//! remove, calls to turn into literals) and what their runs decide.

use super::literals;
use crate::compare::{Divergence, Kind, Site, compare};
use crate::sequence::{Observed, SeqResult, Statement};
use crate::suite::Test;

/// Budget of candidate runs per group for timeouts and crashes, which cost a worker each.
pub(super) const SLOW_KIND_BUDGET: u32 = 8;

/// The search state of one group.
pub(super) struct Search {
    pub(super) original: Test,
    /// The divergence `original` showed in the replay.
    pub(super) first: Divergence,
    callee: String,
    kind: Kind,
    /// Statements (original indices) still in the sequence.
    keep: Vec<bool>,
    /// Statements that must stay: the diverging one and what it reads.
    required: Vec<bool>,
    /// The diverging statement (original index).
    anchor: Option<usize>,
    /// What the reference gave at each original statement in the best run so far.
    values: Vec<Option<Observed>>,
    /// Calls whose literal alone lost the difference: not tried again.
    refused: Vec<usize>,
    phase: Phase,
    /// The original observer index to keep (for an observer divergence).
    observer: Option<usize>,
    n: usize,
    pub(super) runs: u32,
    pub(super) budget: u32,
    pub(super) best: Option<(Test, Divergence)>,
    /// What the reference gave at the diverging site when the suite was recorded.
    recorded: Option<Observed>,
    /// Whether the example, run now on both implementations, still differs, with the
    /// reference giving what it gave when recorded.
    pub(super) reproduced: Option<bool>,
    done: bool,
    /// The last round was cut short by the budget.
    truncated: bool,
}

/// What the search tries next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Removing chunks of statements (ddmin).
    Remove,
    /// Every call whose value can be a literal, at once.
    LiteralsAll,
    /// Each such call alone.
    LiteralsEach,
}

/// What one candidate changes in the search's sequence: the original statements it keeps,
/// and those it turns into literals of the reference's values.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Plan {
    keep: Vec<bool>,
    literals: Vec<usize>,
}

/// One candidate sequence: its plan, the test to run, and which of its steps are checked
/// (those the original test checked).
pub(super) struct Candidate {
    pub(super) plan: Plan,
    pub(super) test: Test,
    pub(super) checked: Vec<bool>,
}

/// A candidate that showed the difference: the test with the reference's values as
/// expectations, the divergence, and every step's outcome on the reference.
pub(super) struct Hit {
    test: Test,
    pub(super) divergence: Divergence,
    steps: Vec<Observed>,
}

pub(super) type Found = Option<Hit>;
impl Search {
    pub(super) fn new(original: &Test, d: &Divergence, budget: u32) -> Search {
        let n = original.statements.len();
        let (anchor, observer) = match d.site {
            Site::Step(i) => (Some(i), None),
            Site::Observer(j) => (original.observers.get(j).map(|o| o.stmt), Some(j)),
            Site::Whole => (last_call(&original.statements), None),
        };
        let slow = matches!(d.kind, Kind::Timeout | Kind::Crash);
        Search {
            original: original.clone(),
            first: d.clone(),
            callee: d.callee.clone(),
            kind: d.kind,
            keep: vec![true; n],
            required: closure(&original.statements, anchor),
            anchor,
            values: vec![None; n],
            refused: Vec::new(),
            phase: Phase::Remove,
            observer,
            n: 2,
            runs: 0,
            budget: if slow {
                budget.min(SLOW_KIND_BUDGET)
            } else {
                budget
            },
            best: None,
            recorded: d.expected.clone(),
            reproduced: None,
            done: false,
            truncated: false,
        }
    }

    /// Whether the difference is a timeout or a crash, whose runs cost a worker each.
    pub(super) fn slow(&self) -> bool {
        matches!(self.kind, Kind::Timeout | Kind::Crash)
    }

    /// The search with `runs` already spent on its group (by examples that did not differ
    /// alone).
    pub(super) fn after(mut self, runs: u32) -> Search {
        self.runs = runs;
        self
    }

    /// The candidates of the next round, within the budget.
    pub(super) fn candidates(&mut self) -> Vec<Plan> {
        if self.done || self.runs >= self.budget {
            return Vec::new();
        }
        if self.reproduced.is_none() {
            return vec![self.plan(self.keep.clone())];
        }
        let left = (self.budget - self.runs) as usize;
        if self.phase != Phase::Remove {
            let calls = self.literal_calls();
            return match self.phase {
                Phase::LiteralsAll => vec![self.literals(calls)],
                _ => (calls.iter().take(left))
                    .map(|&i| self.literals(vec![i]))
                    .collect(),
            };
        }
        let units = self.units();
        if units.is_empty() {
            self.removal_done();
            return self.candidates();
        }
        let n = self.n.min(units.len());
        let size = units.len().div_ceil(n);
        self.truncated = units.len().div_ceil(size) > left;
        units
            .chunks(size)
            .take(left)
            .map(|chunk| self.plan(remove(&self.original.statements, &self.keep, chunk)))
            .collect()
    }

    fn plan(&self, keep: Vec<bool>) -> Plan {
        Plan {
            keep,
            literals: Vec::new(),
        }
    }

    fn literals(&self, literals: Vec<usize>) -> Plan {
        Plan {
            keep: self.keep.clone(),
            literals,
        }
    }

    /// Kept calls whose value a later kept statement reads and the reference gave as a
    /// primitive or String ([`literals::eligible`]).
    fn literal_calls(&self) -> Vec<usize> {
        let mut calls = literals::eligible(&self.original, &self.keep, self.anchor, &self.values);
        calls.retain(|i| !self.refused.contains(i));
        calls
    }

    /// No chunk can go: try literals next, or stop.
    fn removal_done(&mut self) {
        if self.truncated || self.literal_calls().is_empty() {
            self.done = true;
        } else {
            self.phase = Phase::LiteralsAll;
        }
    }

    /// Kept statements that may be removed.
    fn units(&self) -> Vec<usize> {
        (0..self.keep.len())
            .filter(|&i| self.keep[i] && !self.required[i])
            .collect()
    }

    /// Takes a round's results: the first candidate that reproduced wins.
    pub(super) fn feed(&mut self, results: Vec<(Plan, Found)>) {
        self.runs += results.len() as u32;
        if self.phase == Phase::LiteralsEach {
            let lost = results.iter().take_while(|(_, f)| f.is_none());
            self.refused
                .extend(lost.flat_map(|(p, _)| p.literals.iter().copied()));
        }
        let winner = results.into_iter().find_map(|(p, f)| f.map(|f| (p, f)));
        if self.reproduced.is_none() {
            // The reference must give what it gave when recorded: a recorded value it no
            // longer gives (a comparison with the clock, state left by an earlier test)
            // is no oracle, even when the two sides now differ another way.
            let winner = winner.filter(|(_, h)| {
                same_outcome(self.recorded.as_ref(), h.divergence.expected.as_ref())
            });
            self.reproduced = Some(winner.is_some());
            self.done = winner.is_none();
            if let Some((plan, hit)) = winner {
                self.adopt(plan, hit);
            }
            return;
        }
        let units = self.units().len();
        match (winner, self.phase) {
            (Some((plan, hit)), _) => {
                let literals = !plan.literals.is_empty();
                self.adopt(plan, hit);
                self.n = if literals {
                    2
                } else {
                    (self.n.saturating_sub(1)).max(2)
                };
                self.phase = Phase::Remove;
            }
            (None, Phase::LiteralsAll) => self.phase = Phase::LiteralsEach,
            (None, Phase::LiteralsEach) => self.done = true,
            (None, Phase::Remove) if self.n >= units || self.truncated => self.removal_done(),
            (None, Phase::Remove) => self.n = (self.n * 2).min(units),
        }
    }

    /// Makes a winning candidate the search's sequence.
    fn adopt(&mut self, plan: Plan, hit: Hit) {
        let kept = (0..plan.keep.len()).filter(|&i| plan.keep[i]);
        self.values = vec![None; plan.keep.len()];
        for (i, step) in kept.zip(hit.steps) {
            self.values[i] = Some(step);
        }
        if !plan.literals.is_empty() {
            literals::apply(&mut self.original, &plan.literals, &self.values);
            self.required = closure(&self.original.statements, self.anchor);
        }
        self.keep = plan.keep;
        self.best = Some((hit.test, hit.divergence));
    }

    /// The candidate for a plan (expectations are filled in from the REF run).
    pub(super) fn build(&self, plan: Plan) -> Candidate {
        let mut source = std::borrow::Cow::Borrowed(&self.original);
        if !plan.literals.is_empty() {
            literals::apply(source.to_mut(), &plan.literals, &self.values);
        }
        let keep = &plan.keep;
        let mut index = vec![usize::MAX; keep.len()];
        let (mut statements, mut checked, mut varies) = (Vec::new(), Vec::new(), Vec::new());
        for (i, s) in source.statements.iter().enumerate() {
            if keep[i] {
                index[i] = statements.len();
                if source.varies_at(i) {
                    varies.push(index[i]);
                }
                statements.push(s.remap(|j| index[j]));
                checked.push(source.expected_steps.get(i).is_none_or(Option::is_some));
            }
        }
        let observers = self
            .observer
            .and_then(|j| source.observers.get(j))
            .map(|o| {
                let mut o = o.clone();
                o.stmt = index[o.stmt];
                vec![o]
            })
            .unwrap_or_default();
        let test = Test {
            id: source.id,
            statements,
            observers,
            expected_steps: Vec::new(),
            expected_observations: Vec::new(),
            varies,
        };
        Candidate {
            plan,
            test,
            checked,
        }
    }

    /// Whether the candidate shows the same kind of difference at the same callee; if so,
    /// the test with the reference's values as expectations and the divergence.
    pub(super) fn reproduces(
        &self,
        mut test: Test,
        checked: &[bool],
        r: &SeqResult,
        t: &SeqResult,
    ) -> Found {
        let SeqResult::Done {
            steps,
            observations,
            ..
        } = r
        else {
            return None;
        };
        test.expected_steps = steps
            .iter()
            .enumerate()
            .map(|(i, o)| (checked.get(i) != Some(&false) || o.is_abnormal()).then(|| o.clone()))
            .collect();
        // An observer that varied on the reference stays unchecked.
        let unchecked = |j: usize| matches!(test.expected_observations.get(j), Some(None));
        test.expected_observations = (observations.iter().enumerate())
            .map(|(j, o)| (!unchecked(j)).then(|| o.clone()))
            .collect();
        let verdict = compare(&test, t);
        let d = verdict.divergence()?;
        (d.callee == self.callee && d.kind == self.kind).then(|| Hit {
            test: test.clone(),
            divergence: d.clone(),
            steps: steps.clone(),
        })
    }
}

/// The keep mask without `chunk` and every statement that reads a removed one.
fn remove(statements: &[Statement], keep: &[bool], chunk: &[usize]) -> Vec<bool> {
    let mut out = keep.to_vec();
    for &i in chunk {
        out[i] = false;
    }
    for (i, s) in statements.iter().enumerate() {
        if out[i] && s.inputs().iter().any(|&j| !out[j]) {
            out[i] = false;
        }
    }
    out
}

/// `anchor` and every statement it reads, transitively.
fn closure(statements: &[Statement], anchor: Option<usize>) -> Vec<bool> {
    let mut required = vec![false; statements.len()];
    let Some(a) = anchor.filter(|&a| a < statements.len()) else {
        return required;
    };
    required[a] = true;
    for i in (0..=a).rev() {
        if required[i] {
            for j in statements[i].inputs() {
                required[j] = true;
            }
        }
    }
    required
}

fn last_call(statements: &[Statement]) -> Option<usize> {
    statements
        .iter()
        .rposition(|s| matches!(s, Statement::New { .. } | Statement::Call { .. }))
}

/// Whether the reference's outcome now is the one recorded: equal values, or the same
/// exception class (a message may name what differs from run to run); `true` when nothing
/// was recorded there.
pub(super) fn same_outcome(recorded: Option<&Observed>, now: Option<&Observed>) -> bool {
    match (recorded, now) {
        (None, _) => true,
        (Some(Observed::Threw { class: a, .. }), Some(Observed::Threw { class: b, .. })) => a == b,
        (Some(a), Some(b)) => a == b,
        (Some(_), None) => false,
    }
}
