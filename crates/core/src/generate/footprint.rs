//! What generation's structures hold, estimated in bytes from their lengths and element
//! sizes (heap blocks and hash tables counted at their capacity, allocator overhead not):
//! the breakdown `record -v` prints beside the process's resident memory, to see which
//! structure grows with the sequences generated. Two rounds are in flight at a time, each
//! holding its requests (and the workers' answers): the largest round's requests are counted
//! once.

use super::Generator;
use crate::message::SeqRequest;
use crate::sequence::{Name, ObserverCall, Statement};
use std::collections::{HashMap, HashSet};
use std::mem::size_of;

/// Estimated bytes per structure, in a fixed order.
#[derive(Clone, Debug, Default)]
pub struct Footprint {
    /// `(structure, bytes)`.
    pub parts: Vec<(&'static str, u64)>,
}

impl Footprint {
    /// The sum of the parts, in bytes.
    pub fn total(&self) -> u64 {
        self.parts.iter().map(|p| p.1).sum()
    }
}

/// Bytes a hash set of `T` holds at its capacity (one control byte per bucket).
pub(crate) fn set_bytes<T, S>(set: &HashSet<T, S>) -> u64 {
    (set.capacity() * (size_of::<T>() + 1)) as u64
}

/// Bytes a hash map of `K` to `V` holds at its capacity.
pub(crate) fn map_bytes<K, V, S>(map: &HashMap<K, V, S>) -> u64 {
    (map.capacity() * (size_of::<(K, V)>() + 1)) as u64
}

/// Bytes a request holds: its statements with the lists each owns, and its observer calls.
/// Names and literal text are shared with the statement templates, so not counted.
pub(crate) fn request_bytes(r: &SeqRequest) -> u64 {
    let statement = |s: &Statement| -> usize {
        size_of::<Statement>()
            + match s {
                Statement::New { params, args, .. } | Statement::Call { params, args, .. } => {
                    params.len() * size_of::<Name>() + args.len() * 8
                }
                Statement::Array { elems, .. } => elems.len() * 8,
                _ => 0,
            }
    };
    let observers = r.observers.len() * size_of::<ObserverCall>();
    (r.statements.iter().map(statement).sum::<usize>() + observers) as u64
}

impl Generator<'_> {
    /// The estimated bytes of the generator's growing structures now.
    pub(crate) fn footprint(&self) -> Footprint {
        let parts = vec![
            ("sequence store", self.store.heap_bytes()),
            ("statement templates", self.store.templates.heap_bytes()),
            ("kept tests' index", self.tests.heap_bytes()),
            ("component pool", self.comps.heap_bytes()),
            ("seen sequences", self.seen.heap_bytes()),
            (
                "per-sequence flags",
                (self.roles.capacity() + self.subsumed.capacity()) as u64,
            ),
            ("sweeps", self.sweeps.heap_bytes()),
            ("largest round's requests", self.largest_round),
        ];
        Footprint { parts }
    }
}
