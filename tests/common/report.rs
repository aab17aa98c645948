//! A hand-built replay report, shared by the integrity tests and the loader fuzz harness.

use difftest::compare::{Kind, Site};
use difftest::report::{
    Gate, GroupReport, GroupStatus, Implementation, Options, Report, SCHEMA_VERSION, Stats,
    Summary, TestDetail, TestReport, TestStatus,
};

/// A report of `n` new groups (distinct callees) of a replay of `suite`.
pub fn report_with_groups(n: usize, suite: &str) -> Report {
    let implementation = |name: &str| Implementation {
        name: name.into(),
        fingerprint: None,
        data_versions: Default::default(),
    };
    let groups: Vec<GroupReport> = (0..n)
        .map(|i| GroupReport {
            id: format!("g-{i:06x}"),
            callee: format!("Counter.m{i}()"),
            kind: Kind::Value,
            status: GroupStatus::New,
            tests: 1,
            test_ids: vec![i as u64],
            example: i as u64,
            example_statements: 1,
            site: Site::Step(0),
            ref_value: "1".into(),
            tgt_value: "2".into(),
            ref_observed: None,
            tgt_observed: None,
            example_java: vec![format!("new Counter().m{i}();")],
            accepted: None,
            minimized: None,
            reproduced: None,
            same_change_as: None,
            label: difftest::triage::label::Label::ValueDiffers,
            change: None,
            cause: format!("g-{i:06x}"),
        })
        .collect();
    let tests = (0..n)
        .map(|i| {
            let detail = TestDetail {
                group: Some(format!("g-{i:06x}")),
                kind: Some(Kind::Value),
                callee: Some(format!("Counter.m{i}()")),
                observed: None,
                ref_value: Some("1".into()),
                tgt_value: Some("2".into()),
                cause: Some(format!("g-{i:06x}")),
                label: Some(difftest::triage::label::Label::ValueDiffers),
            };
            TestReport::new(i as u64, TestStatus::Differs, detail)
        })
        .collect();
    Report {
        schema_version: SCHEMA_VERSION,
        tool: "test".into(),
        reference: implementation("ref"),
        target: implementation("tgt"),
        suite: suite.into(),
        shards: vec![],
        options: Options {
            strict_messages: false,
            confirm: 1,
            jobs: 1,
            minimize_budget: 0,
            segment: 1000,
            max_value_bytes: None,
            plain_class_text: false,
        },
        causes: vec![],
        gate: Gate::Fail,
        summary: Summary {
            tests: n,
            differing: n,
            groups: n,
            new_groups: n,
            new_changes: n,
            ..Summary::default()
        },
        groups,
        stale_accepted: vec![],
        notes: vec![],
        dependencies: Vec::new(),
        stats: Stats::default(),
        tests,
    }
}
