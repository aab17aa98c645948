//! Compaction: what keeps generation's memory bounded however long it runs. Every sequence
//! executed is stored, but later sequences are drafted only from the component pool, so a
//! stored sequence that no pool value, queued sweep or error-revealing test reaches is never
//! read again. Once the store holds [`COMPACT_AT`] sequences, generation lets its rounds in
//! flight finish and then:
//!
//! 1. cuts the error-revealing tests to those the suite would pick, and bounds the pool to
//!    its current bound (at first the store limit; a value counted once per parameter type
//!    it fills), taken from the fullest types: each keeps at most an equal share, drawn at
//!    random with the seeded RNG (so the same seed still gives the same suite);
//! 2. keeps only the stored sequences the pool and the queues reach, renumbered
//!    ([`Store::keep_only`](super::store::Store::keep_only)), and renames every reference;
//! 3. settles the kept tests whose sequence is forgotten: nothing can contain it any more,
//!    so a lexically redundant one is dropped now and the others are final;
//! 4. ages the sets of sequences and values seen ([`RecentSet`]): what was seen before the
//!    previous compaction is forgotten, so an equal sequence drafted again is run again;
//! 5. sets the next threshold and pool bound ([`next_bounds`]): while what stays reachable
//!    fits in the limit, the store never holds more than one and a half limits (and the
//!    rounds in flight), however long generation runs.
//!
//! A record below the threshold never compacts, so its suite is what it was without
//! compaction; a 45 s record on a quiet 2-core machine (200,000–260,000 sequences) compacts
//! once at most, near its end.

use super::Generator;
use super::store::SeqId;
use crate::hash::PrehashedSet;
use std::hash::Hash;

/// Stored sequences that start a compaction.
pub(crate) const COMPACT_AT: usize = 1 << 18;

/// The fewest values the pool keeps through a compaction, in store limits, however far
/// [`next_bounds`] has lowered its bound: when what the queues name (sweeps, harvests,
/// error-revealing tests) fills the live set, a smaller pool would cost variety and free
/// little.
const MIN_POOL_DIVISOR: usize = 16;

/// A set that remembers what was inserted since the last two calls of [`RecentSet::age`]:
/// the sets of sequences and values seen stop growing with generation.
pub(crate) struct RecentSet<K> {
    now: PrehashedSet<K>,
    before: PrehashedSet<K>,
}

impl<K> Default for RecentSet<K> {
    fn default() -> Self {
        RecentSet {
            now: PrehashedSet::default(),
            before: PrehashedSet::default(),
        }
    }
}

impl<K: Hash + Eq + Copy> RecentSet<K> {
    /// True when `key` was not in the set (it is now).
    pub(crate) fn insert(&mut self, key: K) -> bool {
        if self.before.remove(&key) {
            self.now.insert(key);
            return false;
        }
        self.now.insert(key)
    }

    /// Forgets what was inserted before the previous call.
    pub(crate) fn age(&mut self) {
        self.before = std::mem::take(&mut self.now);
    }

    /// Estimated bytes held (`footprint`).
    pub(crate) fn heap_bytes(&self) -> u64 {
        super::footprint::set_bytes(&self.now) + super::footprint::set_bytes(&self.before)
    }
}

impl Generator<'_> {
    /// Whether the next round waits for a compaction (see the module comment).
    pub(super) fn compaction_due(&self) -> bool {
        self.store.len() >= self.compact_next
    }

    /// Compacts: call with no round in flight (their candidates name stored sequences).
    pub(super) fn compact(&mut self) {
        self.note_stored();
        self.prune_errors();
        let mut roots = self.comps.bound(self.pool_most, &mut self.rng);
        self.visit_queued_seqs(&mut |s| roots.push(*s));
        let before = self.store.len();
        let new_id = self.store.keep_only(&roots);
        let mut rename = |s: &mut SeqId| *s = new_id[*s as usize].expect("roots are kept");
        self.comps.renumber(&mut rename);
        self.visit_queued_seqs(&mut rename);
        self.settle_tests(&new_id);
        keep_live(&mut self.roles, &new_id);
        keep_live(&mut self.subsumed, &new_id);
        self.seen.age();
        self.comps.age_seen();
        crate::usage::release_free_memory(); // the old store's blocks and tables
        self.stats.compactions += 1;
        self.stats.forgotten += (before - self.store.len()) as u64;
        (self.pool_most, self.compact_next) =
            next_bounds(self.cfg.compact_at, self.pool_most, self.store.len());
    }

    /// Keeps only the error-revealing tests that [`finish`](Generator::finish) could still
    /// pick: the shortest few of each group. A group's pick among all of its tests is the
    /// pick among its earlier pick and its later tests, so the suite is the same; and the
    /// others no longer hold their sequences (each with every prefix it was built from) in
    /// the store.
    fn prune_errors(&mut self) {
        let errors = std::mem::take(&mut self.errors);
        let per_group = self.cfg.errors_per_group;
        self.errors = super::kept::group_errors(&self.store, errors, per_group).0;
    }

    /// Counts the store's size now towards the most it held.
    pub(super) fn note_stored(&mut self) {
        self.stats.stored_most = self.stats.stored_most.max(self.store.len() as u64);
    }

    /// Calls `f` on every stored sequence named outside the pool: by the sweeps' queues and
    /// tables, the harvest queue and the error-revealing tests (`f` may rename it).
    fn visit_queued_seqs(&mut self, f: &mut dyn FnMut(&mut SeqId)) {
        self.sweeps.visit_seqs(f);
        self.harvest.iter_mut().for_each(|h| f(&mut h.seq));
        self.errors.iter_mut().for_each(|e| f(&mut e.seq));
    }

    /// Drops the lexically redundant tests whose sequence is forgotten, marks the others'
    /// final, and renames the rest.
    fn settle_tests(&mut self, new_id: &[Option<SeqId>]) {
        let subsumed = &self.subsumed;
        let mut dropped = 0;
        self.tests.retain(|_, seq| {
            let gone = new_id.get(seq as usize).is_some_and(Option::is_none);
            let drop = gone && subsumed[seq as usize];
            dropped += usize::from(drop);
            !drop
        });
        self.redundant_dropped += dropped;
        self.tests
            .rename_seqs(|seq| match new_id.get(seq as usize) {
                Some(&Some(new)) => new,
                _ => super::spool::FINAL,
            });
    }
}

/// The pool's bound and the store's threshold for the next compaction, when one with the
/// store limit `limit` and the pool bound `pool_most` left `live` stored sequences. The
/// store may then grow by half the limit (or up to the limit), so while `live` fits in the
/// limit it never holds more than one and a half limits; and when what the pool reaches
/// (its values and their ancestors) is over half the limit, the next compaction keeps
/// proportionally fewer values, so the live set shrinks back under half instead of growing
/// with generation.
fn next_bounds(limit: usize, pool_most: usize, live: usize) -> (usize, usize) {
    let half = limit / 2;
    let pool_most = if live > half {
        (pool_most as u128 * half as u128 / live as u128) as usize
    } else {
        pool_most
    };
    let floor = (limit / MIN_POOL_DIVISOR).max(1);
    (pool_most.max(floor), limit.max(live + half))
}

/// `list`, by old sequence id, with only the sequences kept, in their new order.
fn keep_live<T>(list: &mut Vec<T>, new_id: &[Option<SeqId>]) {
    let old = std::mem::take(list);
    *list = (old.into_iter().zip(new_id))
        .filter_map(|(x, id)| id.map(|_| x))
        .collect();
}

#[cfg(test)]
mod tests {
    use super::super::{GenConfig, Recorded};
    use super::*;
    use crate::pool::fake::{self, Fake};
    use crate::sequence::Statement;
    use std::sync::atomic::AtomicBool;

    fn config(seed: u64, limit: usize, compact_at: usize) -> GenConfig {
        GenConfig {
            seed,
            output_limit: Some(limit),
            round_size: 50,
            compact_at,
            ..GenConfig::default()
        }
    }

    fn ran<'m>(model: &'m crate::model::ApiModel, cfg: GenConfig) -> Generator<'m> {
        let mut g = Generator::new(model, cfg).expect("scope");
        let stop = AtomicBool::new(false);
        g.run(&Fake::reference(), &stop, |_| {}).expect("run");
        g
    }

    /// Each pool value's sequence, as statements, slot by slot.
    fn pool_code(g: &Generator) -> Vec<Vec<(Vec<Statement>, u32)>> {
        let code = |v: &super::super::components::ValueRef| {
            (g.store.statements(g.store.node(v.seq).parts), v.pos)
        };
        g.comps
            .slots()
            .iter()
            .map(|s| s.iter().map(code).collect())
            .collect()
    }

    #[test]
    fn a_compaction_forgets_what_the_pool_cannot_reach_and_renames_the_rest() {
        let model = fake::model();
        let mut g = ran(&model, config(3, 300, usize::MAX));
        let (before, tests, code) = (g.store.len(), g.test_count(), pool_code(&g));
        let per_group = g.cfg.errors_per_group;
        let picked = super::super::kept::group_errors(&g.store, g.errors.clone(), per_group);
        let statements = |e: &super::super::kept::ErrorKept| e.expand(&g.store).statements;
        let errors: Vec<_> = picked.0.iter().map(|e| (e.id, statements(e))).collect();
        assert!(g.errors.len() > errors.len(), "some errors to prune");
        g.compact();
        assert!(g.store.len() < before, "{} of {before} kept", g.store.len());
        assert_eq!(g.stats.forgotten, (before - g.store.len()) as u64);
        assert_eq!(pool_code(&g), code, "every value names the same code");
        assert_eq!(g.test_count(), tests);
        assert_eq!(
            (g.roles.len(), g.subsumed.len()),
            (g.store.len(), g.store.len())
        );
        let r = g.finish();
        assert_eq!(r.tests.len(), tests);
        let after: Vec<_> = r
            .errors
            .iter()
            .map(|e| (e.id, e.statements.clone()))
            .collect();
        assert_eq!(after, errors, "the same error-revealing tests");
        assert_eq!(r.error_groups, picked.1);
    }

    #[test]
    fn compacting_generation_stays_reproducible_and_counts_its_tests() {
        let model = fake::model();
        let code = |r: &Recorded| -> Vec<(u64, Vec<u32>)> {
            r.tests.all().into_iter().map(|t| (t.id, t.code)).collect()
        };
        let done = |cfg| ran(&model, cfg);
        let (a, b) = (done(config(5, 600, 200)), done(config(5, 600, 200)));
        assert!(
            a.stats.compactions >= 2,
            "{} compactions",
            a.stats.compactions
        );
        let (a, b) = (a.finish(), b.finish());
        assert!(code(&a) == code(&b), "same seed, same tests");
        let kept = a.stats.kept_normal + a.stats.kept_exceptional;
        assert_eq!(a.tests.len() as u64, kept - a.redundant as u64);
        assert!(a.tests.len() >= 600);
    }

    #[test]
    fn the_next_bounds_keep_the_store_under_one_and_a_half_limits() {
        assert_eq!(next_bounds(1000, 1000, 300), (1000, 1000), "little live");
        assert_eq!(
            next_bounds(1000, 1000, 800),
            (625, 1300),
            "pool cut to shrink"
        );
        assert_eq!(next_bounds(1000, 2000, 1000), (1000, 1500));
        assert_eq!(next_bounds(1 << 20, 1, 1 << 20).0, 1 << 16, "a floor");
        for live in (0..4000).step_by(7) {
            let (_, next) = next_bounds(1000, 1000, live.min(1000));
            assert!(next <= 1500, "live {live}: next compaction at {next}");
        }
    }

    #[test]
    fn long_compacting_generation_keeps_the_store_bounded() {
        let model = fake::model();
        let g = ran(&model, config(7, 8000, 1000));
        assert!(
            g.stats.compactions >= 5,
            "{} compactions",
            g.stats.compactions
        );
        let r = g.finish();
        let in_flight = 2 * 5 * 50;
        assert!(
            r.stats.stored_most <= 1500 + in_flight,
            "{}",
            r.stats.stored_most
        );
    }

    #[test]
    fn a_recent_set_forgets_what_it_saw_two_ages_ago() {
        let mut set = RecentSet::default();
        assert!(set.insert(1u64) && set.insert(2));
        set.age();
        assert!(!set.insert(1), "seen before the last age");
        set.age();
        assert!(!set.insert(1), "seen again, so kept");
        assert!(set.insert(2), "forgotten");
        assert!(set.heap_bytes() > 0);
    }
}
