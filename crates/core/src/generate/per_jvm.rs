//! Values that differ between runs of one JVM — identity hashes, clocks, random generators,
//! thread ids, free memory (the calls on the shipped list of unstable observers), text
//! showing an identity hash, what depends on the caller's stack or on the per-JVM iteration
//! order of a set — and everything computed from them. Reruns drop their checks, but before
//! this module they still joined the component pool, so they steered generation: an input
//! that is 3 in one run and 7 in the next makes other calls throw or not, other values new
//! or seen, and the same seed drew another suite. Generation keeps them out of the pool
//! (not passed on, not harvested, not swept) unless `--per-jvm-values-in-pool` asks for the
//! old behaviour.

use super::taint::spread;
use crate::observe::Observers;
use crate::sequence::{Observed, Statement};

/// Which variables of a test hold a per-JVM value or an object that may have stored one:
/// what a call on the unstable list returns and identity-based text as roots, spread forward
/// as [`spread`] does, together with `known` (what already varies for another reason). The
/// receiver of such a call is not a root: asking a thread its id does not change the thread
/// (the list names every `java.lang.Thread` method, and a thread must stay in the pool).
pub(super) fn per_jvm_vars(
    stmts: &[Statement],
    steps: &[Observed],
    known: &[bool],
    observers: &Observers,
) -> Vec<bool> {
    let roots: Vec<u32> = (0..stmts.len())
        .filter(|&i| unstable_call(&stmts[i], observers))
        .map(|i| i as u32)
        .collect();
    let taint = spread(stmts, steps, &[], &roots);
    (0..stmts.len())
        .map(|i| taint.var[i] || known.get(i) == Some(&true))
        .collect()
}

/// Whether `s` calls a method on the list of unstable observers.
fn unstable_call(s: &Statement, observers: &Observers) -> bool {
    matches!(s, Statement::Call { class, method, .. } if observers.is_unstable(class, method))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(class: &str, method: &str, receiver: Option<usize>, args: &[usize]) -> Statement {
        Statement::call(class, method, &[], receiver, args)
    }

    #[test]
    fn a_clock_and_what_reads_it_are_per_jvm_and_a_literal_is_not() {
        let stmts = vec![
            call("java.lang.System", "nanoTime", None, &[]),
            Statement::Literal {
                ty: "int".into(),
                value: "3".into(),
            },
            call("java.lang.Math", "abs", None, &[0]),
            call("java.lang.Math", "abs", None, &[1]),
        ];
        let value = |t: &str| Observed::Value {
            class: "java.lang.Long".into(),
            text: t.into(),
        };
        let steps = vec![value("12345"), value("3"), value("12345"), value("3")];
        let observers = Observers::new(Vec::new(), 8);
        let vars = per_jvm_vars(&stmts, &steps, &[false; 4], &observers);
        assert_eq!(vars, vec![true, false, true, false]);
        let known = per_jvm_vars(&stmts[1..2], &steps[1..2], &[true], &observers);
        assert_eq!(
            known,
            vec![true],
            "what varies for another reason stays out too"
        );
    }
}
