//! Fixtures for the later grouping rules and the fitted widths: removed members of one
//! class are one cause, the runtime's release is its own cause, and the matrix and the
//! summary fit 100 columns unless `--wide`.
use super::tests::{report_of, suite, value_group};
use super::*;
use crate::compare::Kind;
use crate::sequence::Observed;
use crate::triage::accepted::AcceptedList;
use crate::triage::label::Label;

/// A group whose callee is missing on one side (`what` on the target unless `on_ref`).
fn missing_group(template: &GroupReport, id: &str, what: &str, on_ref: bool) -> GroupReport {
    let threw = Observed::Threw {
        class: "java.lang.UnsupportedOperationException".into(),
        message: None,
        classpath: None,
    };
    let missing = Observed::Missing { what: what.into() };
    let (r, t) = if on_ref {
        (missing, threw)
    } else {
        (threw, missing)
    };
    GroupReport {
        kind: Kind::Missing,
        ref_observed: Some(r),
        tgt_observed: Some(t),
        ..value_group(template, id, what, "x", "y")
    }
}

#[test]
fn removed_members_of_one_class_are_one_cause() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    let t = &r.groups[0];
    let mut groups = vec![
        missing_group(t, "g-000001", "method p.Thread.suspend()", false),
        missing_group(t, "g-000002", "method p.Thread.resume()", false),
        missing_group(t, "g-000003", "class p.Thread$State", false),
        missing_group(t, "g-000004", "field p.Thread.MAX", false),
        missing_group(t, "g-000005", "method p.Group.stop()", false),
        missing_group(t, "g-000006", "method p.Thread.ofVirtual()", true),
    ];
    cause::label_groups(&mut groups, &Default::default());
    let ids: Vec<&str> = groups.iter().map(|g| g.cause.as_str()).collect();
    assert_eq!(ids[0], ids[1], "two methods of one class");
    assert_eq!(ids[0], ids[2], "a nested class of it");
    assert_eq!(ids[0], ids[3], "a field of it");
    assert_eq!(
        groups[0].change.as_deref(),
        Some("p.Thread: members missing on the target")
    );
    assert_eq!(groups[0].label, Label::ApiMissing);
    assert_eq!(
        ids[4], "g-000005",
        "a lone member of another class keeps its group"
    );
    assert_ne!(ids[5], ids[0], "missing on the other side: another change");
    assert_eq!(cause::causes(&groups).len(), 3);
}

#[test]
fn the_runtime_release_in_a_value_is_its_own_cause_not_a_data_familys() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    let make = |id: &str, callee: &str, old: &str, new: &str| {
        let mut g = value_group(&r.groups[0], id, callee, old, new);
        g.example_java = vec![
            "java.security.Provider provider0 = java.security.Security.getProvider(\"SUN\");"
                .into(),
        ];
        g
    };
    let mut groups = vec![
        make(
            "g-000001",
            "java.security.Provider.getVersion()",
            "17.0",
            "21.0",
        ),
        make(
            "g-000002",
            "java.security.Provider.toString()",
            "\"SUN version 17\"",
            "\"SUN version 21\"",
        ),
        make("g-000003", "java.security.Provider.size()", "426", "449"),
    ];
    let side = |fingerprint: &str| Implementation {
        name: "x".into(),
        fingerprint: Some(fingerprint.into()),
        data_versions: Default::default(),
    };
    let versions = cause::versions(
        &side("17.0.9+9 Eclipse Adoptium OpenJDK 64-Bit Server VM"),
        &side("21.0.5+11 Eclipse Adoptium OpenJDK 64-Bit Server VM"),
    );
    cause::label_groups(&mut groups, &versions);
    assert_eq!(groups[0].change.as_deref(), Some("runtime version 17 → 21"));
    assert_eq!(
        groups[0].cause, groups[1].cause,
        "the release named in a text"
    );
    assert_eq!(groups[2].change.as_deref(), Some("security providers"));
    assert_ne!(
        groups[0].cause, groups[2].cause,
        "the catalogue is another change"
    );
}

/// A report with long names and counts, and a second target.
fn wide_reports() -> Vec<Report> {
    let mut a = report_of(&suite(), None, &AcceptedList::default(), false);
    a.reference.name = "temurin17-reference".into();
    a.target.name = "temurin21-candidate".into();
    a.summary.tests = 157_182;
    a.summary.passed = 139_004;
    a.summary.differing = 18_031;
    a.summary.message_only = 1_234;
    a.summary.seconds = 1234.5;
    for g in &mut a.groups {
        g.ref_value = format!("\"{}\"", "abcdefghij ".repeat(12));
    }
    let mut b = a.clone();
    b.target.name = "temurin25-candidate".into();
    let mut c = a.clone();
    c.target.name = "openjdk17-zero-candidate".into();
    vec![a, b, c]
}

fn widest_line(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn the_summary_fits_100_columns_unless_wide() {
    let r = &wide_reports()[0];
    let whole = table::summary_line(r);
    assert!(whole.chars().count() > 100, "the fixture is long: {whole}");
    let fitted = table::summary_lines(r, table::Width::Fit(100));
    assert!(widest_line(&fitted) <= 100, "{fitted}");
    assert!(fitted.lines().count() > 1, "{fitted}");
    assert_eq!(
        fitted.split_whitespace().collect::<Vec<_>>(),
        whole.split_whitespace().collect::<Vec<_>>()
    );
    assert!(fitted.contains("gate: FAIL"), "{fitted}");
    assert_eq!(table::summary_lines(r, table::Width::Wide), whole);
}

#[test]
fn the_matrix_fits_100_columns_unless_wide() {
    let reports = wide_reports();
    let fitted = matrix::matrix_table(&reports, table::Width::Fit(100));
    println!("{fitted}");
    assert!(widest_line(&fitted) <= 100, "{fitted}");
    assert!(fitted.contains('…'), "cut values are marked: {fitted}");
    assert!(
        fitted.contains("value differs: Coun"),
        "the kind of change and the method's simple name: {fitted}"
    );
    let wide = matrix::matrix_table(&reports, table::Width::Wide);
    assert!(widest_line(&wide) > 100, "{wide}");
    assert!(wide.contains("example"), "{wide}");
    assert!(wide.contains("t.Counter"), "{wide}");
}

#[test]
fn a_substitution_contained_in_a_wider_one_is_its_cause() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    let make = |id: &str, callee: &str, old: &str, new: &str| {
        value_group(&r.groups[0], id, callee, old, new)
    };
    let mut groups = vec![
        make(
            "g-000001",
            "java.util.TreeMap.toString()",
            "\"{ACT=Australia/Darwin, EST=-05:00, HST=-10:00, MST=-07:00, NET=Asia/Yerevan}\"",
            "\"{ACT=Australia/Darwin, EST=America/Panama, HST=Pacific/Honolulu, MST=America/Phoenix, NET=Asia/Yerevan}\"",
        ),
        make(
            "g-000002",
            "java.time.ZoneId.getId()",
            "\"-10:00\"",
            "\"Pacific/Honolulu\"",
        ),
        make("g-000003", "p.Q.name()", "\"-10:00\"", "\"Pacific/Fiji\""),
        make("g-000004", "p.Q.size()", "\"x 10\"", "\"x 11\""),
        make("g-000005", "p.F.time()", "\"1:00 AM\"", "\"1:00\\u202FAM\""),
        make(
            "g-000006",
            "p.F.zoned()",
            "\"1:00 AM -10:00\"",
            "\"1:00\\u202FAM Pacific/Honolulu\"",
        ),
    ];
    // Both sides report the same tz data: the zone id is no data change.
    let same = [("tzdata".to_string(), "2025b".to_string())];
    let versions = crate::triage::label::Versions {
        reference: same.clone().into(),
        target: same.into(),
        same_runtime: false,
    };
    cause::label_groups(&mut groups, &versions);
    assert_eq!(
        groups[0].cause, groups[1].cause,
        "one of the map's stretches"
    );
    assert_eq!(groups[1].change, groups[0].change);
    assert_ne!(groups[2].cause, groups[0].cause, "another substitution");
    assert_ne!(groups[3].cause, groups[0].cause);
    assert_eq!(
        groups[4].label,
        Label::Invisible,
        "a named change keeps its rule"
    );
    assert_ne!(groups[4].cause, groups[5].cause, "{:?}", groups[5].change);
}
