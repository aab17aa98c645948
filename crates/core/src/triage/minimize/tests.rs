use super::*;
use crate::pool::fake::{Fake, SharedLane, counter_test};
use crate::replay::records;
use crate::replay::{ReplayOptions, TestOutcome, replay};
use crate::triage::{examples, group};
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
