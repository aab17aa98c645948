//! A library's own object that iterates or prints in identity-hash order because of a JDK
//! hash set or map it holds (`tests/fixtures/heldorder`: `Tally`, a bag kept in a `HashMap`
//! keyed by enum constants; `Index`, printing a `HashMap` of `HashSet`s of them). Identity
//! hashes come from a per-thread sequence, so two reruns can agree by chance and a release
//! that draws a few hashes more (release 2 draws three per construction) then orders the same
//! elements another way: a false FAIL seen on commons-collections4's `HashBag` and
//! `MultiValuedMap`s. The worker marks such objects as it marks a JDK set of enum constants,
//! so what reads their order is left unchecked; an object that holds such a map but never
//! shows its order (`Registry`) keeps its checks.

mod common;
use common::support;

use difftest::sequence::{Observed, Statement};
use difftest::suite::{Suite, Test};

/// Whether some test adds two colours or more to one `Tally`.
fn fills_a_tally(t: &Test) -> bool {
    let colour = |k: &usize| matches!(&t.statements[*k], Statement::Enum { ty, .. } if &**ty == "fixture.Color");
    let adds = t.statements.iter().filter_map(|s| match s {
        Statement::Call {
            class,
            method,
            receiver: Some(r),
            args,
            ..
        } if &**class == "fixture.Tally" && &**method == "add" && args.iter().all(colour) => {
            Some(*r)
        }
        _ => None,
    });
    let mut receivers: Vec<usize> = adds.collect();
    let all = receivers.len();
    receivers.sort_unstable();
    receivers.dedup();
    all > receivers.len()
}

/// Whether some test checks the text of a `Registry` that holds a name.
fn checks_a_registry(t: &Test) -> bool {
    let observed = t.observers.iter().zip(&t.expected_observations);
    observed.into_iter().any(|(o, v)| {
        &*o.class == "fixture.Registry"
            && matches!(v, Some(Observed::Value { text, .. }) if text.starts_with("Registry of ") && !text.ends_with(" 0"))
    })
}

/// Checked texts of the suite holding two distinct colours in one `[…]` (a `Tally`, a set
/// of an `Index`): their order is made of identity hashes.
fn checked_orders(suite: &Suite) -> Vec<String> {
    let colours = [
        "RED", "GREEN", "BLUE", "CYAN", "MAGENTA", "YELLOW", "BLACK", "WHITE",
    ];
    let ordered = |text: &String| {
        text.split('[').any(|group| {
            let group = group.split(']').next().unwrap_or("");
            colours.iter().filter(|c| group.contains(*c)).count() >= 2
        })
    };
    let values = suite.tests.iter().flat_map(|t| {
        let steps = t.expected_steps.iter().flatten();
        steps.chain(t.expected_observations.iter().flatten())
    });
    values
        .filter_map(|o| match o {
            Observed::Value { text, .. } => Some(text.to_string()),
            _ => None,
        })
        .filter(ordered)
        .collect()
}

#[test]
fn a_library_object_ordered_by_identity_hashes_is_marked_and_never_checked_in_order() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "heldorder", 2, "held");
    let extra = ["--output-limit", "3000", "--reruns", "2", "--seed", "3"];
    let suite =
        support::recorded_fixture_suite(work.path(), &targets, "held1", "held.yaml", &extra);
    assert!(
        suite.tests.iter().any(fills_a_tally),
        "no test puts two colours in a Tally: the fixture no longer shows the case"
    );
    assert!(
        suite.tests.iter().any(checks_a_registry),
        "no test checks a Registry's text: holding a map alone must not mark an object"
    );
    let orders = checked_orders(&suite);
    assert!(orders.is_empty(), "checked orders of colours: {orders:?}");
    support::assert_same_behaviour(
        work.path(),
        &targets,
        "held.yaml",
        "held2",
        "held2-vs-held1",
    );
}
