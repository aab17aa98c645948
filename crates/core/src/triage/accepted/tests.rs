//! Unit tests of the accepted list: matching by target, group and cause, stale entries,
//! formats 2 and 3, refused edits and duplicates, dates.

use super::*;

fn entry(target: &str) -> AcceptedEntry {
    AcceptedEntry {
        group: crate::triage::group_id("A.f()", Kind::Value),
        callee: "A.f()".into(),
        kind: Kind::Value,
        cause: None,
        callees: vec![],
        target: target.into(),
        reason: "known".into(),
        by: None,
        date: None,
    }
}

#[test]
fn civil_date_matches_known_days() {
    assert_eq!(civil_date(0), "1970-01-01");
    assert_eq!(civil_date(19_723), "2024-01-01");
    assert_eq!(civil_date(11_016), "2000-02-29");
}

#[test]
fn entries_match_their_target_or_every_target() {
    let mut list = AcceptedList::default();
    let id = entry("t21").group;
    list.add(entry("t21"));
    assert!(list.find(&id, "t21").is_some());
    assert!(list.find(&id, "t25").is_none());
    let missing = crate::triage::group_id("A.f()", Kind::Missing);
    assert!(list.find(&missing, "t21").is_none());
    assert!(
        list.add(entry("*")).is_none(),
        "a wider target is a new entry"
    );
    assert!(list.find(&id, "t25").is_some());
    assert!(list.add(entry("*")).is_some(), "already accepted");
    assert!(list.add(entry("t25")).is_some(), "covered by `*`");
    assert_eq!(
        list.accepted.len(),
        2,
        "nothing replaced, nothing added twice"
    );
}

#[test]
fn stale_entries_are_those_not_seen() {
    let mut list = AcceptedList::default();
    list.add(entry("t21"));
    assert_eq!(list.stale("t21", &[]).len(), 1);
    let id = entry("t21").group;
    let seen = [(id.as_str(), Label::ValueDiffers, None)];
    assert!(list.stale("t21", &seen).is_empty());
    assert!(list.stale("t25", &[]).is_empty());
}

#[test]
fn a_cause_entry_covers_every_callee_with_the_same_change() {
    let mut list = AcceptedList::default();
    list.add(AcceptedEntry {
        group: "c-123456".into(),
        callee: "A.f()".into(),
        kind: Kind::Value,
        cause: Some(CauseKey {
            label: Label::Rendering,
            change: "float/double printed with other digits".into(),
        }),
        callees: vec!["A.f()".into()],
        target: "*".into(),
        reason: "shortest decimal".into(),
        by: None,
        date: None,
    });
    let change = Some("float/double printed with other digits");
    let found = list.find_for("g-000001", Label::Rendering, change, "t21");
    assert!(found.is_some(), "a new callee with the same change");
    assert!(
        list.find_for("g-000001", Label::Invisible, change, "t21")
            .is_none()
    );
    assert!(list.find("c-123456", "t21").is_none(), "not a group entry");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.accepted.yaml");
    list.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("format: 3"), "{text}");
    let back = AcceptedList::load(&path).unwrap();
    assert_eq!(back.accepted, list.accepted);
}

#[test]
fn round_trips_and_refuses_newer_formats() {
    let dir = tempfile::tempdir().unwrap();
    let path = path_for(&dir.path().join("t17.yaml"));
    assert!(path.ends_with("t17.accepted.yaml"));
    assert_eq!(AcceptedList::load(&path).unwrap(), AcceptedList::default());
    let mut list = AcceptedList::default();
    list.add(entry("*"));
    list.save(&path).unwrap();
    assert_eq!(AcceptedList::load(&path).unwrap(), list);
    std::fs::write(&path, "format: 9\naccepted: []\n").unwrap();
    assert!(matches!(
        AcceptedList::load(&path),
        Err(AcceptedError::Newer { found: 9, .. })
    ));
    std::fs::write(&path, "format: 3\naccepted: [{group: x}]\n").unwrap();
    let err = AcceptedList::load(&path).unwrap_err().to_string();
    assert!(
        err.contains("t17.accepted.yaml") && err.contains("line"),
        "{err}"
    );
}

#[test]
fn edited_old_or_duplicated_lists_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.accepted.yaml");
    let mut list = AcceptedList::default();
    list.add(entry("t21"));
    list.add(entry("*"));
    list.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let load = |text: &str| {
        std::fs::write(&path, text).unwrap();
        AcceptedList::load(&path).map_err(|e| e.to_string())
    };
    assert_eq!(load(&text).unwrap(), list);
    let err = load(&text.replacen("reason: known", "reason: knowN", 1)).unwrap_err();
    assert!(
        err.contains("checksum") && err.contains("--reseal"),
        "{err}"
    );
    let cut: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(load(&cut).unwrap_err().contains("no `# sum"), "cut");
    let old = cut.replace("format: 3", "format: 1");
    assert!(load(&old).unwrap_err().contains("format 1 has no checksum"));
    let zero = cut.replace("format: 3", "format: 0");
    assert!(load(&zero).unwrap_err().contains("format 0"));
    // The same entry twice, even with a valid checksum.
    let twice = cut.replace("target: t21", "target: '*'");
    let sum = crate::suite::checksum::digest(twice.as_bytes());
    let err = load(&format!("{twice}{SUM_LINE}{sum:016x}\n")).unwrap_err();
    assert!(
        err.contains("accepted twice") && err.contains("line 8"),
        "{err}"
    );
    assert!(AcceptedList::load_unverified(&path).is_err());
}

/// Two groups of one callee and kind with different labels: each accept is its own
/// entry, and each matches its own group alone.
#[test]
fn groups_of_one_callee_and_kind_are_accepted_apart() {
    let mut list = AcceptedList::default();
    let a = AcceptedEntry {
        group: "g-00000a".into(),
        ..entry("*")
    };
    let b = AcceptedEntry {
        group: "g-00000b".into(),
        ..entry("*")
    };
    assert!(list.add(a).is_none());
    assert!(list.add(b).is_none());
    assert_eq!(list.accepted.len(), 2);
    assert!(list.find("g-00000a", "t21").is_some());
    assert!(list.find("g-00000c", "t21").is_none(), "no other group");
}

/// A sealed format-2 list (written before entries were keyed by id) still loads, and
/// its entries match the groups they were accepted under.
#[test]
fn a_sealed_format_2_list_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.accepted.yaml");
    let body = "format: 2\naccepted:\n- group: g-3fa2c1\n  callee: A.f()\n  kind: value\n  target: '*'\n  reason: known\n";
    let sum = crate::suite::checksum::digest(body.as_bytes());
    std::fs::write(&path, format!("{body}{SUM_LINE}{sum:016x}\n")).unwrap();
    let list = AcceptedList::load(&path).unwrap();
    assert!(list.find("g-3fa2c1", "t21").is_some());
    list.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("format: 3\n"), "{text}");
    assert_eq!(AcceptedList::load(&path).unwrap().accepted, list.accepted);
}
