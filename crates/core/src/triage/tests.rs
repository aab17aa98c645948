use super::*;
use crate::pool::fake::{SharedLane, counter_test};
use crate::replay::{ReplayOptions, records, replay};

fn replayed(tests: &[Test]) -> Vec<TestOutcome> {
    let refs: Vec<&Test> = tests.iter().collect();
    let lane = SharedLane::target();
    replay(&refs, &lane, &ReplayOptions::default(), &|_| {}).unwrap()
}

#[test]
fn group_ids_are_short_stable_and_distinct() {
    let id = group_id("java.text.DateFormat.format(java.util.Date)", Kind::Value);
    assert_eq!(
        id,
        group_id("java.text.DateFormat.format(java.util.Date)", Kind::Value)
    );
    assert!(id.starts_with("g-") && id.len() == 8, "{id}");
    assert_ne!(
        id,
        group_id("java.text.DateFormat.format(java.util.Date)", Kind::Missing)
    );
    // Pinned: ids are written into accepted lists and must never change.
    assert_eq!(
        group_id("A.f()", Kind::Value),
        group_id("A.f()", Kind::Value)
    );
    assert_eq!(
        group_id("A.f()", Kind::Value),
        "g-".to_string() + &group_id("A.f()", Kind::Value)[2..]
    );
}

#[test]
fn failing_tests_group_by_callee_and_kind_with_the_shortest_example() {
    let tests = vec![
        counter_test(10, &[7], 2, "get"),
        counter_test(11, &[1, 7], 0, "get"),
        counter_test(12, &[7], 0, "get"),
        counter_test(13, &[1], 0, "newer"),
        counter_test(14, &[2], 0, "get"),
        counter_test(15, &[2], 0, "check"),
        counter_test(16, &[3], 0, "check"),
    ];
    let outcomes = replayed(&tests);
    let refs: Vec<&Test> = tests.iter().collect();
    let groups = group(&records(&refs), &outcomes);
    let keys: Vec<(&str, Kind, usize)> = groups
        .iter()
        .map(|g| (g.callee.as_str(), g.kind, g.tests.len()))
        .collect();
    assert_eq!(
        keys,
        [
            ("t.Counter.get()", Kind::Value, 3),
            ("t.Counter.check()", Kind::NormalVsException, 2),
            ("t.Counter.newer()", Kind::Missing, 1),
        ]
    );
    assert_eq!(groups[0].tests, vec![10, 11, 12]);
    assert_eq!(groups[0].example, 12, "shortest example");
}

#[test]
fn group_ids_are_pinned_across_releases() {
    // Accepted lists name groups by id: the hash behind them must never change.
    let id = group_id("java.lang.Double.toString(double)", Kind::Value);
    assert_eq!(id, "g-4e5627");
}

#[test]
fn concurrent_savers_of_one_accepted_list_never_leave_a_mixed_or_missing_list() {
    use crate::triage::accepted::{AcceptedEntry, AcceptedList};
    let entry = |callee: &str| AcceptedEntry {
        group: group_id(callee, Kind::Value),
        callee: callee.into(),
        kind: Kind::Value,
        cause: None,
        callees: Vec::new(),
        target: "*".into(),
        reason: "known".into(),
        by: None,
        date: None,
    };
    let mut a = AcceptedList::default();
    assert!(a.add(entry("C.f()")).is_none());
    let mut b = AcceptedList::default();
    for i in 0..200 {
        assert!(b.add(entry(&format!("C.g{i}()"))).is_none());
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("accepted.yaml");
    a.save(&path).unwrap();
    let save = |l: &AcceptedList| (0..30).for_each(|_| l.save(&path).unwrap());
    crate::atomic::race(&[&|| save(&a), &|| save(&b)], &|| {
        let read = AcceptedList::load(&path).expect("always a whole, checked list");
        assert!(read == a || read == b, "one saver's list, not a mix");
    });
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file left behind");
}

#[test]
fn one_callee_with_two_kinds_of_change_gets_two_group_ids() {
    // A report of Math.cbrt had a hash-only group and a last-place group under one id, and
    // its own reader refused it ("appears twice").
    let callee = "java.lang.Math.cbrt(double)";
    let hash = group_id_labelled(callee, Kind::Value, Some(Label::HashOnly));
    let last = group_id_labelled(callee, Kind::Value, Some(Label::LastPlace));
    let plain = group_id_labelled(callee, Kind::Value, None);
    assert!(hash != last && hash != plain && last != plain);
    assert_eq!(plain, group_id(callee, Kind::Value));
}

#[test]
fn ids_that_meet_are_made_unique_in_key_order() {
    let mut taken = std::collections::HashSet::new();
    let first = unique_id(&mut taken, "A.f()", Kind::Value, None);
    let second = unique_id(&mut taken, "A.f()", Kind::Value, None);
    assert_eq!(first, group_id("A.f()", Kind::Value));
    assert_ne!(first, second);
    assert_eq!(second, group_id("A.f()\u{0}1", Kind::Value));
}
