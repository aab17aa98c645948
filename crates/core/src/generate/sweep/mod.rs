//! Sweeping catalogues: the first array or collection each call returns is harvested
//! element by element (up to [`super::harvest::MAX_ELEMENTS`]), not only at a few random indices, and every
//! String or enum constant read from it becomes a literal of the pool and is passed, once,
//! to each lookup of the catalogue's own class: a static method or constructor taking that
//! value, alone or beside neutral values (`""`, `0`, `false`) in up to two more parameters.
//! `TimeZone.getAvailableIDs()` so yields `TimeZone.getTimeZone("Asia/Almaty")` for every
//! zone the reference knows, `ZoneId.getAvailableZoneIds()` every `ZoneId.of(…)`,
//! `Locale.getISOCountries()` every `new Locale(…)` and `new Locale("", …)`. Object elements
//! are read through their textual forms (`toString()`, `toLanguageTag()`), which go to the
//! owner's lookups the same way. A value goes to a longer overload only at a parameter no
//! shorter overload has (`new Locale("", "TR")`, not `new Locale("TR", "")`). The object a
//! lookup returns goes on, once, to every static call of any class that takes its class
//! (`Currency.getInstance(new Locale("", "CW"))`, `DateFormat.getDateTimeInstance(0, 0,
//! locale)`), and its [`products`] — what its nullary methods return — are called, two
//! levels deep (`KeyGenerator.getInstance("AES").generateKey().getEncoded()`). Mined integer
//! constants go to every int lookup of their class and its nested classes, and catalogues
//! keyed by a name get the scope's simple class names
//! (`Security.getAlgorithms("KeyGenerator")`), each swept for the lookups of the class its
//! name names (`KeyGenerator.getInstance("AES")`); [`at_start`] queues both before the first
//! round.
//!
//! Why literals: an element read by index (`Array.get(ids, 57)`) names another value on an
//! implementation whose catalogue differs, so every later element would differ; the literal
//! says what was meant. Why the owner's lookups: a catalogue's names are made for them, and a
//! String fits hundreds of other methods, which random generation already tries. Sweep
//! candidates take at most one in [`ROUND_SHARE`] of a round, catalogue values, mined
//! constants and products in turn, so generation still spends most of its budget at random.

use super::components::ValueRef;
use super::components::value_key;
use super::harvest::{Chunk, Harvest, Step};
use super::kept::ObsRef;
use super::store::{Builder, SeqId};
use super::type_names::NameId;
use super::{Candidate, Generator};
use crate::sequence::{Observed, Statement};
use std::collections::{HashMap, HashSet, VecDeque};

mod at_start;
mod products;
mod sorted;
mod stable;

pub(super) use super::harvest::Then;
pub(super) use sorted::SortedOps;

/// Share of a round's candidates that may be lookups of swept values.
const ROUND_SHARE: usize = 3;
/// Most mined constants of one API unit passed to its lookups.
const MAX_CONSTANTS: usize = 3000;
/// Most lookups waiting; later ones are dropped.
const MAX_QUEUED: usize = 50_000;

/// One lookup to try: operation `op` with a value of type `ty` as its parameter `pos`, and
/// the neutral value of its type as every other parameter.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lookup {
    op: usize,
    value: Source,
    /// What the swept value is passed as, and joins the pool as again after the call: a
    /// literal's parameter type; an object's own type (declared or runtime), never the
    /// parameter's supertype, which would free a confined value (`components`).
    ty: NameId,
    pos: u8,
}

/// Where a lookup's value comes from.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// A one-statement literal: a swept String or enum constant, or a mined constant.
    Literal(u32),
    /// The object a lookup of an element's textual form returned (statement `.1` of
    /// sequence `.0`), passed on to the calls that take its class.
    Object(SeqId, u32),
}

/// Most parameters of a lookup (the swept value and neutral values).
const MAX_LOOKUP_ARITY: usize = 3;

/// The neutral value of a parameter type that a lookup fills in beside the swept value:
/// `new Locale("", "TR")` names a country where `new Locale("TR")` names a language.
fn neutral(ty: &str) -> Option<&'static str> {
    match ty {
        "java.lang.String" => Some(""),
        "int" | "long" | "short" | "byte" => Some("0"),
        "boolean" => Some("false"),
        _ => None,
    }
}

/// The positions of a call's parameters (`inputs`, type names) where a lookup can pass a
/// value of type `ty`: those of type `ty` whose every other parameter has a [`neutral`]
/// value. A second parameter of type `ty` needs one too: `new RSAPublicKeySpec(n, e)` has
/// no neutral `BigInteger`, so it is no lookup of one (it was, with an empty literal the
/// worker refused, which banned the constructor).
fn lookup_positions(inputs: &[&str], ty: &str) -> Vec<usize> {
    let others_neutral =
        |i: usize| (inputs.iter().enumerate()).all(|(j, p)| j == i || neutral(p).is_some());
    (0..inputs.len())
        .filter(|&i| inputs[i] == ty && others_neutral(i))
        .collect()
}

/// The sweep's queues.
#[derive(Default)]
pub(super) struct Sweeps {
    /// Static calls without inputs that return an array or a collection, each drafted
    /// once at the start: the catalogues are there to sweep from the first rounds on.
    catalogues: VecDeque<usize>,
    /// Catalogues keyed by a name, each with the simple name of each class in scope, drafted
    /// right after `catalogues` (see [`Generator::queue_keyed_catalogues`]).
    keyed: VecDeque<Lookup>,
    /// The class each simple name of `keyed` names (the first in name order): what a keyed
    /// catalogue lists for it is swept for that class's lookups.
    pub(super) named: HashMap<u32, NameId>,
    /// Lookups of catalogue values, one queue per operation, taken in turn so that every
    /// catalogue advances at once.
    queue: RoundRobin,
    /// Products of looked-up objects (see [`products`]): a share of their own.
    products: RoundRobin,
    /// The product methods of each class, found once.
    products_of: HashMap<NameId, Vec<usize>>,
    /// The lookups of each (owner class, value type), found once: operation and the
    /// parameter the value is passed as.
    lookups_of: HashMap<(NameId, NameId), Vec<(usize, u8)>>,
    /// The (owner, literal) pairs whose lookups were queued.
    looked_up: HashSet<(NameId, u32)>,
    /// The static calls of any class that take one object of a class, found once.
    consumers_of: HashMap<NameId, Vec<(usize, u8)>>,
    /// Lookups of mined constants, taken in turn with `queue`.
    constants: RoundRobin,
    /// Whether the next lookup comes from `constants`.
    constants_next: bool,
    /// Sorted copies of unordered sets and maps, taken before the other lookups (see
    /// [`sorted`]).
    sorted: VecDeque<Lookup>,
    /// The constructors that make the sorted copies.
    sorted_ops: SortedOps,
    /// Catalogues being swept, each waiting for its next chunk.
    pub(super) pending: VecDeque<Harvest>,
    /// The class of each catalogue's elements, once its first element was read: `None`
    /// for values and classes the scope does not describe.
    elements: HashMap<(SeqId, u32), Option<NameId>>,
    /// The swept values of catalogues iterating in a per-JVM order, held until each is
    /// read whole (see [`stable`]).
    held: HashMap<(SeqId, u32), stable::Held>,
}

impl Sweeps {
    /// Estimated bytes the queues and tables hold (`footprint`).
    pub(super) fn heap_bytes(&self) -> u64 {
        use super::footprint::{map_bytes, set_bytes};
        let queued = self.queue.len + self.products.len + self.constants.len;
        let lookups = self.keyed.len() + self.sorted.len() + self.pending.len();
        (queued * std::mem::size_of::<(Lookup, Then)>()) as u64
            + (lookups * std::mem::size_of::<Harvest>()) as u64
            + map_bytes(&self.elements)
            + map_bytes(&self.held)
            + set_bytes(&self.looked_up)
            + map_bytes(&self.lookups_of)
    }
}

impl Lookup {
    fn visit_seq(&mut self, f: &mut dyn FnMut(&mut SeqId)) {
        if let Source::Object(seq, _) = &mut self.value {
            f(seq);
        }
    }
}

impl Sweeps {
    /// Calls `f` on every stored sequence the queues and tables name, which may rename it
    /// (`compact`).
    pub(super) fn visit_seqs(&mut self, f: &mut dyn FnMut(&mut SeqId)) {
        let lookups = self.keyed.iter_mut().chain(&mut self.sorted);
        lookups.for_each(|l| l.visit_seq(f));
        for queue in [&mut self.queue, &mut self.products, &mut self.constants] {
            queue
                .queues
                .iter_mut()
                .flatten()
                .for_each(|(l, _)| l.visit_seq(f));
        }
        self.pending.iter_mut().for_each(|h| f(&mut h.seq));
        self.elements = rekeyed(std::mem::take(&mut self.elements), f);
        self.held = rekeyed(std::mem::take(&mut self.held), f);
    }
}

/// `map` with `f` applied to the sequence of each key.
fn rekeyed<V>(
    map: HashMap<(SeqId, u32), V>,
    f: &mut dyn FnMut(&mut SeqId),
) -> HashMap<(SeqId, u32), V> {
    let rename = |((mut seq, pos), v)| {
        f(&mut seq);
        ((seq, pos), v)
    };
    map.into_iter().map(rename).collect()
}

/// Queues per operation, popped in turn.
#[derive(Default)]
struct RoundRobin {
    /// Lookups, and what becomes of the new object each returns.
    queues: Vec<VecDeque<(Lookup, Then)>>,
    of_op: HashMap<usize, usize>,
    next: usize,
    len: usize,
}

impl RoundRobin {
    fn push(&mut self, l: Lookup, then: Then) {
        let n = self.queues.len();
        let i = *self.of_op.entry(l.op).or_insert(n);
        if i == n {
            self.queues.push(VecDeque::new());
        }
        self.queues[i].push_back((l, then));
        self.len += 1;
    }

    /// How many lookups of operation `op` wait.
    fn waiting(&self, op: usize) -> usize {
        self.of_op.get(&op).map_or(0, |&i| self.queues[i].len())
    }

    fn pop(&mut self) -> Option<(Lookup, Then)> {
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
                Observed::Value { .. } => self.sweep_or_hold(chunk.key, chunk.owner, shown),
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
                self.sweep_or_hold(chunk.key, chunk.owner, text);
            }
        }
    }

    /// A String or enum constant read from a catalogue of class `owner` (when swept): it
    /// joins the pool as a literal, and the owner's lookups of it are queued. Returns false
    /// for other values, which join the pool as before.
    pub(super) fn sweep_value(&mut self, owner: Option<NameId>, shown: &Observed) -> bool {
        self.sweep_text(owner, shown)
    }

    /// [`Self::sweep_value`], also for an object element's textual form.
    fn sweep_text(&mut self, owner: Option<NameId>, shown: &Observed) -> bool {
        let Observed::Value { class, text } = shown else {
            return false;
        };
        let stmt = if class == "java.lang.String" {
            Statement::Literal {
                ty: class.as_str().into(),
                value: text.as_str().into(),
            }
        } else if self
            .model
            .class(class)
            .is_some_and(|c| c.enum_constants.contains(text))
        {
            Statement::Enum {
                ty: class.as_str().into(),
                constant: text.as_str().into(),
            }
        } else {
            return false;
        };
        let ty = self.names.intern(class);
        let tmpl = self.store.templates.intern(stmt.clone());
        self.seed_value(stmt, ty, shown);
        // Once per owner, even when another catalogue named the value first: zone IDs
        // come from `ZoneId` and from `TimeZone`, and each has its own lookups.
        if let Some(owner) = owner
            && self.sweeps.looked_up.insert((owner, tmpl))
        {
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
        let tmpl = self.store.templates.intern(stmt);
        let mut b = Builder::default();
        b.push_stmt(tmpl, &[]);
        self.seen.insert(b.hash.key());
        let seq = self.push_node(b, super::Role::Component);
        let value = ValueRef {
            seq,
            pos: 0,
            ty,
            len: 1,
        };
        self.comps.add(&self.names, value);
        Some(tmpl)
    }

    /// Queues the owner's lookups of a swept value; what each returns goes on to the calls
    /// that take its class.
    fn queue_lookups(&mut self, owner: NameId, ty: NameId, tmpl: u32) {
        if !self.sweeps.lookups_of.contains_key(&(owner, ty)) {
            let ops = self.lookups_of(owner, ty);
            self.sweeps.lookups_of.insert((owner, ty), ops);
        }
        let value = Source::Literal(tmpl);
        for &(op, pos) in &self.sweeps.lookups_of[&(owner, ty)] {
            if self.sweeps.queue.len < MAX_QUEUED {
                let l = Lookup { op, value, ty, pos };
                self.sweeps.queue.push(l, Then::NAMED);
            }
        }
    }

    /// After a lookup returned a new object `shown` (statement `pos` of sequence `seq`,
    /// declared as `declared`): it goes on as `then` says.
    pub(super) fn pass_on(
        &mut self,
        seq: SeqId,
        pos: u32,
        shown: &Observed,
        declared: Option<NameId>,
        then: Then,
    ) {
        let Some(ty) = self.described_object(shown, declared) else {
            return;
        };
        if then.consumers {
            self.queue_consumers(seq, pos, ty);
        }
        if then.products > 0 && self.cfg.products {
            self.queue_products(seq, pos, ty, then.products - 1);
        }
    }

    /// The object is passed, once, to every static call of any class that takes its
    /// class — `Calendar.getInstance(locale)`, `DateFormat.getDateTimeInstance(0, 0,
    /// locale)` for each locale a catalogue's values made.
    fn queue_consumers(&mut self, seq: SeqId, pos: u32, ty: NameId) {
        if !self.sweeps.consumers_of.contains_key(&ty) {
            let ops = self.calls_taking(None, ty);
            self.sweeps.consumers_of.insert(ty, ops);
        }
        let value = Source::Object(seq, pos);
        for &(op, pos) in &self.sweeps.consumers_of[&ty] {
            if self.sweeps.queue.len < MAX_QUEUED {
                self.sweeps
                    .queue
                    .push(Lookup { op, value, ty, pos }, Then::NOTHING);
            }
        }
    }

    /// The class an object is passed on as: its own class when the scope describes it,
    /// else the type its call declared when the scope describes that. A registry often
    /// returns a class of its own that is not public (`KeyPairGenerator.getInstance("EC")`
    /// returns a `KeyPairGenerator$Delegate`, `ZoneId.of(…)` a `ZoneRegion`); its declared
    /// type's methods still reach what it makes.
    fn described_object(&mut self, shown: &Observed, declared: Option<NameId>) -> Option<NameId> {
        let Observed::Object { class } = shown else {
            return None;
        };
        if self.model.class(class).is_some() {
            return Some(self.names.intern(class));
        }
        declared.filter(|&d| self.model.class(self.names.name(d)).is_some())
    }

    /// The static operations of class `owner` that take a value of type `ty`: those with
    /// one parameter it is assignable to, and those with up to [`MAX_LOOKUP_ARITY`] where
    /// one parameter is of type `ty` and every other has a [`neutral`] value — once for
    /// each such parameter.
    fn lookups_of(&self, owner: NameId, ty: NameId) -> Vec<(usize, u8)> {
        self.calls_taking(Some(owner), ty)
    }

    /// The static operations (of class `owner`, or of any class with a result) taking a
    /// value of type `ty`, as [`Self::lookups_of`] describes.
    fn calls_taking(&self, owner: Option<NameId>, ty: NameId) -> Vec<(usize, u8)> {
        let owner = owner.map(|o| self.names.name(o));
        let mut out = Vec::new();
        let mut inherited = HashSet::new();
        for op in 0..self.random_ops {
            let o = &self.ops[op];
            let mine = match owner {
                Some(owner) => self.op_class[op] == owner,
                // A static method listed on each subclass too is one call.
                None => {
                    !o.receiver && o.result.is_some() && inherited.insert(self.static_signature(op))
                }
            };
            if o.receiver || !mine {
                continue;
            }
            match o.inputs.len() {
                1 if owner.is_none() && o.inputs[0] == ty => out.push((op, 0)),
                1 if owner.is_some() && self.names.assignable(ty, o.inputs[0]) => out.push((op, 0)),
                2..=MAX_LOOKUP_ARITY => {
                    let names: Vec<&str> = o.inputs.iter().map(|&p| self.names.name(p)).collect();
                    let at = lookup_positions(&names, self.names.name(ty)).into_iter();
                    let at = at.filter(|&i| !self.telescoped(op, i));
                    out.extend(at.map(|i| (op, i as u8)));
                }
                _ => {}
            }
        }
        out
    }

    /// Whether a shorter overload of the same member takes the same leading parameters up to
    /// and including parameter `pos` (`new Locale(l)` for `new Locale(l, "")`, `new
    /// Locale(l, c)` for `new Locale(l, c, "")`): with neutral values after `pos`, the longer
    /// one mostly says again what the shorter says, so a value goes to the shorter only.
    fn telescoped(&self, op: usize, pos: usize) -> bool {
        let inputs = &self.ops[op].inputs;
        let name = self.member_name(op);
        (0..self.random_ops).any(|other| {
            let o = &self.ops[other];
            !o.receiver
                && o.inputs.len() > pos
                && o.inputs.len() < inputs.len()
                && o.inputs[..] == inputs[..o.inputs.len()]
                && self.op_class[other] == self.op_class[op]
                && self.member_name(other) == name
        })
    }

    /// A constructor's or method's name without its class (`<init>` for constructors).
    pub(in crate::generate) fn member_name(&self, op: usize) -> &str {
        match &self.store.templates.get(self.ops[op].tmpl).stmt {
            Statement::Call { method, .. } => method,
            Statement::New { .. } => "<init>",
            _ => "",
        }
    }

    /// A static method's name, parameters and result: the same on every class that lists
    /// it (`NumberFormat.getInstance(Locale)` on `DecimalFormat`); a constructor is its own.
    fn static_signature(&self, op: usize) -> (String, Option<NameId>) {
        let stmt = &self.store.templates.get(self.ops[op].tmpl).stmt;
        let key = match stmt {
            Statement::Call { method, params, .. } => format!("{method}({})", params.join(",")),
            other => other.callee(),
        };
        (key, self.ops[op].result)
    }

    /// Lookup candidates for the start of a round: at most one in [`ROUND_SHARE`], after
    /// the products' own share.
    pub(super) fn sweep_round(&mut self, want: usize, cands: &mut Vec<Candidate>) {
        self.product_round(want, cands);
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
        while cands.len() < quota
            && let Some(l) = self.sweeps.keyed.pop_front()
        {
            cands.extend(self.lookup_candidate(l, Then::NOTHING));
        }
        while cands.len() < quota
            && let Some(l) = self.sweeps.sorted.pop_front()
        {
            let copy = self.lookup_candidate(l, Then::NOTHING);
            self.stats.sorted_copies += u64::from(copy.is_some());
            cands.extend(copy);
        }
        while cands.len() < quota {
            // Catalogue values and mined constants in turn, so neither starves the other.
            self.sweeps.constants_next = !self.sweeps.constants_next;
            let (first, second) = match self.sweeps.constants_next {
                true => (&mut self.sweeps.constants, &mut self.sweeps.queue),
                false => (&mut self.sweeps.queue, &mut self.sweeps.constants),
            };
            let Some((l, then)) = first.pop().or_else(|| second.pop()) else {
                return;
            };
            cands.extend(self.lookup_candidate(l, then));
        }
    }

    /// A lookup's candidate, unless the same sequence ran before; what it returns goes on
    /// as `then` says.
    fn lookup_candidate(&mut self, l: Lookup, then: Then) -> Option<Candidate> {
        if self.timed_out_ops.contains(&l.op) {
            return None;
        }
        let (b, last, inputs) = self.lookup_call(l);
        if !self.seen.insert(b.hash.key()) {
            return None;
        }
        match l.value {
            Source::Object(..) if self.ops[l.op].receiver => self.stats.products += 1,
            Source::Object(..) => self.stats.consumers += 1,
            Source::Literal(_) => {}
        }
        let result = self.runtime.get(&l.op).copied().or(self.ops[l.op].result);
        let observers = self.observers_for(last, result, &inputs);
        self.stats.lookups += 1;
        Some(Candidate {
            b,
            op: l.op,
            last,
            inputs,
            observers,
            harvest: then.anything().then_some(Step::Lookup(then)),
        })
    }

    /// The statements of a lookup: the swept value, a neutral value for each other
    /// parameter, the call.
    fn lookup_call(&mut self, l: Lookup) -> (Builder, u32, Vec<(u32, NameId, bool)>) {
        let params = self.ops[l.op].inputs.clone();
        let mut b = Builder::default();
        let mut inputs = Vec::with_capacity(params.len());
        for (i, &p) in params.iter().enumerate() {
            let at = if i == usize::from(l.pos) {
                match l.value {
                    Source::Literal(tmpl) => b.push_stmt(tmpl, &[]),
                    Source::Object(seq, pos) => b.push_seq(&self.store, seq) + pos,
                }
            } else {
                let value = neutral(self.names.name(p)).unwrap_or_default();
                let tmpl = self.literal_template(p, value);
                b.push_stmt(tmpl, &[])
            };
            inputs.push((at, if i == usize::from(l.pos) { l.ty } else { p }, false));
        }
        let at: Vec<u32> = inputs.iter().map(|i| i.0).collect();
        let last = b.push_stmt(self.ops[l.op].tmpl, &at);
        (b, last, inputs)
    }

    pub(in crate::generate) fn literal_template(&mut self, ty: NameId, value: &str) -> u32 {
        let stmt = Statement::Literal {
            ty: self.names.shared(ty),
            value: value.into(),
        };
        self.store.templates.intern(stmt)
    }
}

#[cfg(test)]
mod lookup_tests {
    use super::lookup_positions;

    #[test]
    fn a_lookup_fills_only_parameters_with_a_neutral_value() {
        let big = "java.math.BigInteger";
        assert!(lookup_positions(&[big, big], big).is_empty());
        let s = "java.lang.String";
        assert_eq!(lookup_positions(&[s, s], s), [0, 1]);
        let locale = "java.util.Locale";
        assert_eq!(lookup_positions(&["int", "int", locale], locale), [2]);
        assert!(lookup_positions(&[locale, big], locale).is_empty());
        assert_eq!(lookup_positions(&[locale, "boolean"], locale), [0]);
    }
}
