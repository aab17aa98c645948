//! Drafting one candidate (lines 5–11 of Fig. 3): a random operation, inputs from the
//! component pool (reuse a value already chosen, add another sequence, or `null`, which
//! every reference parameter also gets once in its operation's first drafts), arrays
//! built from elements in the pool, index boundaries for `int` parameters, Randoop's
//! repetition, the size limit and the duplicate check, and the observers to call on the values the new call touched.

use super::kept::ObsRef;
use super::mined::Kind;
use super::store::Builder;
use super::type_names::{NameId, is_value_type};
use super::{Candidate, Generator};
use crate::model::is_primitive;
use crate::sequence::{Observed, Statement};
use rand::Rng;

/// Most elements in an array built for a parameter.
const MAX_ARRAY: usize = 3;

/// A chosen input: position, declared type, whether it is a `null` literal.
type Input = (u32, NameId, bool);

impl Generator<'_> {
    /// A new candidate, or `None` when this attempt failed (no receiver, too long, seen).
    pub(super) fn draft(&mut self) -> Option<Candidate> {
        let op_index = self.rng.random_range(0..self.random_ops);
        let op = self.ops[op_index].clone();
        if self.banned.contains(&op.family)
            || self.left_out_ops.contains(&op_index)
            || self.timed_out_ops.contains(&op_index)
        {
            return None;
        }
        let mut b = Builder::default();
        let mut chosen: Vec<Input> = Vec::with_capacity(op.inputs.len());
        let null_at = self.null_once_at(op_index);
        for k in 0..op.inputs.len() {
            let receiver = op.receiver && k == 0;
            let (ty, slot) = (op.inputs[k], op.slots[k]);
            let input = if null_at == Some(k) {
                let tmpl = self.null_template(ty);
                Some((b.push_stmt(tmpl, &[]), ty, true))
            } else {
                match self.index_literal(ty, op_index) {
                    Some(lit) => Some(self.literal_input(&mut b, lit)),
                    None => self.input(&mut b, ty, slot, receiver, op.receiver, &chosen),
                }
            };
            let Some(input) = input.filter(|i| !receiver || !self.omitted_on(op_index, i.1)) else {
                self.stats.no_input += 1;
                return None;
            };
            chosen.push(input);
        }
        if let Some(k) = null_at {
            // Marked once every input is found: a draft that lacked a receiver tries again.
            self.nulled[op_index] |= 1 << k;
            self.stats.nulls_once += 1;
        }
        let positions: Vec<u32> = chosen.iter().map(|c| c.0).collect();
        let mut last = b.push_stmt(op.tmpl, &positions);
        if self.rng.random_bool(self.cfg.repeat_probability) {
            // Drawn whether or not the call may repeat, so the random stream (and with it
            // every later draft of a seed) is the same as when every call could; a call that
            // once returned a value too large to store whole is not repeated.
            let times = self.rng.random_range(1..=self.cfg.repeat_max.max(1));
            let times = match self.repeatable.get(&op_index) {
                Some(false) => 1,
                _ => times,
            };
            for _ in 1..times {
                if b.len as usize >= self.cfg.max_size {
                    break;
                }
                last = b.push_stmt(op.tmpl, &positions);
            }
        }
        if b.len as usize > self.cfg.max_size {
            self.stats.too_long += 1;
            return None;
        }
        if !self.seen.insert(b.hash.key()) {
            self.stats.duplicates += 1;
            return None;
        }
        let result = self.runtime.get(&op_index).copied().or(op.result);
        let observers = self.observers_for(last, result, &chosen);
        Some(Candidate {
            b,
            op: op_index,
            last,
            inputs: chosen,
            observers,
            harvest: None,
        })
    }

    /// One input of declared type `ty` (component slot `slot`).
    fn input(
        &mut self,
        b: &mut Builder,
        ty: NameId,
        slot: u32,
        receiver: bool,
        receiver_first: bool,
        chosen: &[Input],
    ) -> Option<Input> {
        if !chosen.is_empty() && self.rng.random_bool(self.cfg.alias_ratio) {
            let names = &self.names;
            // Never the receiver: `list.add(list)` makes structures that overflow the stack.
            let skip = usize::from(receiver_first);
            let reusable: Vec<&Input> = chosen[skip.min(chosen.len())..]
                .iter()
                .filter(|c| !c.2 && names.assignable(c.1, ty))
                .collect();
            if !reusable.is_empty() {
                return Some(*reusable[self.rng.random_range(0..reusable.len())]);
            }
        }
        let count = self.comps.count(slot);
        let is_array = self.names.name(ty).ends_with("[]");
        if is_array && (count == 0 || self.rng.random_bool(0.5)) {
            return Some(self.array(b, ty));
        }
        let may_be_null = !receiver && !is_primitive(self.names.name(ty));
        if may_be_null && (count == 0 || self.rng.random_bool(self.cfg.null_ratio)) {
            let tmpl = self.null_template(ty);
            return Some((b.push_stmt(tmpl, &[]), ty, true));
        }
        let v = self.comps.pick(slot, &mut self.rng)?;
        let at = b.push_seq(&self.store, v.seq);
        Some((at + v.pos, v.ty, false))
    }

    /// The parameter of operation `op` that gets `null` in this draft
    /// ([`super::GenConfig::null_once`]): the first reference parameter, receiver aside,
    /// that has not had its `null` yet.
    fn null_once_at(&self, op: usize) -> Option<usize> {
        if !self.cfg.null_once {
            return None;
        }
        let o = &self.ops[op];
        let done = self.nulled[op];
        (usize::from(o.receiver)..o.inputs.len().min(64))
            .find(|&k| done & (1 << k) == 0 && !is_primitive(self.names.name(o.inputs[k])))
    }

    /// With probability `index_ratio`, an index boundary (-1, 0 or 1) for an `int` parameter
    /// of an operation that takes an index ([`super::ops::index_ops`]): pool ints are mostly
    /// constants and hash codes, so a valid offset beside a bad range came up by chance.
    fn index_literal(&mut self, ty: NameId, op: usize) -> Option<(Kind, String)> {
        let ratio = self.cfg.index_ratio;
        if ratio <= 0.0 || !self.index_ops[op] || self.names.name(ty) != "int" {
            return None;
        }
        if !self.rng.random_bool(ratio) {
            return None;
        }
        let value = ["-1", "0", "1"][self.rng.random_range(0..3)];
        self.stats.index_boundaries += 1;
        Some((Kind::Int, value.to_string()))
    }

    /// A literal statement for a chosen special value.
    fn literal_input(&mut self, b: &mut Builder, (kind, value): (Kind, String)) -> Input {
        let ty = kind.literal_type();
        let t = self.names.intern(ty);
        let stmt = Statement::Literal {
            ty: ty.into(),
            value: value.into(),
        };
        let tmpl = self.store.templates.intern(stmt);
        (b.push_stmt(tmpl, &[]), t, false)
    }

    fn null_template(&mut self, ty: NameId) -> u32 {
        if let Some(&t) = self.null_tmpl.get(&ty) {
            return t;
        }
        let stmt = Statement::Null {
            ty: self.names.name(ty).into(),
        };
        let t = self.store.templates.intern(stmt);
        self.null_tmpl.insert(ty, t);
        t
    }

    /// `new elem[] {…}` with up to [`MAX_ARRAY`] elements from the pool.
    fn array(&mut self, b: &mut Builder, ty: NameId) -> Input {
        let full = self.names.name(ty);
        let elem = full.strip_suffix("[]").unwrap_or(full).to_string();
        let slot = self.names.get(&elem).and_then(|e| self.comps.slot(e));
        let n = match slot {
            Some(s) if self.comps.count(s) > 0 => self.rng.random_range(0..=MAX_ARRAY),
            _ => 0,
        };
        let mut elems = Vec::with_capacity(n);
        for _ in 0..n {
            if let Some(v) = slot.and_then(|s| self.comps.pick(s, &mut self.rng)) {
                elems.push(b.push_seq(&self.store, v.seq) + v.pos);
            }
        }
        let stmt = Statement::Array {
            elem: elem.as_str().into(),
            elems: vec![],
        };
        let tmpl = self.store.templates.intern(stmt);
        (b.push_stmt(tmpl, &elems), ty, false)
    }

    /// Observers on the call's value and on its object inputs (which it may have changed).
    pub(super) fn observers_for(
        &mut self,
        last: u32,
        result: Option<NameId>,
        inputs: &[Input],
    ) -> Vec<ObsRef> {
        let mut targets: Vec<(u32, NameId)> = Vec::new();
        if let Some(r) = result {
            targets.push((last, r));
        }
        for &(pos, ty, null) in inputs {
            if !null && !targets.iter().any(|t| t.0 == pos) {
                targets.push((pos, ty));
            }
        }
        let mut out = Vec::new();
        for (stmt, class) in targets {
            if is_value_type(self.names.name(class)) {
                continue;
            }
            for &method in self.observer_methods(class) {
                out.push(ObsRef {
                    stmt,
                    class,
                    method,
                });
            }
        }
        out
    }

    /// Whether the method `op` calls is left out of `receiver`'s class although a supertype
    /// has it: the class is described, `op` belongs to another class, and the class lists
    /// no method of that name, as the omit list took it out (`Provider.put`: the installed
    /// security providers are the whole JVM's). Such a receiver is not used, or the member
    /// would be reached through the supertype (`Properties.put`) all the same.
    pub(super) fn omitted_on(&mut self, op: usize, receiver: NameId) -> bool {
        if let Some(&known) = self.omitted_on.get(&(op, receiver)) {
            return known;
        }
        let class = self.names.name(receiver);
        let method = self.member_name(op);
        let omitted = class != self.op_class[op]
            && self
                .model
                .class(class)
                .is_some_and(|c| !c.methods.iter().any(|m| m.name == method));
        self.omitted_on.insert((op, receiver), omitted);
        omitted
    }

    /// Remembers the runtime class of an operation's value for choosing its observers, when
    /// `--runtime-observers` is on and the class is described and more specific than the
    /// declared type (`DateFormat.getDateInstance()` returns a `SimpleDateFormat`, whose
    /// `toPattern()` the declared type does not have).
    pub(super) fn learn_runtime(&mut self, op: usize, shown: &Observed) {
        let (Some(declared), Observed::Object { class }) = (self.ops[op].result, shown) else {
            return;
        };
        if !self.cfg.runtime_observers || self.names.name(declared) == class.as_str() {
            return;
        }
        if self.model.class(class).is_none() {
            self.runtime.remove(&op);
            return;
        }
        let runtime = self.names.intern(class);
        if self.names.assignable(runtime, declared) {
            self.runtime.insert(op, runtime);
        }
    }

    pub(super) fn observer_methods(&mut self, class: NameId) -> &[NameId] {
        if !self.obs_cache.contains_key(&class) {
            let name = self.names.name(class).to_string();
            let methods = self.observers.for_class(self.model, &name).to_vec();
            let ids = methods.iter().map(|m| self.names.intern(m)).collect();
            self.obs_cache.insert(class, ids);
        }
        &self.obs_cache[&class]
    }
}
