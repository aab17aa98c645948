//! Sweeping catalogues: the first array or collection each call returns is harvested
//! element by element (up to [`MAX_ELEMENTS`]), not only at a few random indices, and every
//! String or enum constant read from it becomes a literal of the pool and is passed, once,
//! to each lookup of the catalogue's own class: a static method or constructor taking just
//! that value. `TimeZone.getAvailableIDs()` so yields `TimeZone.getTimeZone("Asia/Almaty")`
//! for every zone the reference knows, `ZoneId.getAvailableZoneIds()` every `ZoneId.of(…)`,
//! `Locale.getISOCountries()` every `new Locale(…)`.
//!
//! Why literals: an element read by index (`Array.get(ids, 57)`) names another value on an
//! implementation whose catalogue differs, so every later element would differ; the literal
//! says what was meant. Why the owner's lookups only: a catalogue's names are made for them,
//! and a String fits hundreds of other methods, which random generation already tries.
//! Sweep candidates take at most one in [`ROUND_SHARE`] of a round, so generation still
//! spends most of its budget at random.

use super::components::ValueRef;
use super::fold::value_key;
use super::harvest::{COLLECTIONS, Chunk, Harvest};
use super::kept::ObsRef;
use super::mined::Kind;
use super::store::{Builder, SeqId};
use super::types::NameId;
use super::{Candidate, Generator};
use crate::sequence::{Observed, Statement};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// Most elements swept from one catalogue.
pub const MAX_ELEMENTS: u32 = 2000;
/// Share of a round's candidates that may be lookups of swept values.
const ROUND_SHARE: usize = 4;
/// Most mined constants of one API unit passed to its lookups.
const MAX_CONSTANTS: usize = 3000;
/// Most lookups waiting; later ones are dropped.
const MAX_QUEUED: usize = 50_000;

/// One lookup to try: operation `op` on the one-statement literal `tmpl` of type `ty`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lookup {
    op: usize,
    tmpl: u32,
    ty: NameId,
}

/// The sweep's queues.
#[derive(Default)]
pub(super) struct Sweeps {
    /// Static calls without inputs that return an array or a collection, each drafted
    /// once at the start: the catalogues are there to sweep from the first rounds on.
    catalogues: VecDeque<usize>,
    /// Lookups of catalogue values, one queue per operation, taken in turn so that every
    /// catalogue advances at once.
    queue: RoundRobin,
    /// The lookups of each (owner class, value type), found once.
    lookups_of: HashMap<(NameId, NameId), Vec<usize>>,
    /// Lookups of mined constants, tried when `queue` is empty.
    constants: RoundRobin,
    /// Catalogues being swept, each waiting for its next chunk.
    pub(super) pending: VecDeque<Harvest>,
    /// The class of each catalogue's elements, once its first element was read: `None`
    /// for values and classes the scope does not describe.
    elements: HashMap<(SeqId, u32), Option<NameId>>,
}

/// Queues per operation, popped in turn.
#[derive(Default)]
struct RoundRobin {
    queues: Vec<VecDeque<Lookup>>,
    of_op: HashMap<usize, usize>,
    next: usize,
    len: usize,
}

impl RoundRobin {
    fn push(&mut self, l: Lookup) {
        let n = self.queues.len();
        let i = *self.of_op.entry(l.op).or_insert(n);
        if i == n {
            self.queues.push(VecDeque::new());
        }
        self.queues[i].push_back(l);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<Lookup> {
        for _ in 0..self.queues.len() {
            let i = self.next % self.queues.len();
            self.next = i + 1;
            if let Some(l) = self.queues[i].pop_front() {
                self.len -= 1;
                return Some(l);
            }
        }
        None
    }
}

impl Generator<'_> {
    /// Whether the first element of a catalogue was read.
    pub(super) fn element_class_known(&self, key: (SeqId, u32)) -> bool {
        self.sweeps.elements.contains_key(&key)
    }

    /// Observers on elements of a catalogue whose element class is known: its textual
    /// forms, `toString()` and conversions like `toLanguageTag()`, which its owner's lookups
    /// may take.
    pub(super) fn element_observers(&mut self, key: (SeqId, u32), reads: &[u32]) -> Vec<ObsRef> {
        let Some(&Some(class)) = self.sweeps.elements.get(&key) else {
            return Vec::new();
        };
        let all = self.observer_methods(class).to_vec();
        let methods: Vec<NameId> = all
            .into_iter()
            .filter(|&m| self.names.name(m).starts_with("to"))
            .collect();
        let mut out = Vec::new();
        for &stmt in reads {
            out.extend(methods.iter().map(|&method| ObsRef {
                stmt,
                class,
                method,
            }));
        }
        out
    }

    /// After a chunk of a swept catalogue ran normally: value elements become literals,
    /// the textual forms of object elements become String literals, and the owner's
    /// lookups of each are queued.
    pub(super) fn swept(
        &mut self,
        chunk: Chunk,
        last: usize,
        steps: &[Observed],
        calls: &[ObsRef],
        got: &[Observed],
    ) {
        for k in 0..chunk.count as usize {
            let shown = &steps[last - 2 * k];
            self.stats.harvested += 1;
            match shown {
                Observed::Value { .. } => {
                    self.sweep_value(chunk.owner, shown);
                }
                Observed::Object { class } if self.model.class(class).is_some() => {
                    let class = Some(self.names.intern(class));
                    self.sweeps.elements.entry(chunk.key).or_insert(class);
                }
                _ => {}
            }
        }
        self.sweeps.elements.entry(chunk.key).or_insert(None);
        for (_, text) in calls.iter().zip(got) {
            if matches!(text, Observed::Value { class, .. } if class == "java.lang.String") {
                self.sweep_value(chunk.owner, text);
            }
        }
    }

    /// A String or enum constant read from a catalogue of class `owner` (when swept): it
    /// joins the pool as a literal, and the owner's lookups of it are queued. Returns false
    /// for other values, which join the pool as before.
    pub(super) fn sweep_value(&mut self, owner: Option<NameId>, shown: &Observed) -> bool {
        let Observed::Value { class, text } = shown else {
            return false;
        };
        let stmt = if class == "java.lang.String" {
            Statement::Literal {
                ty: class.clone(),
                value: text.clone(),
            }
        } else if self
            .model
            .class(class)
            .is_some_and(|c| c.enum_constants.contains(text))
        {
            Statement::Enum {
                ty: class.clone(),
                constant: text.clone(),
            }
        } else {
            return false;
        };
        let ty = self.names.intern(class);
        let Some(tmpl) = self.seed_value(stmt, ty, shown) else {
            return true;
        };
        if let Some(owner) = owner {
            self.queue_lookups(owner, ty, tmpl);
        }
        true
    }

    /// A one-statement literal sequence joins the pool unless an equal value is there;
    /// returns its template when it joined.
    pub(super) fn seed_value(
        &mut self,
        stmt: Statement,
        ty: NameId,
        shown: &Observed,
    ) -> Option<u32> {
        if !self.comps.first_seen(value_key(ty, shown, &[])) {
            return None;
        }
        let tmpl = self.store.templates.intern(stmt, Some(ty));
        let mut b = Builder::default();
        b.push_stmt(tmpl, &[]);
        self.seen.insert(b.hash.key());
        let seq = self.push_node(b, false);
        let value = ValueRef {
            seq,
            pos: 0,
            ty,
            len: 1,
        };
        self.comps.add(&self.names, value);
        Some(tmpl)
    }

    fn queue_lookups(&mut self, owner: NameId, ty: NameId, tmpl: u32) {
        if !self.sweeps.lookups_of.contains_key(&(owner, ty)) {
            let ops = self.lookups_of(owner, ty);
            self.sweeps.lookups_of.insert((owner, ty), ops);
        }
        for &op in &self.sweeps.lookups_of[&(owner, ty)] {
            if self.sweeps.queue.len < MAX_QUEUED {
                self.sweeps.queue.push(Lookup { op, tmpl, ty });
            }
        }
    }

    /// The static operations of class `owner` taking one value of type `ty`.
    fn lookups_of(&self, owner: NameId, ty: NameId) -> Vec<usize> {
        let owner = self.names.name(owner);
        (0..self.random_ops)
            .filter(|&op| {
                let o = &self.ops[op];
                !o.receiver
                    && o.inputs.len() == 1
                    && self.op_class[op] == owner
                    && self.names.assignable(ty, o.inputs[0])
            })
            .collect()
    }

    /// Lookup candidates for the start of a round: at most one in [`ROUND_SHARE`].
    pub(super) fn sweep_round(&mut self, want: usize, cands: &mut Vec<Candidate>) {
        let quota = cands.len() + want / ROUND_SHARE;
        while cands.len() < quota
            && let Some(op) = self.sweeps.catalogues.pop_front()
        {
            let mut b = Builder::default();
            let last = b.push_stmt(self.ops[op].tmpl, &[]);
            if self.seen.insert(b.hash.key()) {
                let observers = self.observers_for(last, self.ops[op].result, &[]);
                cands.push(Candidate {
                    b,
                    op,
                    last,
                    inputs: Vec::new(),
                    observers,
                    harvest: None,
                });
            }
        }
        while cands.len() < quota {
            let next = self.sweeps.queue.pop();
            let Some(l) = next.or_else(|| self.sweeps.constants.pop()) else {
                return;
            };
            let mut b = Builder::default();
            let at = b.push_stmt(l.tmpl, &[]);
            let last = b.push_stmt(self.ops[l.op].tmpl, &[at]);
            if !self.seen.insert(b.hash.key()) {
                continue;
            }
            let inputs = vec![(at, l.ty, false)];
            let result = self.runtime.get(&l.op).copied().or(self.ops[l.op].result);
            let observers = self.observers_for(last, result, &inputs);
            self.stats.lookups += 1;
            cands.push(Candidate {
                b,
                op: l.op,
                last,
                inputs,
                observers,
                harvest: None,
            });
        }
    }

    /// Queues every static call without inputs that returns an array or a collection.
    pub(super) fn queue_catalogues(&mut self) {
        let collection = self.names.intern("java.util.Collection");
        for op in 0..self.random_ops {
            let o = &self.ops[op];
            let Some(result) = o.result.filter(|_| !o.receiver && o.inputs.is_empty()) else {
                continue;
            };
            let name = self.names.name(result);
            if name.ends_with("[]")
                || COLLECTIONS.contains(&name)
                || self.names.assignable(result, collection)
            {
                self.sweeps.catalogues.push_back(op);
            }
        }
    }

    /// Mined integer constants of an API unit (a top-level class with its nested classes:
    /// `Character`, `Character.UnicodeBlock`, `Character.UnicodeScript`), each passed once to
    /// one of the unit's static lookups taking a single `int` or `long`, in turn. Tables in
    /// class files (block and script starts, limits, codes) so reach the functions that
    /// read them, which random numbers almost never do.
    pub(super) fn queue_constant_lookups(&mut self) {
        let Some(mined) = self.cfg.mined.clone() else {
            return;
        };
        let mut by_unit: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (class, values) in &mined.by_class {
            let unit = class.split('$').next().unwrap_or(class);
            by_unit
                .entry(unit)
                .or_default()
                .extend(values[Kind::Int.index()].iter().map(String::as_str));
        }
        for (unit, values) in by_unit {
            let ops = self.unary_lookups(unit);
            let mut values = values;
            values.sort_unstable();
            values.dedup();
            for (k, value) in values.into_iter().take(MAX_CONSTANTS).enumerate() {
                let Some(&(op, ty)) = ops.get(k % ops.len().max(1)) else {
                    break;
                };
                let tmpl = self.literal_template(ty, value);
                self.sweeps.constants.push(Lookup { op, tmpl, ty });
            }
        }
    }

    /// The static operations of `unit` and its nested classes taking one `int` or `long`.
    fn unary_lookups(&mut self, unit: &str) -> Vec<(usize, NameId)> {
        let nested = format!("{unit}$");
        let mut out = Vec::new();
        for op in 0..self.random_ops {
            let class = &self.op_class[op];
            let o = &self.ops[op];
            if o.receiver || o.inputs.len() != 1 || (class != unit && !class.starts_with(&nested)) {
                continue;
            }
            let ty = self.names.name(o.inputs[0]);
            if ty == "int" || ty == "long" {
                out.push((op, o.inputs[0]));
            }
        }
        out
    }

    fn literal_template(&mut self, ty: NameId, value: &str) -> u32 {
        let stmt = Statement::Literal {
            ty: self.names.name(ty).to_string(),
            value: value.to_string(),
        };
        self.store.templates.intern(stmt, Some(ty))
    }
}
