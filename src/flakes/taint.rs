//! Nondeterminism follows data: once a step is known to give different values from run to
//! run, every later step that reads it — and every object such a step may have changed —
//! is suspect too, even when its own value happened to come out the same in every rerun
//! (a boolean computed from a random string is the same six times in a row often enough).
//! This module works out which steps and variables of one test are tainted that way (what
//! depends on the caller's stack is [`crate::sequence::caller_stack`]).

use crate::observe::looks_identity_based;
use crate::sequence::{Observed, Statement};

/// Which steps (and so which variables) of a test may be nondeterministic.
#[derive(Debug, PartialEq, Eq)]
pub struct Taint {
    /// `step[i]`: the value statement `i` returned may differ from run to run.
    pub step: Vec<bool>,
    /// `var[i]`: variable `i` may hold a different value or state at the end of the test.
    pub var: Vec<bool>,
}

impl Taint {
    #[cfg(test)]
    pub fn any(&self) -> bool {
        self.var.iter().any(|&t| t)
    }
}

/// Spreads taint forward from the `changed` steps and from steps whose value is
/// identity-based text (`java.lang.Object@1b6d3586`). A step is tainted when it is a root or
/// reads a tainted variable. A step that changed or read a tainted variable also taints the
/// objects it reads: it may have stored the unstable value in them (`list.add(random)`), or
/// its value may come from their state (`iterator.next()` over a hash set). Values that
/// cannot change after they are made — primitives, boxes, strings, enum constants, null —
/// are never tainted after the fact; nor is the receiver of a call whose only fault is an
/// identity-based rendering.
pub fn spread(stmts: &[Statement], steps: &[Observed], changed: &[u32]) -> Taint {
    let n = stmts.len();
    let mut step = vec![false; n];
    let mut var = vec![false; n];
    for &c in changed {
        if let Some(t) = step.get_mut(c as usize) {
            *t = true;
        }
    }
    for (i, s) in stmts.iter().enumerate() {
        let inputs = s.inputs();
        let spreads = step[i] || inputs.iter().any(|&j| var.get(j) == Some(&true));
        if !spreads && !steps.get(i).is_some_and(identity_based) {
            continue;
        }
        step[i] = true;
        var[i] = true;
        if !spreads {
            continue;
        }
        for j in inputs {
            if steps.get(j).is_some_and(may_change) {
                var[j] = true;
            }
        }
    }
    Taint { step, var }
}

/// Whether a value is text showing an identity hash (`java.lang.Object@1b6d3586`).
pub fn identity_based(o: &Observed) -> bool {
    matches!(o, Observed::Value { text, .. } if looks_identity_based(text))
}

/// Whether a value is an object whose state a call could change.
fn may_change(o: &Observed) -> bool {
    matches!(o, Observed::Object { .. })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(v: &str) -> Statement {
        Statement::literal("int", v)
    }

    fn call(method: &str, receiver: Option<usize>, args: &[usize]) -> Statement {
        Statement::call("t.C", method, &vec!["int"; args.len()], receiver, args)
    }

    fn value(text: &str) -> Observed {
        Observed::Value {
            class: "java.lang.String".into(),
            text: text.into(),
        }
    }

    fn object() -> Observed {
        Observed::Object {
            class: "java.util.ArrayList".into(),
        }
    }

    #[test]
    fn a_value_read_from_a_changed_step_is_tainted_and_its_input_literal_is_not() {
        // v0 = 100; v1 = random(v0); v2 = first(v1); v3 = isLower(v2); v4 = other(v0)
        let stmts = [
            lit("100"),
            call("random", None, &[0]),
            call("first", None, &[1]),
            call("isLower", None, &[2]),
            call("other", None, &[0]),
        ];
        let steps = [
            value("100"),
            value("x7"),
            value("x"),
            value("false"),
            value("1"),
        ];
        let t = spread(&stmts, &steps, &[1]);
        assert_eq!(t.step, [false, true, true, true, false]);
        assert_eq!(t.var, [false, true, true, true, false]);
    }

    #[test]
    fn an_object_that_received_an_unstable_value_is_tainted_from_then_on() {
        // v0 = new list; v1 = nanoTime(); v2 = v0.size(); v3 = v0.add(v1); v4 = v0.size()
        let stmts = [
            call("newList", None, &[]),
            call("nanoTime", None, &[]),
            call("size", Some(0), &[]),
            call("add", Some(0), &[1]),
            call("size", Some(0), &[]),
        ];
        let steps = [object(), value("12"), value("0"), value("true"), value("1")];
        let t = spread(&stmts, &steps, &[1]);
        assert_eq!(t.step, [false, true, false, true, true]);
        assert!(t.var[0], "the list holds the clock's value at the end");
    }

    #[test]
    fn identity_based_text_is_a_root_even_when_it_was_never_checked() {
        let stmts = [
            call("newObject", None, &[]),
            call("toString", Some(0), &[]),
            call("length", Some(1), &[]),
        ];
        let steps = [object(), value("java.lang.Object@1b6d3586"), value("25")];
        let t = spread(&stmts, &steps, &[]);
        assert_eq!(t.step, [false, true, true]);
        assert!(!t.var[0], "rendering an object does not change it");
    }

    #[test]
    fn nothing_changed_nothing_tainted() {
        let stmts = [lit("1"), call("f", None, &[0])];
        let t = spread(&stmts, &[value("1"), value("2")], &[]);
        assert!(!t.any());
    }
}
