//! Follow-up queries. A call that takes arguments often changes its receiver in a way that
//! shows only through a question about those same arguments: `list.add(5, x)` then
//! `list.contains(x)` or `list.indexOf(x)`, `map.put(k, v)` then `map.get(k)`,
//! `bag.add(x, 3)` then `bag.getCount(x)`, `calendar.set(field, v)` then
//! `calendar.get(field)`. Observers take no argument, and random generation asks such a
//! question about the very value only by chance. So after a call on an object with
//! arguments, the sequence is extended once by each query of the receiver's class that takes
//! one of those arguments: a method named `contains…`, `get…` (not `getAnd…`), `has…`,
//! `is…`, `count…`, `indexOf` or `lastIndexOf`, with one parameter and a value. Queries take
//! at most one in [`QUERY_SHARE`] of a round, one queue per query method taken in turn;
//! their values are checked and join the pool as any call's. `--no-queries` turns them off.

use crate::generate::store::{Builder, SeqId};
use crate::generate::type_names::{NameId, is_value_type};
use crate::generate::{Candidate, Generator};
use crate::sequence::Observed;

/// Share of a round's candidates that may be follow-up queries.
const QUERY_SHARE: usize = 8;
/// Most queries of one method waiting: one busy mutator must not crowd out the others.
const MAX_QUEUED_PER_QUERY: usize = 1000;

/// One follow-up: query `op` on the receiver at statement `recv` of sequence `seq`, with
/// the argument at statement `arg`.
#[derive(Clone, Copy, Debug)]
pub(in crate::generate) struct Query {
    pub(super) seq: SeqId,
    recv: u32,
    arg: u32,
    op: usize,
    recv_ty: NameId,
    arg_ty: NameId,
}

/// Whether a method's name asks rather than tells: `contains…`, `get…` but not `getAnd…`
/// (`AtomicIntegerArray.getAndIncrement(i)`), `has…`, `is…`, `count…`, `indexOf`,
/// `lastIndexOf`, each prefix a whole word (`isSet`, not `issue`).
pub(in crate::generate) fn is_query(name: &str) -> bool {
    const PREFIXES: [&str; 5] = ["contains", "get", "has", "is", "count"];
    if matches!(name, "indexOf" | "lastIndexOf") {
        return true;
    }
    let word = |p: &str| {
        name.strip_prefix(p)
            .is_some_and(|rest| rest.chars().next().is_none_or(|c| c.is_ascii_uppercase()))
    };
    !word("getAnd") && PREFIXES.iter().any(|p| word(p))
}

impl Generator<'_> {
    /// Query candidates for the start of a round: at most one in [`QUERY_SHARE`].
    pub(super) fn query_round(&mut self, want: usize, cands: &mut Vec<Candidate>) {
        let quota = cands.len() + want / QUERY_SHARE;
        while cands.len() < quota
            && let Some(q) = self.sweeps.queries.pop()
        {
            cands.extend(self.query_candidate(q));
        }
    }

    /// Queues the follow-up queries of a call `op` that ran normally in sequence `seq`
    /// with `inputs` (receiver first): each query of the receiver's class that takes one of
    /// the other inputs. Nothing for a static call, a call on a value (a String, a box) or a
    /// query itself.
    pub(in crate::generate) fn queue_queries(
        &mut self,
        seq: SeqId,
        op: usize,
        inputs: &[(u32, NameId, bool)],
        steps: &[Observed],
    ) {
        if !self.cfg.queries || !self.ops[op].receiver || is_query(self.member_name(op)) {
            return;
        }
        let Some(&(recv, recv_ty, _)) = inputs.first() else {
            return;
        };
        let object = matches!(steps.get(recv as usize), Some(Observed::Object { .. }));
        if !object || is_value_type(self.names.name(recv_ty)) {
            return;
        }
        for &(arg, arg_ty, null) in &inputs[1..] {
            if null {
                continue;
            }
            for query in self.queries_of(recv_ty, arg_ty) {
                if self.sweeps.queries.waiting(query) < MAX_QUEUED_PER_QUERY {
                    let q = Query {
                        seq,
                        recv,
                        arg,
                        op: query,
                        recv_ty,
                        arg_ty,
                    };
                    self.sweeps.queries.push_for(query, q);
                }
            }
        }
    }

    /// The queries a receiver of `recv` can answer about an argument of `arg`, found once.
    fn queries_of(&mut self, recv: NameId, arg: NameId) -> Vec<usize> {
        if let Some(found) = self.sweeps.queries_of.get(&(recv, arg)) {
            return found.clone();
        }
        let found: Vec<usize> = (0..self.random_ops)
            .filter(|&op| {
                let o = &self.ops[op];
                o.receiver && o.inputs.len() == 2 && o.result.is_some()
            })
            .filter(|&op| {
                let o = &self.ops[op];
                self.names.assignable(recv, o.inputs[0]) && self.names.assignable(arg, o.inputs[1])
            })
            .filter(|&op| is_query(self.member_name(op)))
            .collect();
        let found: Vec<usize> = found
            .into_iter()
            .filter(|&op| !self.omitted_on(op, recv))
            .collect();
        self.sweeps.queries_of.insert((recv, arg), found.clone());
        found
    }

    /// The sequence, then the query on its receiver with its argument.
    fn query_candidate(&mut self, q: Query) -> Option<Candidate> {
        if self.timed_out_ops.contains(&q.op) || self.banned.contains(&self.ops[q.op].family) {
            return None;
        }
        let mut b = Builder::default();
        let at = b.push_seq(&self.store, q.seq);
        let (recv, arg) = (at + q.recv, at + q.arg);
        let last = b.push_stmt(self.ops[q.op].tmpl, &[recv, arg]);
        if !self.seen.insert(b.hash.key()) {
            return None;
        }
        let inputs = vec![(recv, q.recv_ty, false), (arg, q.arg_ty, false)];
        let result = self.runtime.get(&q.op).copied().or(self.ops[q.op].result);
        let observers = self.observers_for(last, result, &inputs);
        self.stats.queries += 1;
        Some(Candidate {
            b,
            op: q.op,
            last,
            inputs,
            observers,
            harvest: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::is_query;

    #[test]
    fn queries_are_named_as_questions() {
        for name in [
            "contains",
            "containsKey",
            "get",
            "getCount",
            "hasKey",
            "isSet",
            "indexOf",
            "lastIndexOf",
            "count",
        ] {
            assert!(is_query(name), "{name}");
        }
        for name in [
            "getAndIncrement",
            "getAnd",
            "issue",
            "getaway",
            "add",
            "remove",
            "set",
        ] {
            assert!(!is_query(name), "{name}");
        }
    }
}
