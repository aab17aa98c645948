//! The whole report pipeline on the fake implementation: build, write, read back, merge.
use super::assemble::{Context, build};
use super::*;
use crate::pool::fake::{Fake, SharedLane, counter_test};
use crate::replay::records;
use crate::replay::{ReplayOptions, Shard, replay};
use crate::triage::accepted::AcceptedList;
use crate::triage::{examples, group, minimize::minimize_all};

pub(super) fn suite() -> Vec<Test> {
    let mut tests = Vec::new();
    for i in 0..60u64 {
        let method = ["get", "get", "check", "describe", "newer", "size"][(i % 6) as usize];
        let values: Vec<i64> = if i % 4 == 0 {
            vec![1, 7, 2]
        } else {
            vec![1, 2]
        };
        tests.push(counter_test(i, &values, (i % 3) as usize, method));
    }
    tests
}

pub(super) fn report_of(
    tests: &[Test],
    shard: Option<Shard>,
    accepted: &AcceptedList,
    strict: bool,
) -> Report {
    let refs: Vec<&Test> = tests
        .iter()
        .filter(|t| shard.is_none_or(|s| s.contains(t.id)))
        .collect();
    let lane = SharedLane::target();
    let outcomes = replay(&refs, &lane, &ReplayOptions::default(), &|_| {}).unwrap();
    let mut groups = group(&records(&refs), &outcomes);
    let ex = examples(&refs, &groups);
    let (r, t) = (Fake::reference(), Fake::target());
    minimize_all(&mut groups, &ex, &r, &t, 200).unwrap();
    let context = Context {
        reference: Implementation {
            name: "ref".into(),
            fingerprint: Some("17.0.9 Vendor VM".into()),
            data_versions: Default::default(),
        },
        target: Implementation {
            name: "tgt".into(),
            fingerprint: None,
            data_versions: Default::default(),
        },
        suite: "oracles/ref.yaml".into(),
        shard,
        options: Options {
            strict_messages: strict,
            confirm: 1,
            jobs: 2,
            minimize_budget: 200,
            segment: 1000,
            max_value_bytes: None,
            plain_class_text: false,
        },
        accepted,
        seconds: 1.5,
        stats: Stats::default(),
        notes: vec![],
        dependencies: vec![],
    };
    build(context, &records(&refs), &outcomes, &groups, &ex)
}

#[test]
fn the_report_counts_groups_and_gates() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    assert_eq!(r.summary.tests, 60);
    assert_eq!(r.gate, Gate::Fail);
    let kinds: Vec<(&str, GroupStatus)> = r
        .groups
        .iter()
        .map(|g| (g.callee.as_str(), g.status))
        .collect();
    assert_eq!(
        kinds,
        [
            ("t.Counter.check()", GroupStatus::New),
            ("t.Counter.newer()", GroupStatus::New),
            ("t.Counter.get()", GroupStatus::New),
            ("t.Counter.describe()", GroupStatus::Shown),
        ]
    );
    assert_eq!(r.summary.message_only, 10);
    assert_eq!(r.summary.differing, 10 + 10 + r.groups[2].tests);
    assert_eq!(r.summary.passed + r.summary.differing, 60);
    let get = &r.groups[2];
    assert_eq!(get.minimized.as_ref().map(|m| m.statements), Some(4));
    let strict = report_of(&suite(), None, &AcceptedList::default(), true);
    assert_eq!(strict.summary.new_groups, 4);
}

#[test]
fn accepting_every_group_passes_the_gate_and_reports_stale_entries() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    let mut list = AcceptedList::default();
    for g in &r.groups {
        list.add(crate::triage::accepted::AcceptedEntry {
            group: g.id.clone(),
            callee: g.callee.clone(),
            kind: g.kind,
            cause: None,
            callees: vec![],
            target: "*".into(),
            reason: "fine".into(),
            by: None,
            date: None,
        });
    }
    list.add(crate::triage::accepted::AcceptedEntry {
        group: "g-000000".into(),
        callee: "Gone.f()".into(),
        kind: crate::compare::Kind::Value,
        cause: None,
        callees: vec![],
        target: "tgt".into(),
        reason: "was fixed".into(),
        by: None,
        date: None,
    });
    let r = report_of(&suite(), None, &list, false);
    assert_eq!(r.gate, Gate::Pass);
    assert_eq!(r.summary.new_groups, 0);
    assert_eq!(r.summary.differing, 0);
    assert_eq!(r.stale_accepted.len(), 1);
    assert!(
        r.groups
            .iter()
            .all(|g| g.minimized.is_some() || g.status != GroupStatus::New)
    );
}

#[test]
fn files_are_valid_and_the_json_reads_back() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    let dir = tempfile::tempdir().unwrap();
    let paths = r.write_all(dir.path()).unwrap();
    assert_eq!(paths.len(), 4);
    let html = std::fs::read_to_string(dir.path().join("tgt-vs-ref.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert_eq!(
        Report::read(&dir.path().join("tgt-vs-ref.json")).unwrap(),
        r
    );
    let xml = std::fs::read_to_string(dir.path().join("tgt-vs-ref.junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    assert_eq!(cases, 60);
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, r.summary.differing);
    let md = std::fs::read_to_string(dir.path().join("tgt-vs-ref.md")).unwrap();
    assert!(
        md.contains("```java\nt.Counter v0 = new t.Counter();"),
        "{md}"
    );
    assert!(md.contains("v0.get();  // REF: 7 | TGT: 8"), "{md}");
    assert!(
        !md.contains("- Diff: `[-10-]"),
        "no diff of unrelated numbers: {md}"
    );
}

#[test]
fn merged_shards_equal_the_whole_replay() {
    let tests = suite();
    let list = AcceptedList::default();
    let whole = report_of(&tests, None, &list, false);
    let parts: Vec<Report> = (1..=3)
        .map(|k| report_of(&tests, Some(Shard { k, n: 3 }), &list, false))
        .collect();
    assert_eq!(parts.iter().map(|p| p.summary.tests).sum::<usize>(), 60);
    let merged = merge::merge(parts.clone(), false).unwrap();
    assert_eq!(merged.tests, whole.tests);
    assert_eq!(merged.summary, whole.summary);
    let ids = |r: &Report| {
        r.groups
            .iter()
            .map(|g| (g.id.clone(), g.test_ids.clone(), g.example))
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&merged), ids(&whole));
    assert_eq!(merged.shards, ["1/3", "2/3", "3/3"]);
    let twice = merge::merge(vec![parts[0].clone(), parts[0].clone()], false).unwrap_err();
    assert!(twice.to_string().contains("given twice"), "{twice}");
    assert!(merge::merge(vec![whole.clone(), parts[1].clone()], false).is_err());
}

#[test]
fn a_shard_whose_short_example_did_not_reproduce_does_not_hide_another_shards_difference() {
    let tests = suite();
    let list = AcceptedList::default();
    let parts: Vec<Report> = (1..=2)
        .map(|k| report_of(&tests, Some(Shard { k, n: 2 }), &list, false))
        .collect();
    let shared = |p: &Report| {
        let new = p.groups.iter().filter(|g| g.status == GroupStatus::New);
        let ids = new.map(|g| g.id.clone());
        ids.collect::<std::collections::BTreeSet<_>>()
    };
    let id = shared(&parts[0])
        .intersection(&shared(&parts[1]))
        .next()
        .cloned();
    let id = id.expect("a new group seen in both shards");
    let mut parts = parts;
    // Shard 1's example of the group is the shorter one and, run side by side, did not
    // differ (a clock read): on its own that shard calls the group an artefact.
    let flaky = parts[0].groups.iter_mut().find(|g| g.id == id).unwrap();
    flaky.example_statements = 1;
    flaky.reproduced = Some(false);
    flaky.minimized = None;
    flaky.status = GroupStatus::Artefact;
    let real = parts[1].groups.iter_mut().find(|g| g.id == id).unwrap();
    real.example_statements = 50;
    real.reproduced = Some(true);
    let real_example = real.example;
    for order in [parts.clone(), parts.into_iter().rev().collect()] {
        let merged = merge::merge(order, false).unwrap();
        let g = merged.groups.iter().find(|g| g.id == id).unwrap();
        assert_eq!(g.reproduced, Some(true));
        assert_eq!(g.example, real_example);
        assert_eq!(g.status, GroupStatus::New);
        assert_eq!(merged.gate, Gate::Fail);
    }
}

#[test]
fn merged_counters_saturate_instead_of_overflowing() {
    let tests = suite();
    let list = AcceptedList::default();
    let mut parts: Vec<Report> = (1..=2)
        .map(|k| report_of(&tests, Some(Shard { k, n: 2 }), &list, false))
        .collect();
    for part in &mut parts {
        part.stats.crashes = u64::MAX;
        part.stats.worker_startup_ms = u64::MAX - 1;
    }
    let merged = merge::merge(parts, false).unwrap();
    assert_eq!(merged.stats.crashes, u64::MAX);
    assert_eq!(merged.stats.worker_startup_ms, u64::MAX);
}

#[test]
fn a_part_naming_a_shard_beyond_the_bound_is_refused_not_enumerated() {
    let tests = suite();
    let list = AcceptedList::default();
    let mut part = report_of(&tests, Some(Shard { k: 1, n: 2 }), &list, false);
    part.shards = vec!["1/4294967295".into()];
    let e = merge::merge(vec![part], true).unwrap_err().to_string();
    assert!(e.contains("at most 1024"), "{e}");
}

#[test]
fn the_matrix_names_the_odd_one_out() {
    let tests = suite();
    let list = AcceptedList::default();
    let a = report_of(&tests, None, &list, false);
    let mut b = a.clone();
    b.target.name = "tgt2".into();
    let mut c = report_of(&tests, None, &list, false);
    c.target.name = "ref-twin".into();
    for t in &mut c.tests {
        t.status = TestStatus::Pass;
        t.detail_mut().group = None;
    }
    println!("{}", table::groups_table(&a, table::Width::Fit(table::FIT)));
    println!("{}", table::summary_line(&a));
    let table = matrix::matrix_table(&[a, b, c], table::Width::Wide);
    println!("{table}");
    assert!(table.contains("odd one out"), "{table}");
    assert!(table.contains("= REF"), "{table}");
    let line = table
        .lines()
        .find(|l| l.contains("t.Counter.get()"))
        .unwrap();
    assert!(
        line.trim_end_matches(['│', ' ']).ends_with("-"),
        "two against two: {line}"
    );
}

#[test]
fn the_matrix_shows_a_cause_of_the_same_kind_on_another_target_by_its_value() {
    let tests = suite();
    let a = report_of(&tests, None, &AcceptedList::default(), false);
    let mut b = a.clone();
    b.target.name = "tgt2".into();
    // On tgt2 the first cause has another id (as another data-version pair would give).
    let first = a.causes[0].id.clone();
    let other = "c-0ther0".to_string();
    for g in b.groups.iter_mut().filter(|g| g.cause == first) {
        g.cause = other.clone();
    }
    for t in b
        .tests
        .iter_mut()
        .filter(|t| t.detail().cause.as_ref() == Some(&first))
    {
        t.detail_mut().cause = Some(other.clone());
    }
    b.causes[0].id = other.clone();
    let table = matrix::matrix_table(&[a, b], table::Width::Wide);
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("│ {first}")))
        .unwrap();
    assert!(line.contains(&format!("as {other}: ")), "{table}");
    assert!(!line.contains("differs earlier"), "{table}");
}

/// A new value-difference group like the fake report's first, with its own callee and
/// values and no example Java.
pub(super) fn value_group(
    template: &GroupReport,
    id: &str,
    callee: &str,
    old: &str,
    new: &str,
) -> GroupReport {
    GroupReport {
        id: id.into(),
        callee: callee.into(),
        kind: crate::compare::Kind::Value,
        status: GroupStatus::New,
        ref_value: old.into(),
        tgt_value: new.into(),
        example_java: vec![],
        minimized: None,
        ..template.clone()
    }
}

#[test]
fn one_substitution_is_one_cause_whatever_callee_or_container_shows_it() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    let make = |id: &str, callee: &str, old: &str, new: &str| {
        value_group(&r.groups[0], id, callee, old, new)
    };
    let mut groups = vec![
        make(
            "g-000001",
            "java.util.TreeMap.toString()",
            "\"{2023c=Z[+06:00]}\"",
            "\"{2025b=Z[+06:00]}\"",
        ),
        make(
            "g-000002",
            "java.util.Hashtable.toString()",
            "\"{2023c=Z[-07:00]}\"",
            "\"{2025b=Z[-07:00]}\"",
        ),
        make(
            "g-000003",
            "java.util.TimeZone.getRawOffset()",
            "-3600000",
            "-7200000",
        ),
        make(
            "g-000004",
            "java.util.List.toString()",
            "\"[-3600000]\"",
            "\"[-7200000]\"",
        ),
        make(
            "g-000005",
            "java.lang.Character.isLetter(int)",
            "false",
            "true",
        ),
        make("g-000006", "p.Q.isOpen()", "false", "true"),
    ];
    let versions = crate::triage::label::Versions {
        reference: [("tzdata".to_string(), "2023c".to_string())].into(),
        target: [("tzdata".to_string(), "2025b".to_string())].into(),
        same_runtime: false,
    };
    cause::label_groups(&mut groups, &versions);
    let causes: Vec<&str> = groups.iter().map(|g| g.cause.as_str()).collect();
    assert_eq!(causes[0], causes[1], "a version in two containers");
    assert_eq!(causes[0], causes[2], "one data change");
    assert_eq!(causes[2], causes[3], "the same substitution in a list");
    assert_ne!(causes[4], causes[5], "true → false names no cause");
    assert_eq!(groups[5].label, crate::triage::label::Label::ValueDiffers);
    assert_eq!(
        groups[0].change.as_deref(),
        Some("time-zone data 2023c → 2025b")
    );
    assert_eq!(cause::causes(&groups).len(), 3);
    let mut spliterators = vec![
        make(
            "g-000007",
            "java.util.Spliterator.estimateSize()",
            "1",
            "4611686018427387903",
        ),
        make(
            "g-000008",
            "java.util.Spliterator$OfInt.estimateSize()",
            "100",
            "4611686018427387903",
        ),
        make(
            "g-000009",
            "java.util.List.size()",
            "1",
            "4611686018427387903",
        ),
    ];
    cause::label_groups(&mut spliterators, &versions);
    let causes: Vec<&str> = spliterators.iter().map(|g| g.cause.as_str()).collect();
    assert_eq!(
        causes[0], causes[1],
        "one method of a type and its nested type, one answer"
    );
    assert_ne!(causes[0], causes[2], "another method");
}

#[test]
fn the_fitted_table_has_one_line_per_cause_within_its_width() {
    let mut r = report_of(&suite(), None, &AcceptedList::default(), false);
    let long = format!("\"{}\"", "x".repeat(300));
    let wide_callee = format!("p.{}.m(int,long,java.lang.String)", "Long".repeat(30));
    let mut extra = value_group(&r.groups[0], "g-00000a", &wide_callee, &long, "\"y\"");
    extra.cause = "g-00000a".into();
    r.groups.push(extra);
    r.causes = cause::causes(&r.groups);
    for columns in [100, 80] {
        let table = table::groups_table(&r, table::Width::Fit(columns));
        let widest = table.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest <= columns, "{widest} > {columns}:\n{table}");
        let rows = table.lines().filter(|l| l.starts_with('│')).count();
        assert_eq!(rows, r.causes.len().min(table::ROWS) + 1, "{table}");
        assert!(table.contains('…'), "a cut value is marked:\n{table}");
    }
    let wide = table::groups_table(&r, table::Width::Wide);
    assert!(wide.lines().any(|l| l.chars().count() > 100), "{wide}");
}

#[test]
fn value_groups_with_the_same_change_are_related_and_counted_once() {
    let r = report_of(&suite(), None, &AcceptedList::default(), false);
    let template = r.groups[0].clone();
    let make = |id: &str, old: &str, new: &str| GroupReport {
        id: id.into(),
        kind: crate::compare::Kind::Value,
        status: GroupStatus::New,
        ref_value: old.into(),
        tgt_value: new.into(),
        ..template.clone()
    };
    let mut groups = vec![
        make(
            "g-000001",
            "\"[[checksum=0x1401ad8b]]\"",
            "\"[[checksum=0x4e3f7184]]\"",
        ),
        make(
            "g-000002",
            "\"{M=[checksum=0x1401ad8b]}\"",
            "\"{M=[checksum=0x4e3f7184]}\"",
        ),
        make("g-000003", "1", "2"),
        make("g-000004", "3", "4"),
    ];
    assemble::relate_groups(&mut groups);
    let related: Vec<Option<&str>> = groups.iter().map(|g| g.same_change_as.as_deref()).collect();
    assert_eq!(related, [None, Some("g-000001"), None, None]);
    let summary = assemble::summarize(&[], &groups, &[], 0.0);
    assert_eq!((summary.new_groups, summary.new_changes), (4, 3));
}

#[test]
fn reports_are_read_only_when_their_checksum_and_ids_check_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = report_of(&suite(), None, &AcceptedList::default(), false);
    // Floats that serde_json does not parse back to the same bits without float_roundtrip.
    r.stats.tests_per_second = 2_482.713_480_392_157;
    r.stats.replay_seconds = 0.1 + 0.2;
    r.summary.seconds = 1e-7 / 3.0;
    let path = r.write_all(dir.path()).unwrap().remove(0);
    let back = Report::read(&path).unwrap();
    assert_eq!(back.tests, r.tests);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen("\"differing\": ", "\"differing\": 1", 1);
    std::fs::write(&path, &edited).unwrap();
    let err = Report::read(&path).unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    let old = text.replacen("\"schema_version\": 2", "\"schema_version\": 1", 1);
    std::fs::write(&path, &old).unwrap();
    let err = Report::read(&path).unwrap_err().to_string();
    assert!(err.contains("schema 1 has no checksum"), "{err}");
    let zero = text.replacen("\"schema_version\": 2", "\"schema_version\": 0", 1);
    std::fs::write(&path, &zero).unwrap();
    assert!(Report::read(&path).is_err());
    let mut dup = r.clone();
    dup.tests.push(dup.tests[0].clone());
    let path = dup.write_all(dir.path()).unwrap().remove(0);
    let err = Report::read(&path).unwrap_err().to_string();
    assert!(err.contains("appears twice"), "{err}");
}

#[test]
fn concurrent_writers_of_one_report_never_leave_a_mixed_or_missing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let a = report_of(&suite(), None, &AcceptedList::default(), false);
    let mut b = a.clone();
    b.summary.seconds = 12.5;
    b.tests.truncate(1);
    a.write_all(dir).unwrap();
    let json = dir.join("tgt-vs-ref.json");
    let write = |r: &Report| (0..15).for_each(|_| drop(r.write_all(dir).unwrap()));
    crate::atomic::race(&[&|| write(&a), &|| write(&b)], &|| {
        let read = Report::read(&json).expect("always a whole, checked report");
        assert!(read == a || read == b, "one writer's report, not a mix");
    });
    let last = Report::read(&json).unwrap();
    assert!(last == a || last == b);
    let md = std::fs::read_to_string(dir.join("tgt-vs-ref.md")).unwrap();
    assert_eq!(
        md,
        super::markdown::render(&last),
        "the JSON's run's Markdown"
    );
    let names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "tgt-vs-ref.lock")
        .collect();
    assert_eq!(
        names.len(),
        4,
        "the four report files, no temporaries: {names:?}"
    );
}

#[test]
fn a_group_not_reproduced_side_by_side_is_an_artefact_the_gate_does_not_count() {
    // The recording says 99 where both implementations give 3 (a clock, a hash order):
    // replay differs, the side-by-side run does not.
    let mut test = counter_test(1, &[3], 1, "get");
    let last = test.expected_steps.len() - 1;
    test.expected_steps[last] = Some(crate::sequence::Observed::Value {
        class: "java.lang.Integer".into(),
        text: "99".into(),
    });
    let r = report_of(&[test], None, &AcceptedList::default(), false);
    assert_eq!(r.groups.len(), 1);
    assert_eq!(r.groups[0].reproduced, Some(false));
    assert_eq!(r.groups[0].status, GroupStatus::Artefact);
    assert_eq!(r.tests[0].status, TestStatus::Artefact);
    assert_eq!(r.summary.new_groups, 0);
    assert_eq!(r.gate, Gate::Pass);
}

#[test]
fn a_changed_dependency_is_a_row_of_the_table_and_the_markdown_when_no_test_differs() {
    let mut r = report_of(&suite(), None, &AcceptedList::default(), false);
    r.groups.clear();
    let change = crate::targets::dependency::DependencyChange {
        artifact: "org.example:dep".into(),
        reference: Some("1.0".into()),
        target: Some("2.0".into()),
        classes: vec![],
        unread: None,
    };
    r.causes = dependency::quiet_rows(&[change], &[], &AcceptedList::default(), "tgt");
    let text = table::groups_table(&r, table::Width::Fit(table::FIT));
    assert!(text.contains("org.example:dep 1.0 → 2.0"), "{text}");
    let md = markdown::render(&r);
    assert!(md.contains("## Root causes"), "{md}");
    assert!(md.contains("org.example:dep 1.0 → 2.0"), "{md}");
    // Too long for the table's width: the group id goes before the versions do.
    let long_group = format!("org.example.{}:dep", "deep".repeat(20));
    r.causes[0].change = Some(format!("{long_group} 1.0 → 2.0"));
    let text = table::groups_table(&r, table::Width::Fit(100));
    assert!(text.contains("dependency: dep 1.0 → 2.0"), "{text}");
}
