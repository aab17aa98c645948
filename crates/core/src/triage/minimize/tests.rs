use super::*;
use crate::compare::{Kind, Site};
use crate::pool::fake::{Fake, SharedLane, counter_test};
use crate::replay::records;
use crate::replay::{ReplayOptions, TestOutcome, replay};
use crate::sequence::Statement;
use crate::triage::{examples, group};
use search::SLOW_KIND_BUDGET;
use std::sync::atomic::Ordering;

fn groups_of(tests: &[Test]) -> Vec<Group> {
    let refs: Vec<&Test> = tests.iter().collect();
    let lane = SharedLane::target();
    let outcomes = replay(&refs, &lane, &ReplayOptions::default(), &|_| {}).unwrap();
    assert!(
        outcomes
            .iter()
            .all(|o| !matches!(o, TestOutcome::Unstable { .. }))
    );
    group(&records(&refs), &outcomes)
}

#[test]
fn minimization_keeps_only_what_the_difference_needs() {
    let tests = vec![counter_test(1, &[1, 2, 7, 3, 4], 3, "get")];
    assert_eq!(tests[0].statements.len(), 57);
    let mut groups = groups_of(&tests);
    let refs: Vec<&Test> = tests.iter().collect();
    let (r, t) = (Fake::reference(), Fake::target());
    let ex = examples(&refs, &groups);
    minimize_all(&mut groups, &ex, &r, &t, 200).unwrap();
    let m = groups[0].minimized.as_ref().expect("minimized");
    let lines = crate::report::java_source(&m.test.statements);
    assert_eq!(m.test.statements.len(), 4, "{lines:#?}");
    assert_eq!(m.divergence.callee, "t.Counter.get()");
    assert_eq!(m.divergence.kind, Kind::Value);
    assert!(m.runs <= 200);
    assert_eq!(m.original_len, 57);
}

#[test]
fn minimization_respects_its_budget() {
    let tests = vec![counter_test(1, &[1, 2, 7, 3, 4], 3, "get")];
    let mut groups = groups_of(&tests);
    let refs: Vec<&Test> = tests.iter().collect();
    let (r, t) = (Fake::reference(), Fake::target());
    let ex = examples(&refs, &groups);
    minimize_all(&mut groups, &ex, &r, &t, 5).unwrap();
    let m = groups[0].minimized.as_ref().expect("minimized");
    assert!(m.runs <= 5, "{}", m.runs);
    assert!(t.sequences.load(Ordering::Relaxed) <= 5);
    assert!(m.test.statements.len() < 57);
}

#[test]
fn minimizes_every_group_in_the_same_rounds() {
    let tests = vec![
        counter_test(1, &[5, 7, 1], 2, "get"),
        counter_test(2, &[5, 6, 1], 2, "check"),
        counter_test(3, &[5, 6, 1], 2, "spin"),
        counter_test(4, &[9, 6, 1], 2, "describe"),
    ];
    let mut groups = groups_of(&tests);
    assert_eq!(groups.len(), 4);
    let refs: Vec<&Test> = tests.iter().collect();
    let (r, t) = (Fake::reference(), Fake::target());
    let ex = examples(&refs, &groups);
    minimize_all(&mut groups, &ex, &r, &t, 200).unwrap();
    for g in &groups {
        let m = g
            .minimized
            .as_ref()
            .unwrap_or_else(|| panic!("{} not minimized", g.callee));
        assert_eq!(
            (m.divergence.callee.as_str(), m.divergence.kind),
            (g.callee.as_str(), g.kind)
        );
        let want = if g.kind == Kind::Value { 4 } else { 2 };
        if g.kind != Kind::Timeout {
            assert_eq!(m.test.statements.len(), want, "{}", g.callee);
        } else {
            assert!(m.runs <= SLOW_KIND_BUDGET);
        }
    }
}

#[test]
fn observer_differences_keep_their_observer() {
    use crate::pool::fake::expect;
    use crate::sequence::ObserverCall;
    let statements = vec![
        Statement::new("t.Counter", &[], &[]),
        Statement::literal("int", "3"),
        Statement::new("t.Counter", &[], &[]),
        Statement::literal("int", "7"),
        Statement::call("t.Counter", "add", &["int"], Some(0), &[3]),
        Statement::call("t.Counter", "add", &["int"], Some(2), &[1]),
    ];
    let observers = vec![
        ObserverCall::new(2, "t.Counter", "size"),
        ObserverCall::new(0, "t.Counter", "size"),
    ];
    let test = expect(
        1,
        crate::message::SeqRequest {
            statements,
            observers,
        },
    );
    let tests = vec![test];
    let mut groups = groups_of(&tests);
    assert_eq!(groups[0].divergence.site, Site::Observer(1));
    let refs: Vec<&Test> = tests.iter().collect();
    let (r, t) = (Fake::reference(), Fake::target());
    let ex = examples(&refs, &groups);
    minimize_all(&mut groups, &ex, &r, &t, 200).unwrap();
    let m = groups[0].minimized.as_ref().unwrap();
    assert_eq!(m.test.statements.len(), 3);
    assert_eq!(m.test.observers.len(), 1);
    assert_eq!(m.divergence.site, Site::Observer(0));
}

#[test]
fn a_difference_with_the_recording_only_is_not_reproduced_side_by_side() {
    let mut test = counter_test(1, &[3], 1, "get");
    let last = test.expected_steps.len() - 1;
    test.expected_steps[last] = Some(crate::sequence::Observed::Value {
        class: "java.lang.Integer".into(),
        text: "99".into(),
    });
    let tests = vec![test];
    let mut groups = groups_of(&tests);
    assert_eq!(groups.len(), 1, "replay compares with the recording");
    let refs: Vec<&Test> = tests.iter().collect();
    let (r, t) = (Fake::reference(), Fake::target());
    let ex = examples(&refs, &groups);
    minimize_all(&mut groups, &ex, &r, &t, 200).unwrap();
    assert_eq!(groups[0].reproduced, Some(false));
    assert!(groups[0].minimized.is_none());
    assert_eq!(
        t.sequences.load(Ordering::Relaxed),
        1,
        "one side-by-side run, no search"
    );
}

#[test]
fn a_recorded_value_the_reference_no_longer_gives_is_not_reproduced() {
    // The target differs from the reference side by side, but the reference no longer
    // gives the value recorded (a comparison with the clock, state of an earlier test).
    let mut test = counter_test(1, &[1, 2, 7, 3, 4], 3, "get");
    let Site::Step(at) = groups_of(std::slice::from_ref(&test))[0].divergence.site else {
        panic!("the fake's bug shows at a step");
    };
    test.expected_steps[at] = Some(crate::sequence::Observed::Value {
        class: "java.lang.Integer".into(),
        text: "99".into(),
    });
    let tests = vec![test];
    let mut groups = groups_of(&tests);
    assert_eq!(groups[0].divergence.site, Site::Step(at));
    let refs: Vec<&Test> = tests.iter().collect();
    let (r, t) = (Fake::reference(), Fake::target());
    let ex = examples(&refs, &groups);
    minimize_all(&mut groups, &ex, &r, &t, 200).unwrap();
    assert_eq!(groups[0].reproduced, Some(false));
    assert!(groups[0].minimized.is_none());
}

/// The `get()` group of a replay in one fake (one JVM): `poison()` (test 1) leaves every later
/// `get()` off by 100, so test 2, `get()` on a fresh counter, differs only after it; test 3
/// adds 7 first and differs on its own.
fn inherited_and_own() -> (Vec<Test>, Group) {
    let tests = vec![
        counter_test(1, &[], 0, "poison"),
        counter_test(2, &[], 0, "get"),
        counter_test(3, &[7], 0, "get"),
    ];
    let groups = groups_of(&tests);
    let get = groups
        .into_iter()
        .find(|g| g.callee == "t.Counter.get()")
        .expect("a get() group");
    assert_eq!((get.tests.as_slice(), get.example), (&[2, 3][..], 2));
    (tests, get)
}

#[test]
fn an_example_that_only_inherited_state_gives_way_to_a_test_that_differs_alone() {
    let (tests, get) = inherited_and_own();
    assert_eq!(get.alternates.len(), 1);
    let refs: Vec<&Test> = tests.iter().collect();
    let mut groups = vec![get];
    let ex: Examples = refs.iter().map(|t| (t.id, *t)).collect();
    minimize_all(&mut groups, &ex, &Fake::reference(), &Fake::target(), 200).unwrap();
    assert_eq!(groups[0].reproduced, Some(true));
    assert_eq!(groups[0].example, 3, "the test that differs alone");
    assert_eq!(groups[0].divergence.callee, "t.Counter.get()");
    assert!(groups[0].minimized.is_some());
}

#[test]
fn without_another_test_to_try_the_inheriting_example_is_not_reproduced() {
    let (tests, mut get) = inherited_and_own();
    get.alternates.clear();
    let refs: Vec<&Test> = tests.iter().collect();
    let mut groups = vec![get];
    let ex: Examples = refs.iter().map(|t| (t.id, *t)).collect();
    minimize_all(&mut groups, &ex, &Fake::reference(), &Fake::target(), 200).unwrap();
    assert_eq!(groups[0].reproduced, Some(false));
    assert_eq!(groups[0].example, 2);
}

#[test]
fn alternates_spread_from_the_shortest_to_the_longest() {
    let picks = |len| crate::triage::spread(len, 4).collect::<Vec<_>>();
    assert_eq!(picks(0), Vec::<usize>::new());
    assert_eq!(picks(1), Vec::<usize>::new());
    assert_eq!(picks(2), [1]);
    assert_eq!(picks(5), [1, 2, 3, 4]);
    assert_eq!(picks(100), [25, 50, 75, 99]);
}
