//! The component pool: the extensible values of the non-error sequences kept so far, indexed
//! by every parameter type they can fill, plus the set of values seen by the equality filter
//! (section 2.4 of the Randoop paper).
//!
//! Every parameter type of the operations gets a slot before generation starts; a new value
//! is appended to each slot its declared type is assignable to, so picking a value for a
//! parameter is one random index. Slots grow in generation order only, which keeps picks
//! reproducible. A value of a confined type — an object the whole JVM shares, such as an
//! installed security provider — fills only slots of its own confined type: passed where a
//! supertype is expected (`Collections.synchronizedMap(provider)`), it would be written to
//! through that supertype's methods, which the omit list cannot see.

use super::compact::RecentSet;
use super::store::SeqId;
use super::type_names::{NameId, Names};
use crate::hash::key128;
use crate::sequence::Observed;
use rand::Rng;
use std::collections::HashMap;

/// A value: statement `pos` of sequence `seq` (`len` statements long), declared as `ty`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ValueRef {
    pub seq: SeqId,
    pub pos: u32,
    pub ty: NameId,
    pub len: u32,
}

/// Extensible values by the parameter types they fill. Each value is held once; a slot
/// holds the values' indices (a value fills four slots on average: its own type, `Object`,
/// an interface or two).
#[derive(Default)]
pub(crate) struct Components {
    values: Vec<ValueRef>,
    slots: Vec<Vec<u32>>,
    slot_of: HashMap<NameId, u32>,
    slot_types: Vec<NameId>,
    fills: HashMap<NameId, Vec<u32>>,
    seen: RecentSet<u128>,
    /// Types whose values fill only slots of their own type or a subtype of it.
    confined: Vec<NameId>,
}

impl Components {
    /// Makes `ty` a parameter type values are indexed for; call before adding values.
    pub(crate) fn register(&mut self, ty: NameId) -> u32 {
        if let Some(&s) = self.slot_of.get(&ty) {
            return s;
        }
        debug_assert!(self.values.is_empty(), "slots must exist before values");
        let s = self.slots.len() as u32;
        self.slots.push(Vec::new());
        self.slot_types.push(ty);
        self.slot_of.insert(ty, s);
        s
    }

    /// The slot of parameter type `ty`, if registered.
    pub(crate) fn slot(&self, ty: NameId) -> Option<u32> {
        self.slot_of.get(&ty).copied()
    }

    #[cfg(test)]
    pub(crate) fn slots(&self) -> Vec<Vec<ValueRef>> {
        let values = |slot: &Vec<u32>| slot.iter().map(|&i| self.values[i as usize]).collect();
        self.slots.iter().map(values).collect()
    }

    /// Number of values that can fill slot `s`.
    pub(crate) fn count(&self, s: u32) -> usize {
        self.slots[s as usize].len()
    }

    /// Confines the values of `ty` (and of its subtypes) to slots of `ty` and its subtypes.
    pub(crate) fn confine(&mut self, ty: NameId) {
        self.confined.push(ty);
    }

    /// Adds an extensible value to every slot its type fills.
    pub(crate) fn add(&mut self, names: &Names, v: ValueRef) {
        if !self.fills.contains_key(&v.ty) {
            let confined = self.confined.iter().find(|&&c| names.assignable(v.ty, c));
            let fills = (0..self.slots.len() as u32)
                .filter(|&s| {
                    let slot = self.slot_types[s as usize];
                    names.assignable(v.ty, slot)
                        && confined.is_none_or(|&c| names.assignable(slot, c))
                })
                .collect();
            self.fills.insert(v.ty, fills);
        }
        let index = self.values.len() as u32;
        self.values.push(v);
        for &s in &self.fills[&v.ty] {
            self.slots[s as usize].push(index);
        }
    }

    /// A random value for slot `s`: the shorter sequence of two drawn at random, which keeps
    /// tests short (like Randoop's `--small-tests`) without starving long ones.
    pub(crate) fn pick(&self, s: u32, rng: &mut impl Rng) -> Option<ValueRef> {
        let slot = &self.slots[s as usize];
        if slot.is_empty() {
            return None;
        }
        let a = self.values[slot[rng.random_range(0..slot.len())] as usize];
        let b = self.values[slot[rng.random_range(0..slot.len())] as usize];
        Some(if b.len < a.len { b } else { a })
    }

    /// Estimated bytes the slots and the equality filter hold (`footprint`).
    pub(crate) fn heap_bytes(&self) -> u64 {
        let slots: usize = self.slots.iter().map(Vec::capacity).sum();
        let values = self.values.capacity() * std::mem::size_of::<ValueRef>();
        (slots * 4 + values) as u64 + self.seen.heap_bytes()
    }

    /// The equality filter: true the first time a value with this key is seen.
    pub(crate) fn first_seen(&mut self, key: u128) -> bool {
        self.seen.insert(key)
    }

    /// Number of extensible values.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// Keeps at most `most` values across the slots, taking from the fullest: each slot
    /// keeps at most as many as the largest share that fits, drawn at random and left in
    /// their order. Returns the sequences the values left are in (`compact`).
    pub(crate) fn bound(&mut self, most: usize, rng: &mut impl Rng) -> Vec<SeqId> {
        let share = fair_share(self.slots.iter().map(Vec::len).collect(), most);
        for slot in self.slots.iter_mut().filter(|s| s.len() > share) {
            let mut picked = rand::seq::index::sample(rng, slot.len(), share).into_vec();
            picked.sort_unstable();
            *slot = picked.into_iter().map(|i| slot[i]).collect();
        }
        self.keep_values_in_slots();
        let mut seqs: Vec<SeqId> = self.values.iter().map(|v| v.seq).collect();
        seqs.sort_unstable();
        seqs.dedup();
        seqs
    }

    /// Drops the values no slot holds any more and renumbers the slots' indices, keeping
    /// the values' order.
    fn keep_values_in_slots(&mut self) {
        const GONE: u32 = u32::MAX;
        let mut new_index = vec![GONE; self.values.len()];
        for &i in self.slots.iter().flatten() {
            new_index[i as usize] = 0;
        }
        let mut kept = 0;
        for (i, new) in new_index.iter_mut().enumerate() {
            if *new != GONE {
                *new = kept;
                self.values[kept as usize] = self.values[i];
                kept += 1;
            }
        }
        self.values.truncate(kept as usize);
        self.values.shrink_to_fit();
        for i in self.slots.iter_mut().flatten() {
            *i = new_index[*i as usize];
        }
    }

    /// Renames each value's sequence (after the store was compacted).
    pub(crate) fn renumber(&mut self, rename: &mut dyn FnMut(&mut SeqId)) {
        self.values.iter_mut().for_each(|v| rename(&mut v.seq));
    }

    /// Forgets the values seen before the previous compaction (`compact`).
    pub(crate) fn age_seen(&mut self) {
        self.seen.age();
    }
}

/// The largest number of values each slot may keep so that slots of these `lens` keep at
/// most `most` in all (a slot with fewer keeps all of its own).
fn fair_share(mut lens: Vec<usize>, most: usize) -> usize {
    lens.sort_unstable();
    let mut left = most;
    for (i, &len) in lens.iter().enumerate() {
        let rest = lens.len() - i;
        if len.saturating_mul(rest) > left {
            return left / rest;
        }
        left -= len;
    }
    usize::MAX
}

/// The equality filter's key of a value: declared type, what it showed, its observations.
pub(super) fn value_key(ty: NameId, shown: &Observed, observed: &[(NameId, &Observed)]) -> u128 {
    key128(&(ty, shown, observed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ApiModel;
    use rand::SeedableRng;

    #[test]
    fn the_fair_share_takes_from_the_fullest_slots_first() {
        assert_eq!(fair_share(vec![5, 100, 1, 50], 1000), usize::MAX);
        assert_eq!(fair_share(vec![5, 100, 1, 50], 56), 25);
        assert_eq!(fair_share(vec![5, 100, 1, 50], 6), 1);
        assert_eq!(fair_share(vec![], 6), usize::MAX);
    }

    #[test]
    fn values_fill_every_assignable_slot() {
        let mut names = Names::new(&ApiModel::default());
        let (obj, num, int, s) = (
            names.intern("java.lang.Object"),
            names.intern("java.lang.Number"),
            names.intern("int"),
            names.intern("java.lang.String"),
        );
        let mut c = Components::default();
        let (so, sn, si) = (c.register(obj), c.register(num), c.register(int));
        c.add(
            &names,
            ValueRef {
                seq: 0,
                pos: 0,
                ty: int,
                len: 1,
            },
        );
        c.add(
            &names,
            ValueRef {
                seq: 1,
                pos: 0,
                ty: s,
                len: 1,
            },
        );
        assert_eq!((c.count(so), c.count(sn), c.count(si)), (2, 1, 1));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert_eq!(c.pick(sn, &mut rng).map(|v| v.seq), Some(0));
        assert!(c.first_seen(key128(&"x")) && !c.first_seen(key128(&"x")));
        for seq in 2..12 {
            let ty = if seq % 2 == 0 { int } else { s };
            c.add(
                &names,
                ValueRef {
                    seq,
                    pos: 0,
                    ty,
                    len: 1,
                },
            );
        }
        // Object holds 12 values, Number and int 6 each: a share of 2 each keeps 6.
        let kept = c.bound(6, &mut rng);
        assert_eq!((c.count(so), c.count(sn), c.count(si)), (2, 2, 2));
        assert!(kept.len() <= 6 && kept.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(c.len(), kept.len());
    }

    #[test]
    fn a_confined_value_fills_only_slots_of_its_own_type() {
        let class = |name: &str, supertypes: &[&str]| crate::model::ApiClass {
            supertypes: supertypes.iter().map(|s| s.to_string()).collect(),
            ..crate::model::ApiClass::with_methods(name, &[], vec![])
        };
        let model = ApiModel {
            classes: [
                class("p.Registry", &["java.util.Map", "java.lang.Object"]),
                class(
                    "p.Own",
                    &["p.Registry", "java.util.Map", "java.lang.Object"],
                ),
                class("p.Plain", &["java.util.Map", "java.lang.Object"]),
            ]
            .into_iter()
            .map(|c| (c.name.clone(), c))
            .collect(),
        };
        let mut names = Names::new(&model);
        let [map, obj, registry, own, plain] = [
            "java.util.Map",
            "java.lang.Object",
            "p.Registry",
            "p.Own",
            "p.Plain",
        ]
        .map(|n| names.intern(n));
        let mut c = Components::default();
        let slots = [map, obj, registry, own].map(|t| c.register(t));
        c.confine(registry);
        for (seq, ty) in [(0, own), (1, plain)] {
            let v = ValueRef {
                seq,
                pos: 0,
                ty,
                len: 1,
            };
            c.add(&names, v);
        }
        let counts = slots.map(|s| c.count(s));
        // The registry's own value fills p.Registry and p.Own, never Map or Object.
        assert_eq!(counts, [1, 1, 1, 1]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert_eq!(c.pick(slots[0], &mut rng).map(|v| v.seq), Some(1));
        assert_eq!(c.pick(slots[2], &mut rng).map(|v| v.seq), Some(0));
    }
}
