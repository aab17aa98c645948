//! Batches in flight two at a time. A batch waits for its slowest sequence, and while that
//! one runs the other workers have nothing to do; with the next batch already submitted they
//! start on it at once. The caller still takes results back in submission order and decides
//! what to submit next from what it has taken so far, so a run stays reproducible: batch
//! `k + 2` is drafted from the results of batches up to `k`, whatever the timing.
//!
//! Used by generation's rounds and flake removal's reruns, on any [`Executor`].

use super::{Executor, PoolError};
use crate::message::SeqRequest;
use crate::sequence::SeqResult;
use std::collections::VecDeque;
use std::thread::{Scope, ScopedJoinHandle};

/// Batches submitted and not yet taken back, at most.
pub(crate) const DEPTH: usize = 2;

type Answer = (Vec<SeqRequest>, Result<Vec<SeqResult>, PoolError>);

/// A batch taken back: the caller's note, the requests and their results (in request order).
pub(crate) type Taken<T> = (T, Vec<SeqRequest>, Result<Vec<SeqResult>, PoolError>);

/// Batches running on one executor, each with the caller's note `T` about it.
pub(crate) struct Pipeline<'scope, 'env, T> {
    scope: &'scope Scope<'scope, 'env>,
    exec: &'env dyn Executor,
    contracts: bool,
    flight: VecDeque<(T, ScopedJoinHandle<'scope, Answer>)>,
}

impl<'scope, 'env, T> Pipeline<'scope, 'env, T> {
    /// A pipeline whose batches run on `exec` in threads of `scope`.
    pub(crate) fn new(
        scope: &'scope Scope<'scope, 'env>,
        exec: &'env dyn Executor,
        contracts: bool,
    ) -> Self {
        Pipeline {
            scope,
            exec,
            contracts,
            flight: VecDeque::new(),
        }
    }

    /// Whether no batch is in flight.
    pub(crate) fn is_empty(&self) -> bool {
        self.flight.is_empty()
    }

    /// Whether another batch may be submitted before the oldest is taken.
    pub(crate) fn has_room(&self) -> bool {
        self.flight.len() < DEPTH
    }

    /// Starts running `reqs`.
    pub(crate) fn submit(&mut self, note: T, reqs: Vec<SeqRequest>) {
        let (exec, contracts) = (self.exec, self.contracts);
        let handle = self.scope.spawn(move || {
            let results = exec.run(&reqs, contracts);
            (reqs, results)
        });
        self.flight.push_back((note, handle));
    }

    /// Whether the oldest batch is back, so [`Pipeline::take`] would not wait.
    pub(crate) fn is_ready(&self) -> bool {
        self.flight.front().is_some_and(|(_, h)| h.is_finished())
    }

    /// Waits for the oldest batch: its note, requests and results (in request order).
    pub(crate) fn take(&mut self) -> Option<Taken<T>> {
        let (note, handle) = self.flight.pop_front()?;
        let (reqs, results) = handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Some((note, reqs, results))
    }

    /// Waits for every batch still in flight and drops its results (the executor's deadline
    /// or stop flag ends them early where one is set).
    pub(crate) fn drain(&mut self) {
        while self.take().is_some() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::fake::Fake;
    use crate::sequence::Statement;

    fn batch(n: i64) -> Vec<SeqRequest> {
        (0..3)
            .map(|i| SeqRequest {
                statements: vec![Statement::Literal {
                    ty: "int".into(),
                    value: (n * 10 + i).to_string().into(),
                }],
                observers: vec![],
            })
            .collect()
    }

    #[test]
    fn batches_come_back_in_submission_order_with_their_notes() {
        let fake = Fake::reference();
        std::thread::scope(|s| {
            let mut p = Pipeline::new(s, &fake, false);
            let mut taken = Vec::new();
            for n in 0..5 {
                if !p.has_room() {
                    taken.push(p.take().unwrap());
                }
                p.submit(n, batch(n));
            }
            while let Some(t) = p.take() {
                taken.push(t);
            }
            assert_eq!(taken.len(), 5);
            for (n, (note, reqs, results)) in taken.into_iter().enumerate() {
                assert_eq!(note, n as i64);
                assert_eq!(reqs, batch(n as i64));
                assert_eq!(results.unwrap().len(), 3);
            }
        });
    }
}
