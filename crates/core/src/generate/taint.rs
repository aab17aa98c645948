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
pub(crate) struct Taint {
    /// `step[i]`: the value statement `i` returned may differ from run to run.
    pub step: Vec<bool>,
    /// `var[i]`: variable `i` may hold a different value or state at the end of the test.
    pub var: Vec<bool>,
}

impl Taint {
    #[cfg(test)]
    pub(crate) fn any(&self) -> bool {
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
///
/// The `random` steps returned a value of the same class every time but with other content
/// (an array whose digest changed, an object whose `toString()` did): what reads them is
/// tainted, except the length of such an array (`Array.getLength`), which does not depend on
/// what it holds — a random key's bytes change every run, the key size does not.
pub(crate) fn spread(
    stmts: &[Statement],
    steps: &[Observed],
    changed: &[u32],
    random: &[u32],
) -> Taint {
    let n = stmts.len();
    let mut step = vec![false; n];
    let mut var = vec![false; n];
    let mut content_only = vec![false; n];
    for &c in changed {
        if let Some(t) = step.get_mut(c as usize) {
            *t = true;
        }
    }
    for (i, s) in stmts.iter().enumerate() {
        let inputs = s.inputs();
        let length = reads_length(s);
        let reads = |j: &usize| var.get(*j) == Some(&true) && !(length && content_only[*j]);
        let spreads = step[i] || inputs.iter().any(reads);
        if !spreads && !steps.get(i).is_some_and(identity_based) {
            if random.contains(&(i as u32)) {
                var[i] = true;
                content_only[i] = true;
            }
            continue;
        }
        step[i] = true;
        var[i] = true;
        if !spreads || hashes(s) {
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

/// Whether `s` computes a hash of what it reads (`x.hashCode()`, `Objects.hashCode(x)`,
/// `System.identityHashCode(x)`): by `Object`'s contract that changes nothing `equals` or
/// any other observer sees, so when its value changed (an identity hash, drawn anew in
/// every JVM) the objects it read are not suspect. What reads the hash itself is.
fn hashes(s: &Statement) -> bool {
    matches!(s, Statement::Call { method, .. } if &**method == "hashCode" || &**method == "identityHashCode")
}

/// Whether `s` reads only the length of an array (harvesting's first step).
fn reads_length(s: &Statement) -> bool {
    matches!(s, Statement::Call { class, method, .. }
        if &**class == "java.lang.reflect.Array" && &**method == "getLength")
}

/// The step whose array `s` reads the length of, when `s` is `Array.getLength(step)`.
pub(crate) fn length_read_of(s: &Statement) -> Option<usize> {
    match s {
        Statement::Call { args, .. } if reads_length(s) => args.first().copied(),
        _ => None,
    }
}

/// What a set or map answers the same whatever order it iterates in.
const ORDER_FREE: [&str; 10] = [
    "size",
    "isEmpty",
    "contains",
    "containsKey",
    "containsValue",
    "containsAll",
    "get",
    "getOrDefault",
    "hashCode",
    "equals",
];

/// Collections that sort what they are made from: the sorted copies of generation.
const SORTING: [&str; 2] = ["java.util.TreeSet", "java.util.TreeMap"];

/// What the worker appends to the class of a hash-based set or map that iterates in
/// identity-hash order (`Render.IDENTITY_ORDER`): a `HashSet` of enum constants or of
/// `NumberFormat.Field`s, an `IdentityHashMap`.
pub(crate) const IDENTITY_ORDER: &str = " (identity-hash order)";

/// Whether a value is one of the JDK's immutable sets or maps (`Set.of`, `Map.of`,
/// `Collectors.toUnmodifiableSet`), whose iteration order is drawn per JVM by design, or a
/// set or map the worker saw iterate in identity-hash order, which changes per JVM too.
pub(crate) fn unordered(o: &Observed) -> bool {
    matches!(o, Observed::Object { class }
        if class.starts_with("java.util.ImmutableCollections$Set")
            || class.starts_with("java.util.ImmutableCollections$Map")
            || class.ends_with(IDENTITY_ORDER))
}

/// Which steps and variables of a test depend on the iteration order of one of the JDK's
/// immutable sets or maps (`None`: none does). A step that reads such a value in order is
/// a root — `list.addAll(Set.of(a, b))`, `set.toArray()`, `new LinkedHashMap(map)`; not
/// its `size()`, `contains(x)`, `get(k)` or equality, nor a sorted copy (`new
/// TreeSet(set)`). What a tainted step returns, and the objects it reads (it may have
/// stored the order in them: the list), are tainted from then on; the set itself is not,
/// so its order-free questions and its sorted copies stay checked. Reruns see such an
/// order change only when the JVM draws another (one time in two for two elements).
pub(crate) fn iteration_order(stmts: &[Statement], steps: &[Observed]) -> Option<Taint> {
    let sources: Vec<usize> = (0..stmts.len())
        .filter(|&i| steps.get(i).is_some_and(unordered))
        .collect();
    if sources.is_empty() {
        return None;
    }
    let n = stmts.len();
    let (mut step, mut var) = (vec![false; n], vec![false; n]);
    for (i, s) in stmts.iter().enumerate() {
        let inputs = s.inputs();
        if !reads_in_order(s, &sources) && !inputs.iter().any(|&j| var.get(j) == Some(&true)) {
            continue;
        }
        step[i] = true;
        var[i] = true;
        for j in inputs {
            if !sources.contains(&j) && steps.get(j).is_some_and(may_change) {
                var[j] = true;
            }
        }
    }
    Some(Taint { step, var })
}

/// Whether `s` reads one of `sources` in its iteration order.
fn reads_in_order(s: &Statement, sources: &[usize]) -> bool {
    match s {
        Statement::Call {
            method,
            receiver,
            args,
            ..
        } => {
            let reads = receiver.iter().chain(args).any(|r| sources.contains(r));
            reads && !ORDER_FREE.contains(&&**method)
        }
        Statement::New { class, args, .. } => {
            !SORTING.contains(&&**class) && args.iter().any(|a| sources.contains(a))
        }
        _ => false,
    }
}

/// Whether a value is text showing an identity hash (`java.lang.Object@1b6d3586`).
pub(crate) fn identity_based(o: &Observed) -> bool {
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
        let t = spread(&stmts, &steps, &[1], &[]);
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
        let t = spread(&stmts, &steps, &[1], &[]);
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
        let t = spread(&stmts, &steps, &[], &[]);
        assert_eq!(t.step, [false, true, true]);
        assert!(!t.var[0], "rendering an object does not change it");
    }

    #[test]
    fn an_identity_hash_that_changed_leaves_the_object_it_hashed_alone() {
        // v0 = new builder; v1 = v0.hashCode(); v2 = v0.size(); v3 = v1 + 1
        let stmts = [
            call("newBuilder", None, &[]),
            call("hashCode", Some(0), &[]),
            call("size", Some(0), &[]),
            call("plusOne", None, &[1]),
        ];
        let steps = [
            object(),
            value("1836019240"),
            value("0"),
            value("1836019241"),
        ];
        let t = spread(&stmts, &steps, &[1], &[]);
        assert_eq!(t.step, [false, true, false, true]);
        assert!(!t.var[0], "hashing an object does not change it");
        // Another call that changed may have stored its value in the builder.
        let stmts = [
            call("newBuilder", None, &[]),
            call("stamp", Some(0), &[]),
            call("size", Some(0), &[]),
        ];
        let t = spread(&stmts, &steps[..3], &[1], &[]);
        assert_eq!(t.step, [false, true, true]);
    }

    #[test]
    fn what_reads_an_immutable_set_in_order_is_tainted_and_the_set_is_not() {
        // v0 = Set.of(..); v1 = new LinkedList(); v2 = v1.addAll(v0); v3 = v1.toString();
        // v4 = v0.size(); v5 = new TreeSet(v0); v6 = v5.toString(); v7 = v0.toArray()
        let set = Observed::Object {
            class: "java.util.ImmutableCollections$Set12".into(),
        };
        let stmts = [
            call("of", None, &[]),
            Statement::new("java.util.LinkedList", &[], &[]),
            call("addAll", Some(1), &[0]),
            call("toString", Some(1), &[]),
            call("size", Some(0), &[]),
            Statement::new("java.util.TreeSet", &["java.util.Collection"], &[0]),
            call("toString", Some(5), &[]),
            call("toArray", Some(0), &[]),
        ];
        let steps = [
            set,
            object(),
            value("true"),
            value("[a, b]"),
            value("2"),
            object(),
            value("[a, b]"),
            object(),
        ];
        let t = iteration_order(&stmts, &steps).expect("a set");
        let tainted = [false, false, true, true, false, false, false, true];
        assert_eq!(t.step, tainted);
        assert!(t.var[1], "the list holds the order");
        assert!(!t.var[0], "the set itself stays");
        let plain = [object(), value("1")];
        let stmts = [
            Statement::new("java.util.HashSet", &[], &[]),
            call("size", Some(0), &[]),
        ];
        assert!(iteration_order(&stmts, &plain).is_none());
        // A HashSet the worker saw iterate in identity-hash order is read like `Set.of`.
        let by_identity = [
            Observed::Object {
                class: format!("java.util.HashSet{IDENTITY_ORDER}"),
            },
            value("[SIGN, INTEGER]"),
        ];
        let stmts = [
            Statement::new("java.util.HashSet", &[], &[]),
            call("toString", Some(0), &[]),
        ];
        let t = iteration_order(&stmts, &by_identity).expect("an identity-ordered set");
        assert_eq!(t.step, [false, true]);
    }

    #[test]
    fn what_reads_a_random_array_is_tainted_but_not_its_length() {
        // v0 = key(); v1 = v0.encoded(); v2 = Array.getLength(v1); v3 = parse(v1);
        // v4 = v0.algorithm(); v5 = Array.getLength(v3)
        let length = |of: usize| {
            let object = ["java.lang.Object"];
            Statement::call("java.lang.reflect.Array", "getLength", &object, None, &[of])
        };
        let stmts = [
            call("key", None, &[]),
            call("encoded", Some(0), &[]),
            length(1),
            call("parse", None, &[1]),
            call("algorithm", Some(0), &[]),
            length(3),
        ];
        let steps = [
            object(),
            object(),
            value("16"),
            object(),
            value("AES"),
            value("3"),
        ];
        let t = spread(&stmts, &steps, &[], &[1]);
        assert_eq!(t.step, [false, false, false, true, false, true]);
        assert_eq!(t.var, [false, true, false, true, false, true]);
        // The same array's length is tainted when the array itself changed (a class or a
        // length that differs), not only its content.
        let t = spread(&stmts, &steps, &[1], &[1]);
        assert!(t.step[2]);
    }

    #[test]
    fn nothing_changed_nothing_tainted() {
        let stmts = [lit("1"), call("f", None, &[0])];
        let t = spread(&stmts, &[value("1"), value("2")], &[], &[]);
        assert!(!t.any());
    }
}
