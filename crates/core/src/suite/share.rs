//! Which statements a suite writes once and names from then on (format 4). A test is built
//! from the sequences it took its inputs from, and those recur in many tests; a *block* is
//! such a run of statements, written once as a `- shared: N` entry before the first test
//! that uses it and named from each test that starts from it (`v4..v9 = shared N`).
//!
//! Blocks are found in the tests themselves, so any list of tests can be shared, not only
//! what generation made: a candidate is a *closed* run — the shortest run ending at a
//! statement that holds everything that statement reads, directly or not — because a
//! component sequence is exactly that inside every test built from it. Statements are
//! compared with their inputs written as distances back (so a run reads the same wherever it
//! sits) and with their expected values, so a block stands for statements *and* checks.
//!
//! Planning takes two passes over the tests ([`Counter`], then [`Planner`]): the first counts
//! each closed run, the second covers each test greedily from its start with the longest
//! run seen twice or more, and counts each block's uses. A block used once is written inline.
//! The plan depends only on the tests, so a seed still gives one byte-identical suite.
//!
//! A plan covers one chunk of consecutive tests, closed once its counter holds
//! [`CHUNK_RUNS`] distinct runs ([`Counter::full`]; [`super::chunked`] writes a suite chunk
//! by chunk), so what planning holds does not grow with the suite.

use super::Test;
use super::syntax::{EXPECT, VARIES, write_expr, write_observed};
use crate::hash::PrehashedMap;

/// Blocks are at least this many statements long.
const MIN_BLOCK: usize = 2;

/// A chunk of tests is planned on its own once its counter holds this many distinct runs:
/// about 9 MiB of counts, the covers and blocks of 50,000–90,000 generated tests on top
/// (some 29 MiB resident in all, measured in a record).
/// Smaller chunks share less (the blocks a chunk uses are defined again in the next): a
/// 94,169-test suite (two chunks) was 2.2 % larger at 2^18 than in one plan, 6 % at
/// 2^17, 10 % at 2^16.
pub(crate) const CHUNK_RUNS: usize = 1 << 18;

/// A test's or block's statements with references expand to at most this many statements
/// (the reader refuses more, so a hostile file cannot blow up in memory).
pub(crate) const MAX_EXPANDED: usize = 100_000;

/// One piece of a cover, in positions relative to what is covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    /// `len` statements written out, from `start`.
    Own { start: u32, len: u32 },
    /// Block `block` (an index into [`Plan::blocks`]) at `start`.
    Block { block: u32, start: u32 },
}

/// A block: how long it is, how it is covered itself, how often it is named.
#[derive(Debug)]
pub(crate) struct BlockPlan {
    pub len: u32,
    pub cover: Vec<Seg>,
    pub uses: u32,
}

/// The cover of every regression test, in the order they are written.
#[derive(Debug, Default)]
pub struct Plan {
    pub(crate) tests: Vec<(u64, Vec<Seg>)>,
    pub(crate) blocks: Vec<BlockPlan>,
}

impl Plan {
    /// `cover` with every block named fewer than twice written inline.
    pub(crate) fn effective(&self, cover: &[Seg]) -> Vec<Seg> {
        let mut out = Vec::with_capacity(cover.len());
        self.splice(cover, 0, &mut out);
        out
    }

    fn splice(&self, cover: &[Seg], base: u32, out: &mut Vec<Seg>) {
        for &seg in cover {
            match seg {
                Seg::Block { block, start } if self.blocks[block as usize].uses < 2 => {
                    self.splice(&self.blocks[block as usize].cover, base + start, out);
                }
                Seg::Block { block, start } => out.push(Seg::Block {
                    block,
                    start: base + start,
                }),
                Seg::Own { start, len } => match out.last_mut() {
                    Some(Seg::Own { start: s, len: l }) if *s + *l == base + start => *l += len,
                    _ => out.push(Seg::Own {
                        start: base + start,
                        len,
                    }),
                },
            }
        }
    }
}

/// A test's statements as the planner sees them: tokens and closed runs.
struct Shape {
    /// `ends[p]`: ends of candidate runs starting at `p`, longest first.
    ends: Vec<Vec<u32>>,
    /// The key of the closed run ending at each end (index `e - 1`).
    keys: Vec<u128>,
    starts: Vec<u32>,
}

/// Each statement as a 64-bit token: its text with inputs as distances back, and its check.
fn tokens(t: &Test) -> Vec<u64> {
    let mut text = String::with_capacity(128);
    (0..t.statements.len())
        .map(|i| {
            text.clear();
            write_expr(&mut text, &t.statements[i].remap(|v| i - v));
            if let Some(Some(o)) = t.expected_steps.get(i) {
                text.push_str(EXPECT);
                write_observed(&mut text, o);
            } else if t.varies_at(i) {
                text.push_str(EXPECT);
                text.push_str(VARIES);
            }
            xxhash_rust::xxh3::xxh3_64(text.as_bytes())
        })
        .collect()
}

/// What counting and planning read of a test: its id, length and closed runs, keyed. Made
/// apart from them so that many tests can be keyed at once ([`super::chunked`]).
pub(crate) struct Runs {
    id: u64,
    len: usize,
    starts: Vec<u32>,
    keys: Vec<u128>,
}

impl Runs {
    /// `t`'s runs; none for a test too long to share.
    pub(crate) fn of(t: &Test) -> Runs {
        let len = t.statements.len();
        let (starts, keys) = if len > MAX_EXPANDED {
            (Vec::new(), Vec::new())
        } else {
            closed_runs(t)
        };
        Runs {
            id: t.id,
            len,
            starts,
            keys,
        }
    }
}

/// The start of the closed run ending at each end, and its key.
fn closed_runs(t: &Test) -> (Vec<u32>, Vec<u128>) {
    let low: Vec<usize> = t
        .statements
        .iter()
        .enumerate()
        .map(|(i, s)| s.inputs().into_iter().fold(i, usize::min))
        .collect();
    let bytes: Vec<u8> = tokens(t).iter().flat_map(|x| x.to_le_bytes()).collect();
    let n = low.len();
    let (mut starts, mut keys) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for e in 1..=n {
        let (mut s, mut lo) = (e - 1, low[e - 1]);
        while lo < s {
            let further = low[lo..s].iter().copied().fold(lo, usize::min);
            s = lo;
            lo = further;
        }
        starts.push(s as u32);
        keys.push(xxhash_rust::xxh3::xxh3_128(&bytes[8 * s..8 * e]) ^ (e - s) as u128);
    }
    (starts, keys)
}

/// The key a run is counted under: a collision only makes a run look shared, and a block
/// named fewer than twice is written inline, so 64 bits are enough here (blocks themselves
/// are told apart by their 128-bit key).
fn count_key(key: u128) -> u64 {
    key as u64
}

/// First pass: how often each closed run occurs (once, or twice and more).
#[derive(Default)]
pub struct Counter {
    counts: PrehashedMap<u64, bool>,
}

impl Counter {
    /// Counts the runs of `t`'s statements.
    pub fn add(&mut self, t: &Test) {
        self.add_runs(&Runs::of(t));
    }

    /// Counts a test's runs, keyed apart.
    pub(crate) fn add_runs(&mut self, runs: &Runs) {
        if runs.len > MAX_EXPANDED {
            return;
        }
        for (e, (&s, &key)) in runs.starts.iter().zip(&runs.keys).enumerate() {
            if e + 1 - s as usize >= MIN_BLOCK {
                self.counts
                    .entry(count_key(key))
                    .and_modify(|twice| *twice = true)
                    .or_insert(false);
            }
        }
    }

    /// Whether the chunk counted holds `runs` ([`CHUNK_RUNS`] when writing a suite)
    /// distinct runs: the next test starts another chunk.
    pub(crate) fn full(&self, runs: usize) -> bool {
        self.counts.len() >= runs
    }

    /// The second pass.
    pub fn planner(self) -> Planner {
        Planner {
            counts: self.counts,
            index: PrehashedMap::default(),
            plan: Plan::default(),
        }
    }
}

/// Second pass: the covers and the blocks' uses.
pub struct Planner {
    counts: PrehashedMap<u64, bool>,
    index: PrehashedMap<u128, u32>,
    plan: Plan,
}

impl Planner {
    /// Plans `t`'s cover from the blocks counted.
    pub fn add(&mut self, t: &Test) {
        self.add_runs(Runs::of(t));
    }

    /// Plans a test's cover from its runs, keyed apart.
    pub(crate) fn add_runs(&mut self, runs: Runs) {
        let Runs {
            id,
            len: n,
            starts,
            keys,
        } = runs;
        if n > MAX_EXPANDED {
            let whole = Seg::Own {
                start: 0,
                len: n as u32,
            };
            self.plan.tests.push((id, vec![whole]));
            return;
        }
        let mut ends = vec![Vec::new(); n];
        for (e, (&s, key)) in starts.iter().zip(&keys).enumerate() {
            let shared = self.counts.get(&count_key(*key)) == Some(&true);
            if shared && e + 1 - s as usize >= MIN_BLOCK {
                ends[s as usize].push(e as u32 + 1);
            }
        }
        for list in &mut ends {
            list.reverse();
        }
        let shape = Shape { ends, keys, starts };
        let cover = self.cover(&shape, 0, n as u32, false);
        self.plan.tests.push((id, cover));
    }

    /// Covers `[a, b)`, greedily with the longest candidate at each position (not the
    /// whole range itself when `inner`), defining blocks as they are first met.
    fn cover(&mut self, shape: &Shape, a: u32, b: u32, inner: bool) -> Vec<Seg> {
        let mut out: Vec<Seg> = Vec::new();
        let mut p = a;
        while p < b {
            let best = shape.ends[p as usize]
                .iter()
                .copied()
                .find(|&e| e <= b && !(inner && p == a && e == b));
            let Some(e) = best else {
                match out.last_mut() {
                    Some(Seg::Own { len, .. }) => *len += 1,
                    _ => out.push(Seg::Own {
                        start: p - a,
                        len: 1,
                    }),
                }
                p += 1;
                continue;
            };
            debug_assert_eq!(shape.starts[e as usize - 1], p);
            let key = shape.keys[e as usize - 1];
            let block = match self.index.get(&key) {
                Some(&b) => b,
                None => {
                    let cover = self.cover(shape, p, e, true);
                    let b = self.plan.blocks.len() as u32;
                    self.plan.blocks.push(BlockPlan {
                        len: e - p,
                        cover,
                        uses: 0,
                    });
                    self.index.insert(key, b);
                    b
                }
            };
            self.plan.blocks[block as usize].uses += 1;
            out.push(Seg::Block {
                block,
                start: p - a,
            });
            p = e;
        }
        out
    }

    /// The plan of every test added.
    pub fn finish(self) -> Plan {
        self.plan
    }
}

/// Plans the sharing of `tests` (walked twice) as one chunk (unit tests).
#[cfg(test)]
pub(crate) fn plan<'a, I: Iterator<Item = &'a Test>>(tests: impl Fn() -> I) -> Plan {
    let mut counter = Counter::default();
    tests().for_each(|t| counter.add(t));
    let mut planner = counter.planner();
    tests().for_each(|t| planner.add(t));
    planner.finish()
}

#[cfg(test)]
pub(crate) mod tests;
