//! Calls turned into literals of the value the reference gave, so minimization can drop
//! the chain that computed a number or a string: `rotate(new long[] {v0, v8, v19}, …)`, where
//! `v8` is `saturatedMultiply(checkedSubtract(0, 10), …)`, becomes `long v8 = -10L;` and the
//! calls before it go. Only calls (and field reads) whose value a later kept statement reads
//! are candidates, never the diverging statement itself, nor a step whose value varied on
//! the reference; whether the difference survives is up to the candidate's run, as for any
//! removal.

use crate::export::java::unboxed;
use crate::sequence::{Observed, Statement};
use crate::suite::Test;

/// Kept calls and field reads (original indices) whose value a later kept statement reads,
/// not `anchor` and not varying, with a primitive or String value on the reference.
pub(super) fn eligible(
    test: &Test,
    keep: &[bool],
    anchor: Option<usize>,
    values: &[Option<Observed>],
) -> Vec<usize> {
    let mut read = vec![false; keep.len()];
    for (i, s) in test.statements.iter().enumerate() {
        if keep[i] {
            for j in s.inputs() {
                read[j] = true;
            }
        }
    }
    (0..keep.len())
        .filter(|&i| keep[i] && read[i] && Some(i) != anchor && !test.varies_at(i))
        .filter(|&i| {
            matches!(
                test.statements[i],
                Statement::Call { .. } | Statement::Field { .. }
            )
        })
        .filter(|&i| {
            values
                .get(i)
                .and_then(|v| literal_of(v.as_ref()?))
                .is_some()
        })
        .collect()
}

/// `test` with each statement of `calls` replaced by the literal of its value in `values`
/// (unchecked, as a literal is); a statement without one is left as it is.
pub(super) fn apply(test: &mut Test, calls: &[usize], values: &[Option<Observed>]) {
    for &i in calls {
        let Some(literal) = values.get(i).and_then(|v| literal_of(v.as_ref()?)) else {
            continue;
        };
        test.statements[i] = literal;
        if let Some(e) = test.expected_steps.get_mut(i) {
            *e = None;
        }
    }
}

/// The literal statement that gives `value` again: a boxed primitive or a String, whose
/// escaped text is the literal's.
fn literal_of(value: &Observed) -> Option<Statement> {
    let Observed::Value { class, text } = value else {
        return None;
    };
    let ty = match class.as_str() {
        "java.lang.String" => "java.lang.String",
        boxed => unboxed(boxed)?,
    };
    Some(Statement::literal(ty, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(class: &str, text: &str) -> Option<Observed> {
        Some(Observed::Value {
            class: class.into(),
            text: text.into(),
        })
    }

    #[test]
    fn only_read_calls_with_primitive_or_string_values_become_literals() {
        let statements = vec![
            Statement::literal("long", "10"),
            Statement::call("M", "neg", &["long"], None, &[0]),
            Statement::call("M", "box", &["long"], None, &[1]),
            Statement::call("M", "name", &[], None, &[]),
            Statement::call("M", "use", &["long", "java.lang.Object"], None, &[1, 2]),
        ];
        let test = Test {
            id: 1,
            expected_steps: vec![None; statements.len()],
            statements,
            observers: Vec::new(),
            expected_observations: Vec::new(),
            varies: Vec::new(),
        };
        let values = vec![
            value("java.lang.Long", "10"),
            value("java.lang.Long", "-10"),
            Some(Observed::Object {
                class: "M$Box".into(),
            }),
            value("java.lang.String", "unread"),
            value("java.lang.Long", "0"),
        ];
        let keep = vec![true; 5];
        // 0 is a literal already, 2 an object, 3 unread, 4 the diverging call.
        assert_eq!(eligible(&test, &keep, Some(4), &values), [1]);
        let mut varied = test.clone();
        varied.varies = vec![1];
        assert!(eligible(&varied, &keep, Some(4), &values).is_empty());

        let mut applied = test.clone();
        apply(&mut applied, &[1], &values);
        assert_eq!(applied.statements[1], Statement::literal("long", "-10"));
        assert_eq!(applied.statements[4], test.statements[4]);
    }
}
