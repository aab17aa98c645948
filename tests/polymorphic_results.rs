//! A call whose declared result type hides one class or another (`tests/fixtures/polymorphic`:
//! `Shapes.of(int)` returns a `Circle` for an even size, a `Square` for an odd one). The
//! generator picks observers on the class such a call returned before; when it returns the
//! other class this time, those observers do not apply. Reflection then answers a method
//! the value lacks with an `IllegalArgumentException`, and an inherited one (`toString()`)
//! with the other class's text under this class's name, whose reproducer's cast would throw.
//! Neither may be recorded, nor kept as an unchecked call a reproducer would still cast:
//! every observer a suite keeps is of a class its value is.

mod common;
use common::support;

use difftest::sequence::{Observed, Statement};
use difftest::suite::Test;

/// The class `Shapes.of` returned at step `i` of `t`, by the parity of its literal size.
fn made_at(t: &Test, i: usize) -> Option<&'static str> {
    let Statement::Call { method, args, .. } = &t.statements[i] else {
        return None;
    };
    if &**method != "of" {
        return None;
    }
    let size = match t.statements.get(*args.first()?)? {
        Statement::Literal { value, .. } => value.parse::<i64>().ok()?,
        _ => return None,
    };
    Some(if size % 2 == 0 {
        "fixture.Circle"
    } else {
        "fixture.Square"
    })
}

/// The observer calls of `t` (checked or not) of a class's observer on a shape of the
/// other class, and every observation that threw (no observer of the fixture throws).
fn misfits(t: &Test) -> Vec<String> {
    let observed = t.observers.iter().zip(&t.expected_observations);
    observed
        .filter_map(|(o, v)| {
            let made = made_at(t, o.stmt);
            let wrong = made.is_some_and(|m| o.class.starts_with("fixture.") && *o.class != *m)
                && &*o.class != "fixture.Shape";
            let threw = matches!(v, Some(Observed::Threw { .. }));
            (wrong || threw).then(|| format!("test {}: {}.{} = {v:?}", t.id, o.class, o.method))
        })
        .collect()
}

#[test]
fn observers_of_a_class_the_value_is_not_are_never_recorded() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "polymorphic", 1, "poly");
    let extra = ["--output-limit", "2000", "--reruns", "1", "--seed", "1"];
    let suite =
        support::recorded_fixture_suite(work.path(), &targets, "poly1", "poly.yaml", &extra);

    let runtime_observed = |class: &str| {
        suite.tests.iter().any(|t| {
            let observed = t.observers.iter().zip(&t.expected_observations);
            observed.into_iter().any(|(o, v)| {
                &*o.class == class && v.is_some() && made_at(t, o.stmt) == Some(class)
            })
        })
    };
    assert!(
        runtime_observed("fixture.Circle") && runtime_observed("fixture.Square"),
        "no test observes a made shape through its own class: the fixture no longer shows the case"
    );
    let wrong: Vec<String> = suite.tests.iter().flat_map(misfits).collect();
    assert!(
        wrong.is_empty(),
        "{} misfit observations: {wrong:#?}",
        wrong.len()
    );
}
