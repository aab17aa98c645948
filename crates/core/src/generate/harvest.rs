//! Harvesting: elements of the arrays and collections that calls returned become pool
//! values, so that domain values (time-zone IDs, locales, algorithm names, charsets) come
//! from the implementation itself.
//!
//! An array or `java.util.Collection` that joins the pool is queued. Its first harvest
//! sequence appends `java.lang.reflect.Array.getLength(v)` (after `v.toArray()` for a
//! collection); once that ran, up to [`ELEMENTS`] sequences each append
//! `java.lang.reflect.Array.get(v, i)` for a random index `i` below the length. An element
//! that is a value (a String, a boxed primitive, an enum constant) joins the pool as its
//! runtime type; other objects do not (the JDK's catalogues of providers and services are
//! large objects whose observers are slow). Every harvest step is an ordinary
//! static call, so suites, replay, the minimizer, export and reports need nothing new. The
//! queue is filled and drained in fold order, so a seed still gives one suite.

use super::kept::ObsRef;
use super::ops::Op;
use super::store::{Builder, SeqId};
use super::type_names::NameId;
use super::{Candidate, Generator};
use crate::sequence::{Observed, Statement, names};
use rand::Rng;

/// Elements harvested from one array or collection.
pub(super) const ELEMENTS: u32 = 3;
/// Most elements swept from one catalogue (see [`super::sweep`]).
pub(super) const MAX_ELEMENTS: u32 = 2000;
/// Most arrays and collections waiting to be harvested; later ones are dropped.
const MAX_QUEUED: usize = 10_000;
/// Share of a round's candidates that may be harvest sequences.
const ROUND_SHARE: usize = 16;
/// Share of a round's candidates that may read chunks of swept catalogues: a chunk is no
/// test and catalogues are few, so they are read out within the first rounds.
const SWEEP_SHARE: usize = 4;

/// The collection interfaces of `java.util`: a value declared as one of them is harvested
/// even when the scope does not describe `java.util` (so its supertypes are unknown).
pub(super) const COLLECTIONS: [&str; 7] = [
    "java.util.Collection",
    "java.util.List",
    "java.util.Set",
    "java.util.SortedSet",
    "java.util.NavigableSet",
    "java.util.Queue",
    "java.util.Deque",
];

/// What becomes of a new object a lookup of a swept value returns (`sweep::products` adds
/// `Then::NAMED`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Then {
    /// It goes on to the static calls of any class that take its class.
    pub(super) consumers: bool,
    /// Its products are called, and theirs, this many levels deep.
    pub(super) products: u8,
}

impl Then {
    /// Nothing: the lookup is a test, what it returns joins the pool like any value.
    pub(super) const NOTHING: Then = Then {
        consumers: false,
        products: 0,
    };

    pub(super) fn anything(self) -> bool {
        self.consumers || self.products > 0
    }
}

/// An array or collection to harvest: statement `pos` of sequence `seq`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Harvest {
    pub(super) seq: SeqId,
    pos: u32,
    /// Through `toArray()` first (a collection).
    collection: bool,
    /// Declared element type.
    elem: NameId,
    /// The class of the call that returned it, when it is swept (see [`super::sweep`]).
    sweep: Option<NameId>,
    /// Its length, once known, and the elements still to take.
    len: Option<(u32, u32)>,
}

/// What a harvest candidate is for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    /// Reads the length of `Harvest`.
    Length(Harvest),
    /// Reads one element of the given declared type.
    Element(NameId),
    /// Reads elements of a catalogue swept for lookups of its class.
    Sweep(Chunk),
    /// A lookup of a swept value, or a product of what one returned: the new object it
    /// returns goes on as [`Then`] says (`sweep::Generator::pass_on`).
    Lookup(Then),
}

/// Elements of a swept catalogue read by one sequence: `count` of them, each two statements
/// on, the last at the candidate's last statement.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunk {
    /// The catalogue: statement `.1` of sequence `.0`.
    pub key: (SeqId, u32),
    pub owner: Option<NameId>,
    pub count: u32,
    /// The catalogue's last chunk: once it is folded, the values held back from a
    /// catalogue in per-JVM order are taken (`sweep::stable`).
    pub last: bool,
}

/// Elements read by one sweep sequence.
const CHUNK: u32 = 40;

/// The operations harvesting appends (never drawn at random).
pub(super) struct HarvestOps {
    length: usize,
    get: usize,
    to_array: u32,
    collection: NameId,
}

fn static_call(method: &str, params: &[&str]) -> Statement {
    Statement::Call {
        class: "java.lang.reflect.Array".into(),
        method: method.into(),
        params: names(params),
        receiver: None,
        args: Vec::new(),
    }
}

impl Generator<'_> {
    /// Adds the harvest operations after the ones drawn at random.
    pub(super) fn add_harvest_ops(&mut self) {
        let object = self.names.intern("java.lang.Object");
        let int = self.names.intern("int");
        let collection = self.names.intern("java.util.Collection");
        let (so, si) = (self.comps.register(object), self.comps.register(int));
        let op = |g: &mut Self, stmt: Statement, inputs: Vec<NameId>, slots, result| {
            let family = g.names.intern(&stmt.callee());
            let tmpl = g.store.templates.intern(stmt);
            g.ops.push(Op {
                tmpl,
                inputs,
                slots,
                receiver: false,
                result: Some(result),
                family,
            });
            g.op_class.push("java.lang.reflect.Array".into());
            g.ops.len() - 1
        };
        let length = op(
            self,
            static_call("getLength", &["java.lang.Object"]),
            vec![object],
            vec![so],
            int,
        );
        let get = op(
            self,
            static_call("get", &["java.lang.Object", "int"]),
            vec![object, int],
            vec![so, si],
            object,
        );
        let to_array = Statement::Call {
            class: "java.util.Collection".into(),
            method: "toArray".into(),
            params: Vec::new(),
            receiver: Some(0),
            args: Vec::new(),
        };
        let to_array = self.store.templates.intern(to_array);
        self.harvest_ops = Some(HarvestOps {
            length,
            get,
            to_array,
            collection,
        });
    }

    /// Queues a value that joined the pool if it is an array or a collection.
    pub(super) fn queue_harvest(&mut self, seq: SeqId, pos: u32, ty: NameId, shown: &Observed) {
        let Some(h) = &self.harvest_ops else { return };
        if self.harvest.len() >= MAX_QUEUED || !matches!(shown, Observed::Object { .. }) {
            return;
        }
        let name = self.names.name(ty);
        let (elem, collection) = if let Some(e) = name.strip_suffix("[]") {
            (e.to_string(), false)
        } else if COLLECTIONS.contains(&name) || self.names.assignable(ty, h.collection) {
            ("java.lang.Object".to_string(), true)
        } else {
            return;
        };
        let elem = self.names.intern(&elem);
        let sweep = self.sweep_owner(seq, pos);
        if sweep.is_some() {
            self.hold_if_unordered((seq, pos), sweep, shown);
        }
        self.harvest.push_back(Harvest {
            seq,
            pos,
            collection,
            elem,
            sweep,
            len: None,
        });
    }

    /// The class of the call at `pos` of `seq`, the first time a call of its callee returns
    /// an array or collection: it is swept.
    ///
    /// A catalogue keyed by a simple class name (`Security.getAlgorithms("KeyGenerator")`,
    /// as [`Generator::queue_keyed_catalogues`] drafts it) is swept once per key, for the
    /// lookups of the class the key names (`KeyGenerator.getInstance("AES")`).
    pub(super) fn sweep_owner(&mut self, seq: SeqId, pos: u32) -> Option<NameId> {
        let (callee, owner) = self.sweep_key(seq, pos)?;
        self.swept.insert(callee).then_some(owner)
    }

    /// Whether the call at `pos` of `seq` is a keyed catalogue whose key was not swept yet.
    /// Its list is swept even when it equals one already in the pool: `"KeyPairGenerator"`
    /// lists the same algorithms as `"KeyFactory"`, but for another class's lookups.
    pub(super) fn unswept_keyed(&mut self, seq: SeqId, pos: u32) -> bool {
        let keyed = pos == 1
            && (self.store.template_at(self.store.node(seq).parts, 0))
                .is_some_and(|k| self.sweeps.named.contains_key(&k));
        keyed && (self.sweep_key(seq, pos)).is_some_and(|(callee, _)| !self.swept.contains(&callee))
    }

    /// What `sweep_owner` remembers as swept (the callee, with the key's template for a
    /// keyed catalogue), and the class whose lookups the elements go to.
    fn sweep_key(&mut self, seq: SeqId, pos: u32) -> Option<(NameId, NameId)> {
        let parts = self.store.node(seq).parts;
        let tmpl = self.store.template_at(parts, pos)?;
        let stmt = &self.store.templates.get(tmpl).stmt;
        let (mut callee, class) = (stmt.callee(), stmt.class_name().to_string());
        let key = (pos == 1)
            .then(|| self.store.template_at(parts, 0))
            .flatten();
        let named = key.and_then(|k| Some((k, *self.sweeps.named.get(&k)?)));
        if let Some((key, _)) = named {
            callee.push_str(&format!("#{key}"));
        }
        let callee = self.names.intern(&callee);
        let owner = named.map_or_else(|| self.names.intern(&class), |(_, c)| c);
        Some((callee, owner))
    }

    /// Harvest candidates for the start of a round: chunks of the catalogues being swept,
    /// at most one in [`SWEEP_SHARE`], then other harvests, at most one in [`ROUND_SHARE`].
    pub(super) fn harvest_round(&mut self, want: usize, cands: &mut Vec<Candidate>) {
        let chunks = cands.len() + want / SWEEP_SHARE;
        let waiting: Vec<Harvest> = self.sweeps.pending.drain(..).collect();
        for h in waiting {
            if cands.len() >= chunks {
                self.sweeps.pending.push_back(h);
                continue;
            }
            let key = (h.seq, h.pos);
            let mut next = Some(h);
            // A held catalogue (`sweep::stable`) is read whole at once: its values wait
            // for its last chunk.
            while let Some(h) = next.take()
                && let Some(c) = self.draft_harvest(h)
            {
                cands.push(c);
                let rest = self.sweeps.pending.back();
                if cands.len() < chunks
                    && self.sweeps.holds(key)
                    && rest.is_some_and(|r| (r.seq, r.pos) == key)
                {
                    next = self.sweeps.pending.pop_back();
                }
            }
        }
        let quota = cands.len() + want / ROUND_SHARE;
        let mut tries = 0;
        while cands.len() < quota && tries < quota * 4 {
            tries += 1;
            let Some(h) = self.harvest.pop_front() else {
                return;
            };
            if let Some(c) = self.draft_harvest(h) {
                cands.push(c);
            }
        }
    }

    fn int_literal(&mut self, b: &mut Builder, value: u32) -> u32 {
        let lit = Statement::Literal {
            ty: "int".into(),
            value: value.to_string().into(),
        };
        let lit = self.store.templates.intern(lit);
        b.push_stmt(lit, &[])
    }

    fn draft_harvest(&mut self, h: Harvest) -> Option<Candidate> {
        let ops = self.harvest_ops.as_ref()?;
        let (length, get, to_array) = (ops.length, ops.get, ops.to_array);
        let mut b = Builder::default();
        let mut at = b.push_seq(&self.store, h.seq) + h.pos;
        if h.collection {
            at = b.push_stmt(to_array, &[at]);
        }
        let (op, last, step) = match h.len {
            None => (
                length,
                b.push_stmt(self.ops[length].tmpl, &[at]),
                Step::Length(h),
            ),
            Some((n, left)) if h.sweep.is_some() => {
                let first = n.min(MAX_ELEMENTS) - left;
                let known = self.element_class_known((h.seq, h.pos));
                if first > 0 && !known {
                    // The first element, read alone, has not run yet: its class decides
                    // what the others are observed with.
                    self.sweeps.pending.push_back(h);
                    return None;
                }
                let room = (self.cfg.max_size as u32).saturating_sub(b.len) / 2;
                let count = left.min(room).min(if known { CHUNK } else { 1 });
                let key = (h.seq, h.pos);
                if count == 0 {
                    self.release_held(key);
                    return None;
                }
                if left > count {
                    self.sweeps.pending.push_back(Harvest {
                        len: Some((n, left - count)),
                        ..h
                    });
                }
                let mut last = at;
                let mut reads = Vec::with_capacity(count as usize);
                for i in first..first + count {
                    let index = self.int_literal(&mut b, i);
                    last = b.push_stmt(self.ops[get].tmpl, &[at, index]);
                    reads.push(last);
                }
                let observers = self.element_observers(key, &reads);
                let chunk = Chunk {
                    key,
                    owner: h.sweep,
                    count,
                    last: left == count,
                };
                // No duplicate check: a random harvest may have read the same indices of an
                // equal catalogue, and the chunk is no test.
                if b.len as usize > self.cfg.max_size {
                    if chunk.last {
                        self.release_held(key);
                    }
                    return None;
                }
                self.stats.harvests += 1;
                return Some(Candidate {
                    b,
                    op: get,
                    last,
                    inputs: Vec::new(),
                    observers,
                    harvest: Some(Step::Sweep(chunk)),
                });
            }
            Some((n, left)) => {
                if left > 1 {
                    self.harvest.push_back(Harvest {
                        len: Some((n, left - 1)),
                        ..h
                    });
                }
                let index = self.rng.random_range(0..n);
                let index = self.int_literal(&mut b, index);
                let last = b.push_stmt(self.ops[get].tmpl, &[at, index]);
                (get, last, Step::Element(h.elem))
            }
        };
        if b.len as usize > self.cfg.max_size || !self.seen.insert(b.hash.key()) {
            return None;
        }
        let observers: Vec<ObsRef> = match step {
            Step::Element(elem) => self.observers_for(last, Some(elem), &[]),
            Step::Length(_) | Step::Sweep(..) | Step::Lookup(_) => Vec::new(),
        };
        self.stats.harvests += 1;
        Some(Candidate {
            b,
            op,
            last,
            inputs: Vec::new(),
            observers,
            harvest: Some(step),
        })
    }

    /// After a harvest candidate ended normally: queue its elements, or say what type the
    /// element it read joins the pool as (`Some(None)`: it does not join, or joined as a
    /// literal). `last` is the candidate's last statement; `per_jvm`, whether what it read
    /// differs between runs of one JVM (an element of a set in per-JVM order), which then
    /// does not join.
    pub(super) fn harvested(
        &mut self,
        step: Step,
        steps: &[Observed],
        last: usize,
        per_jvm: bool,
    ) -> Option<Option<NameId>> {
        match step {
            Step::Lookup(_) => None,
            Step::Length(h) => {
                if let Observed::Value { text, .. } = &steps[last]
                    && let Ok(n) = text.parse::<u32>()
                    && n > 0
                    && self.harvest.len() < MAX_QUEUED
                {
                    let take = if h.sweep.is_some() {
                        MAX_ELEMENTS
                    } else {
                        ELEMENTS
                    };
                    let next = Harvest {
                        len: Some((n, take.min(n))),
                        ..h
                    };
                    match h.sweep {
                        Some(_) => self.sweeps.pending.push_back(next),
                        None => self.harvest.push_back(next),
                    }
                }
                None
            }
            Step::Sweep(_) => None,
            Step::Element(_) => {
                let shown = &steps[last];
                // Only values: objects the JDK keeps in its catalogues (providers, services)
                // are large, and every observer and contract call on them is slow.
                let Observed::Value { class, .. } = shown else {
                    return Some(None);
                };
                if per_jvm {
                    return Some(None);
                }
                self.stats.harvested += 1;
                if self.sweep_value(None, shown) {
                    return Some(None);
                }
                Some(Some(self.names.intern(class)))
            }
        }
    }
}
