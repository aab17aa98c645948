//! Folding one executed candidate back into the generator (lines 13–20 of Fig. 3): contract
//! violations become error-revealing tests; every other sequence that ran becomes a
//! regression test with its checks; a sequence that ended normally offers its new values to
//! the component pool through the null and equality filters, while one that threw does not
//! (the exception filter). An object passed to a call that returned nothing passes the
//! equality filter once more per such call even when its observers show nothing new: a
//! closed stream, an updated digest or an initialized generator looks like the object before
//! the call, and later calls should meet it. Components of a kept test become lexically
//! redundant.

use super::components::{ValueRef, value_key};
use super::harvest::Step;
use super::kept::{ErrorKept, KeptTest, ObsRef, retain_observers, trim_unchecked};
use super::per_jvm::per_jvm_vars;
use super::store::{Builder, Part, SeqId};
use super::taint::{iteration_order, unordered};
use super::type_names::NameId;
use super::{Candidate, Generator, Role};
use crate::contracts::exception_violation;
use crate::message::SeqRequest;
use crate::observe::looks_identity_based;
use crate::sequence::caller_stack;
use crate::sequence::{ClasspathFault, Observed, SeqResult, Statement, Violation};

/// A call that returned nothing (its operation) and the input slot a value filled in it.
type Hidden = (usize, usize);

/// Largest magnitude of a number a call returned that later calls may use: hash codes and
/// the like as sizes or capacities only exhaust the heap.
const MAX_REUSED_NUMBER: f64 = 1_000.0;
/// Longest text (a returned string, or what an object's observers show) of a value that
/// later calls may use: huge numbers and strings make later calls slow (`pow`,
/// `nextProbablePrime`, `toString` of a million digits) without testing anything new.
const MAX_REUSED_TEXT: usize = 200;

/// Errors of the JVM rather than of the code: they depend on heap and stack sizes.
fn is_vm_error(o: &Observed) -> bool {
    matches!(o, Observed::Threw { class, .. }
        if class == "java.lang.OutOfMemoryError" || class == "java.lang.StackOverflowError")
}

/// Whether a returned value may be an input of later calls.
fn usable_value(class: &str, text: &str) -> bool {
    if looks_identity_based(text) || text.len() > MAX_REUSED_TEXT {
        return false;
    }
    match class {
        "java.lang.Integer" | "java.lang.Long" | "java.lang.Short" | "java.lang.Byte"
        | "java.lang.Double" | "java.lang.Float" => text
            .parse::<f64>()
            .is_ok_and(|v| v.abs() <= MAX_REUSED_NUMBER),
        _ => true,
    }
}

/// `Threw` without an identity-based message; `None` for text that changes run to run.
fn stable(o: &Observed) -> Option<Observed> {
    match o {
        Observed::Value { text, .. } if looks_identity_based(text) => None,
        Observed::Threw {
            class,
            message: Some(m),
            ..
        } if looks_identity_based(m) => Some(Observed::threw(class, None)),
        Observed::Missing { .. } => None,
        other => Some(other.clone()),
    }
}

/// The callee whose call failed because the class path lacks a class, and what it lacked:
/// the last step, or an observer (called only after every step ran normally).
fn classpath_fault(
    req: &SeqRequest,
    steps: &[Observed],
    observations: &[Observed],
) -> Option<(String, ClasspathFault)> {
    let last = steps.len().checked_sub(1)?;
    if let Some(fault) = steps[last].classpath() {
        let callee = req.statements.get(last)?.callee();
        return Some((callee, fault.clone()));
    }
    observations
        .iter()
        .zip(&req.observers)
        .find_map(|(o, call)| {
            let fault = o.classpath()?;
            Some((format!("{}.{}()", call.class, call.method), fault.clone()))
        })
}

impl Generator<'_> {
    /// A call of `callee` needed a class the class path lacks: the sequence is no test. The
    /// callable is left out (its operations never drawn again); unless missing classes are
    /// allowed, generation then stops ([`super::StopReason::MissingClasses`]).
    fn leave_out(&mut self, callee: String, fault: ClasspathFault) {
        self.stats.invalid += 1;
        if self.left_out.contains_key(&callee) {
            return;
        }
        for (i, op) in self.ops.iter().enumerate() {
            if self.store.templates.get(op.tmpl).stmt.callee() == callee {
                self.left_out_ops.insert(i);
            }
        }
        self.left_out.insert(callee, fault);
    }

    /// A call of operation `op` timed out: its callable is not drafted again (each timeout
    /// kills a worker, and the next one starts cold), and it is counted for the summary.
    fn drop_timed_out(&mut self, op: usize) {
        let callee = self.store.templates.get(self.ops[op].tmpl).stmt.callee();
        let count = self.timed_out_callables.entry(callee.clone()).or_default();
        *count += 1;
        if *count > 1 {
            return;
        }
        for (i, other) in self.ops.iter().enumerate() {
            if self.store.templates.get(other.tmpl).stmt.callee() == callee {
                self.timed_out_ops.insert(i);
            }
        }
    }

    /// Whether operation `op` may be repeated from now on, from what its call gave at the end
    /// of a sequence that ran whole: never once it returned a value too large to store (each
    /// repeat would hold another such value, and a hundred of them outlast any timeout).
    fn note_repeatable(&mut self, op: usize, last: &Observed) {
        if matches!(last, Observed::Large { .. }) {
            self.repeatable.insert(op, false);
        } else if !last.is_abnormal() {
            self.repeatable.entry(op).or_insert(true);
        }
    }

    pub(super) fn fold(&mut self, c: Candidate, req: &SeqRequest, result: SeqResult) {
        self.stats.executed += 1;
        self.stats.statements += req.statements.len() as u64;
        match result {
            SeqResult::Done {
                steps,
                observations,
                violations,
                contents,
            } => self.fold_done(c, req, steps, observations, violations, contents),
            SeqResult::Timeout { .. } => {
                self.stats.timeouts += 1;
                self.drop_timed_out(c.op);
                // The family is banned at its second timeout: one may be a slow moment (a
                // class's first use), which should not cost the same method on every class.
                let family = self.ops[c.op].family;
                if !self.timed_out.insert(family) {
                    self.banned.insert(family);
                }
            }
            SeqResult::Crash { .. } => {
                self.stats.crashes += 1;
                self.banned.insert(self.ops[c.op].family);
            }
        }
    }

    fn fold_done(
        &mut self,
        mut c: Candidate,
        req: &SeqRequest,
        steps: Vec<Observed>,
        observations: Vec<Observed>,
        violations: Vec<Violation>,
        contents: Vec<(u32, i32)>,
    ) {
        let n = steps.len();
        let Some(last_step) = steps.last() else {
            self.stats.invalid += 1;
            return;
        };
        if n == c.b.len as usize {
            self.note_repeatable(c.op, last_step);
        }
        if let Some((callee, fault)) = classpath_fault(req, &steps, &observations) {
            self.leave_out(callee, fault);
            return;
        }
        if n < c.b.len as usize {
            if !last_step.is_abnormal() {
                self.stats.invalid += 1;
                return;
            }
            match self.truncate(&c, n) {
                Some(t) => c = t,
                None => return,
            }
        }
        if matches!(last_step, Observed::Missing { .. }) {
            self.stats.invalid += 1;
            return;
        }
        if is_vm_error(last_step) {
            self.stats.vm_errors += 1;
            return;
        }
        let stmts = &req.statements[..n];
        let violation = violations.into_iter().next();
        if let Some(v) = violation.or_else(|| exception_violation(stmts, &steps)) {
            self.stats.violations += 1;
            let seq = self.push_node(c.b, Role::Component);
            let id = self.take_id();
            self.errors.push(ErrorKept {
                id,
                seq,
                violation: v,
            });
            return;
        }
        let normal = !last_step.is_abnormal();
        if normal {
            self.learn_runtime(c.op, last_step);
        }
        let observations = if normal { &observations[..] } else { &[] };
        self.keep_test(c, stmts, &steps, observations, contents, normal);
    }

    fn keep_test(
        &mut self,
        c: Candidate,
        stmts: &[Statement],
        steps: &[Observed],
        observations: &[Observed],
        contents: Vec<(u32, i32)>,
        normal: bool,
    ) {
        let mut checks = self.checks(stmts, steps);
        let (mut observers, mut observed) = self.observations(&c.observers, observations, steps);
        let mut stack = caller_stack(stmts);
        let mut vars = stack.clone();
        if let Some(order) = iteration_order(stmts, steps) {
            for (i, (s, v)) in order.step.iter().zip(&order.var).enumerate() {
                stack[i] |= s;
                vars[i] |= v;
            }
        }
        let per_jvm = if self.cfg.per_jvm_values_in_pool {
            Vec::new()
        } else {
            per_jvm_vars(stmts, steps, &vars, &self.observers)
        };
        let varies: Vec<u32> = (0..stmts.len() as u32)
            .filter(|&i| stack[i as usize])
            .collect();
        if !varies.is_empty() {
            checks.retain(|&(step, _)| !stack[step as usize]);
            retain_observers(&mut observers, &mut observed, |v| !vars[v as usize]);
        }
        if let Some(Step::Sweep(chunk)) = c.harvest {
            if normal {
                self.swept(chunk, c.last as usize, steps, &c.observers, observations);
            }
            if chunk.last {
                self.release_held(chunk.key);
            }
            // A swept element is read by index, which names another value where the
            // catalogue differs; the lookups of its literal are the tests.
            checks.clear();
            retain_observers(&mut observers, &mut observed, |_| false);
        }
        // A sequence that checks nothing is no test (reruns would drop it), but a component.
        let is_test = !(checks.is_empty() && observers.is_empty());
        if is_test {
            self.subsume_parts(c.b.parts().seqs().collect());
        }
        let role = match (is_test, observers.is_empty()) {
            (false, _) => Role::Component,
            (true, true) => Role::Checks,
            (true, false) => Role::Observes,
        };
        let Candidate {
            b,
            op,
            last,
            inputs,
            harvest,
            ..
        } = c;
        let seq = self.push_node(b, role);
        let mut result = self.ops[op].result;
        let mut offer = normal;
        if normal
            && let Some(step) = harvest
            && let Some(elem) = self.harvested(
                step,
                steps,
                last as usize,
                per_jvm.get(last as usize) == Some(&true),
            )
        {
            result = elem;
            offer = elem.is_some();
        }
        let joined = offer
            && self.extend_pool(
                seq, op, result, last, &inputs, steps, &observers, &observed, &per_jvm,
            );
        // A lookup's object goes on unless an equal one went before (`new Locale("AD")` and
        // `Locale.forLanguageTag("AD")` are one locale).
        if joined && let Some(Step::Lookup(then)) = harvest {
            self.pass_on(seq, last, &steps[last as usize], result, then);
        }
        if joined && self.cfg.sorted_copies {
            self.queue_sorted_copy(seq, last, result, &steps[last as usize]);
        }
        match (is_test, normal) {
            (false, _) => {
                self.stats.unchecked += 1;
                return;
            }
            (true, true) => self.stats.kept_normal += 1,
            (true, false) => self.stats.kept_exceptional += 1,
        }
        let id = self.take_id();
        let mut test = KeptTest {
            id,
            seq,
            code: self.store.flat_words(self.store.node(seq).parts),
            checks,
            observers,
            observations: observed,
            varies,
            contents,
        };
        test.checks.shrink_to_fit();
        test.observers.shrink_to_fit();
        test.observations.shrink_to_fit();
        test.contents.shrink_to_fit();
        self.tests.push(&test);
    }

    /// Offers the values the last call returned or touched to the component pool, except
    /// those `per_jvm` marks ([`super::per_jvm`]); says whether what the last call returned
    /// joined it. An input of a call that returned nothing may have changed in a way no
    /// observer shows (a stream closed, a digest updated): see [`Self::offer`].
    #[allow(clippy::too_many_arguments)]
    fn extend_pool(
        &mut self,
        seq: SeqId,
        op: usize,
        result: Option<NameId>,
        last: u32,
        inputs: &[(u32, NameId, bool)],
        steps: &[Observed],
        observers: &[ObsRef],
        observed: &[Option<Observed>],
        per_jvm: &[bool],
    ) -> bool {
        let mut targets: Vec<(u32, NameId, Option<Hidden>)> = Vec::new();
        if let Some(r) = result
            && !matches!(steps[last as usize], Observed::Null)
        {
            targets.push((last, r, None));
        }
        let void = self.cfg.hidden_state && matches!(steps[last as usize], Observed::Void);
        for (slot, &(pos, ty, null)) in inputs.iter().enumerate() {
            let object = matches!(steps[pos as usize], Observed::Object { .. });
            if !null && object && !targets.iter().any(|t| t.0 == pos) {
                targets.push((pos, ty, void.then_some((op, slot))));
            }
        }
        targets.retain(|&(pos, _, _)| per_jvm.get(pos as usize) != Some(&true));
        let mut joined = false;
        for (pos, ty, hidden) in targets {
            let shown = &steps[pos as usize];
            let new = self.offer(seq, pos, ty, shown, observers, observed, hidden);
            joined |= new && pos == last;
        }
        joined
    }

    /// The null and equality filters; a value that passes joins the component pool (and
    /// `true` is returned).
    ///
    /// `hidden` names the call that returned nothing and the input slot the value filled:
    /// such a call may change what no observer shows (`close()`, `update(bytes)`,
    /// `initialize(384)`), so a value that looks like one seen before still joins, once per
    /// look and call, and later calls see it closed, updated, initialized.
    #[allow(clippy::too_many_arguments)]
    fn offer(
        &mut self,
        seq: SeqId,
        pos: u32,
        ty: NameId,
        shown: &Observed,
        observers: &[ObsRef],
        observed: &[Option<Observed>],
        hidden: Option<Hidden>,
    ) -> bool {
        let own: Vec<(NameId, &Observed)> = (observers.iter().zip(observed))
            .filter(|(o, _)| o.stmt == pos)
            .filter_map(|(o, v)| Some((o.method, v.as_ref()?)))
            .collect();
        let big = own.iter().any(|&(_, v)| too_big(v));
        let extensible = match shown {
            Observed::Null | Observed::Void => false,
            Observed::Value { class, text } if !usable_value(class, text) => false,
            Observed::Large { .. } => false,
            Observed::Object { .. } if own.is_empty() => true,
            Observed::Object { .. } if big => {
                // Too big to pass on, but a catalogue (`Currency.getAvailableCurrencies()`,
                // whose text lists every currency) is still harvested and swept.
                if self.comps.first_seen(value_key(ty, shown, &own)) {
                    self.queue_harvest(seq, pos, ty, shown);
                }
                false
            }
            _ => {
                let key = value_key(ty, shown, &own);
                self.comps.first_seen(key)
                    || hidden.is_some_and(|after| self.first_seen_after(key, after))
            }
        };
        if extensible {
            let len = self.store.node(seq).len;
            self.comps.add(&self.names, ValueRef { seq, pos, ty, len });
            self.queue_harvest(seq, pos, ty, shown);
        } else if self.unswept_keyed(seq, pos) {
            self.queue_harvest(seq, pos, ty, shown);
        }
        extensible
    }

    /// Whether a value whose look (`key`, seen before) is new after call `after`, whose
    /// changes no observer may show; counted.
    fn first_seen_after(&mut self, key: u128, after: Hidden) -> bool {
        let new = self.comps.first_seen(crate::hash::key128(&(key, after)));
        self.stats.hidden_states += u64::from(new);
        new
    }

    /// Marks the tests `parts` contains that check steps only as lexically redundant (see
    /// [`Role`]); through a sequence that is no test, its own components too.
    fn subsume_parts(&mut self, seqs: Vec<SeqId>) {
        for id in seqs {
            let i = id as usize;
            if self.subsumed[i] || self.roles[i] == Role::Observes {
                continue;
            }
            self.subsumed[i] = true;
            if self.roles[i] == Role::Checks {
                self.redundant += 1;
            } else {
                let inner = self.store.node(id).parts.seqs().collect();
                self.subsume_parts(inner);
            }
        }
    }

    /// Step values worth checking: not literals, not objects, not identity-based.
    fn checks(&mut self, stmts: &[Statement], steps: &[Observed]) -> Vec<(u32, Observed)> {
        let mut out = Vec::new();
        for (i, (s, o)) in stmts.iter().zip(steps).enumerate() {
            let shape = matches!(
                s,
                Statement::Literal { .. } | Statement::Null { .. } | Statement::Enum { .. }
            );
            let kind = matches!(
                o,
                Observed::Value { .. }
                    | Observed::Large { .. }
                    | Observed::Null
                    | Observed::Threw { .. }
            );
            if !shape
                && kind
                && let Some(v) = stable(o)
            {
                out.push((i as u32, v));
            }
        }
        out
    }

    fn observations(
        &mut self,
        calls: &[ObsRef],
        got: &[Observed],
        steps: &[Observed],
    ) -> (Vec<ObsRef>, Vec<Option<Observed>>) {
        let mut observers = Vec::new();
        let mut values = Vec::new();
        for (o, v) in calls.iter().zip(got) {
            if !self.fits(o, steps) {
                self.stats.misfit_observers += 1;
                continue;
            }
            let v = stable(v).filter(|_| !self.unordered_text(o, steps));
            observers.push(*o);
            values.push(v);
        }
        trim_unchecked(&mut observers, &mut values);
        (observers, values)
    }

    /// Whether observer `o` belongs to a class its value is an instance of. An observer
    /// chosen on the class its operation returned last time (`--runtime-observers`) can meet
    /// a value of another class, as `RealFieldElement.pow(int)` returns a `SparseGradient`
    /// or a `Decimal64`: its value is then an `IllegalArgumentException` of reflection, or
    /// an inherited method's answer under the wrong class's name, and a reproducer casting
    /// to that class would throw. Such an observer is left out of the test, not kept
    /// unchecked: a reproducer would still cast. A class the model does not describe cannot
    /// be checked and passes.
    fn fits(&mut self, o: &ObsRef, steps: &[Observed]) -> bool {
        let Some(Observed::Object { class }) = steps.get(o.stmt as usize) else {
            return true;
        };
        if class.as_str() == self.names.name(o.class) || self.model.class(class).is_none() {
            return true;
        }
        let actual = self.names.intern(class);
        self.names.assignable(actual, o.class)
    }

    /// Whether an observer is the `toString()` of one of the JDK's immutable sets or maps
    /// (`Set.of`, `Map.of`, `Collectors.toUnmodifiableSet`), whose iteration order is
    /// randomized per JVM by design: its text changes from run to run.
    fn unordered_text(&self, o: &ObsRef, steps: &[Observed]) -> bool {
        self.names.name(o.method) == "toString" && steps.get(o.stmt as usize).is_some_and(unordered)
    }

    /// The candidate cut after its first `n` statements (the last of which threw); `None`
    /// when that shorter sequence was seen before.
    fn truncate(&mut self, c: &Candidate, n: usize) -> Option<Candidate> {
        let mut b = Builder::default();
        for part in c.b.parts().iter() {
            if b.len as usize >= n {
                break;
            }
            match part {
                Part::Seq(id) if (b.len + self.store.node(id).len) as usize <= n => {
                    b.push_seq(&self.store, id);
                }
                Part::Seq(id) => {
                    let base = b.len;
                    for (t, inputs) in self.store.flatten(self.store.node(id).parts) {
                        if b.len as usize >= n {
                            break;
                        }
                        let shifted: Vec<u32> = inputs.iter().map(|i| i + base).collect();
                        b.push_stmt(t, &shifted);
                    }
                }
                Part::Stmt { tmpl, inputs } => {
                    b.push_stmt(tmpl, inputs);
                }
            }
        }
        self.stats.truncated += 1;
        if !self.seen.insert(b.hash.key()) {
            self.stats.duplicates += 1;
            return None;
        }
        Some(Candidate {
            b,
            op: c.op,
            last: n as u32 - 1,
            inputs: Vec::new(),
            observers: Vec::new(),
            harvest: None,
        })
    }
}

/// Whether an observed value is text too long to reuse.
fn too_big(v: &Observed) -> bool {
    match v {
        Observed::Value { text, .. } => text.len() > MAX_REUSED_TEXT,
        Observed::Large { .. } => true,
        _ => false,
    }
}
