//! Delta debugging of one example test per group: the shortest sequence that still shows
//! the same kind of difference at the same callee between the reference and the target.
//!
//! Removing a statement removes every statement that (transitively) reads its value; the
//! diverging statement and what it reads are never removed. Each round splits the removable
//! statements into `n` chunks and tries removing each (ddmin's complements): the first
//! candidate that still reproduces wins and `n` shrinks, else `n` doubles until single
//! statements were tried. Candidates of every group in a round run as one batch on both
//! implementations, so the work is parallel and batched; each group has a budget of runs.
//! A candidate that reproduces runs once more on the reference and counts only if the
//! reference gives the same outcome again ([`confirm`]). When no statement can go, calls
//! whose primitive or String value a later statement reads are tried as literals of the
//! value the reference gave ([`literals`]): the chain that computed a number then goes too.

use super::{Examples, Group, Minimized};
use crate::compare::Divergence;
use crate::message::SeqRequest;
use crate::pool::Executor;
use crate::pool::PoolError;
use crate::sequence::SeqResult;
use crate::suite::Test;

mod literals;
mod search;
#[cfg(test)]
mod tests;

use search::{Candidate, Found, Plan, Search, same_outcome};

/// Minimizes every group's example in place (`group.minimized`), running candidates on both
/// runners; at most `budget` candidates per group. The first candidate is the example itself
/// (with only the diverging observer): if the reference and the target agree on it now, the
/// recorded value depended on when or where it was recorded, and the group says so
/// (`reproduced: Some(false)`, no minimized sequence). A group whose example is not in
/// `examples` is left as it is.
pub(crate) fn minimize_all(
    groups: &mut [Group],
    examples: &Examples,
    reference: &dyn Executor,
    target: &dyn Executor,
    budget: u32,
) -> Result<(), PoolError> {
    let todo: Vec<&mut Group> = groups
        .iter_mut()
        .filter(|g| examples.contains_key(&g.example))
        .collect();
    let mut searches: Vec<Search> = todo
        .iter()
        .map(|g| Search::new(examples[&g.example], &g.divergence, budget))
        .collect();
    // The other tests each group tries side by side should its example not differ alone.
    let mut untried: Vec<Vec<(&Test, &Divergence)>> = todo
        .iter()
        .map(|g| {
            let present = g.alternates.iter().rev();
            present
                .filter_map(|(id, d)| Some((*examples.get(id)?, d)))
                .collect()
        })
        .collect();
    loop {
        let mut owners = Vec::new();
        let mut batch: Vec<Candidate> = Vec::new();
        for (gi, s) in searches.iter_mut().enumerate() {
            for plan in s.candidates() {
                owners.push(gi);
                batch.push(s.build(plan));
            }
        }
        if batch.is_empty() {
            break;
        }
        let requests: Vec<SeqRequest> = batch.iter().map(|c| c.test.request()).collect();
        let (r, t) = run_both(reference, target, &requests)?;
        let mut found: Vec<Found> = (owners.iter().zip(&batch).zip(&r).zip(&t))
            .map(|(((&gi, c), r), t)| searches[gi].reproduces(c.test.clone(), &c.checked, r, t))
            .collect();
        confirm(
            reference, &searches, &owners, &batch, &requests, &t, &mut found,
        )?;
        let mut verdicts: Vec<Vec<(Plan, Found)>> = searches.iter().map(|_| Vec::new()).collect();
        for ((gi, c), found) in owners.into_iter().zip(batch).zip(found) {
            verdicts[gi].push((c.plan, found));
        }
        for ((s, v), left) in searches.iter_mut().zip(verdicts).zip(&mut untried) {
            if !v.is_empty() {
                s.feed(v);
            }
            if s.reproduced == Some(false)
                && s.runs < s.budget
                && let Some((test, d)) = left.pop()
            {
                *s = Search::new(test, d, budget).after(s.runs);
            }
        }
    }
    for (g, s) in todo.into_iter().zip(searches) {
        if s.reproduced == Some(true) && s.original.id != g.example {
            g.example = s.original.id;
            g.divergence = s.first.clone();
        }
        g.reproduced = s.reproduced;
        g.minimized = s.best.map(|(test, divergence)| Minimized {
            original_len: s.original.statements.len(),
            test,
            divergence,
            runs: s.runs,
        });
    }
    Ok(())
}

/// Runs every candidate that reproduced once more on the reference and keeps it only if the
/// reference gives the same outcome at the diverging site again. A reduction can take away
/// what made the reference's value determined (a generator's `setSeed`, leaving one seeded
/// from the clock): both sides then give random values that differ, at the same callee, and
/// the reproducer would show a difference the release did not make. Timeouts and crashes
/// are not run again (each costs a worker).
fn confirm(
    reference: &dyn Executor,
    searches: &[Search],
    owners: &[usize],
    batch: &[Candidate],
    requests: &[SeqRequest],
    target_results: &[SeqResult],
    found: &mut [Found],
) -> Result<(), PoolError> {
    let again: Vec<usize> = (0..found.len())
        .filter(|&i| found[i].is_some() && !searches[owners[i]].slow())
        .collect();
    if again.is_empty() {
        return Ok(());
    }
    let requests: Vec<SeqRequest> = again.iter().map(|&i| requests[i].clone()).collect();
    let second = reference.run(&requests, false)?;
    for (&i, r) in again.iter().zip(&second) {
        let (c, s) = (&batch[i], &searches[owners[i]]);
        let repeated = s.reproduces(c.test.clone(), &c.checked, r, &target_results[i]);
        let first = found[i]
            .as_ref()
            .and_then(|h| h.divergence.expected.as_ref());
        let same = repeated
            .as_ref()
            .is_some_and(|h| same_outcome(first, h.divergence.expected.as_ref()));
        if !same {
            found[i] = None;
        }
    }
    Ok(())
}

fn run_both(
    reference: &dyn Executor,
    target: &dyn Executor,
    requests: &[SeqRequest],
) -> Result<(Vec<SeqResult>, Vec<SeqResult>), PoolError> {
    let (r, t) = std::thread::scope(|scope| {
        let r = scope.spawn(|| reference.run(requests, false));
        let t = target.run(requests, false);
        (r.join(), t)
    });
    let r = r.map_err(|_| PoolError::Threads("the reference run panicked".into()))?;
    Ok((r?, t?))
}
