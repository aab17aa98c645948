//! Builds a [`Report`] from a replay's outcomes and groups, applying the accepted list and
//! deciding the gate.

use super::java::java_source_observed;
use super::{
    Gate, GroupReport, GroupStatus, Implementation, MinimizedReport, Options, Report, Stats,
    Summary, TestDetail, TestReport, TestStatus,
};
use crate::compare::{Divergence, Verdict};
use crate::replay::Record;
use crate::replay::{Shard, TestOutcome};
use crate::suite::Test;
use crate::text::show;
use crate::triage::accepted::AcceptedList;
use crate::triage::label::Label;
use crate::triage::{Examples, Group, Minimized};
use std::collections::BTreeMap;

/// Everything about a replay that is not in its outcomes.
pub(crate) struct Context<'a> {
    pub reference: Implementation,
    pub target: Implementation,
    pub suite: String,
    pub shard: Option<Shard>,
    pub options: Options,
    pub accepted: &'a AcceptedList,
    pub seconds: f64,
    pub stats: Stats,
    pub notes: Vec<String>,
    /// Dependencies whose version changed (each a cause row).
    pub dependencies: Vec<crate::targets::dependency::DependencyChange>,
}

/// The report of one replay: `tests` the records of the tests that did not pass (or of
/// all), `examples` (at least) the groups' example tests.
pub(crate) fn build(
    ctx: Context,
    tests: &[Record],
    outcomes: &[TestOutcome],
    groups: &[Group],
    examples: &Examples,
) -> Report {
    let target = ctx.target.name.clone();
    let strict = ctx.options.strict_messages;
    let mut group_reports: Vec<GroupReport> = groups
        .iter()
        .map(|g| group_report(g, examples.get(&g.example).copied()))
        .collect();
    let versions = super::cause::versions(&ctx.reference, &ctx.target);
    super::cause::label_groups(&mut group_reports, &versions);
    super::dependency::attribute(&mut group_reports, &ctx.dependencies);
    for g in &mut group_reports {
        let accepted = ctx
            .accepted
            .find_for(&g.id, g.label, g.change.as_deref(), &target);
        g.status = match (accepted, g.kind.counts(strict)) {
            (Some(_), _) => GroupStatus::Accepted,
            (None, true) => GroupStatus::New,
            (None, false) => GroupStatus::Shown,
        };
        g.accepted = accepted.cloned();
    }
    super::cause::set_artefacts(&mut group_reports);
    sort_groups(&mut group_reports);
    relate_groups(&mut group_reports);
    let status_of: BTreeMap<&str, GroupStatus> = group_reports
        .iter()
        .map(|g| (g.id.as_str(), g.status))
        .collect();
    let group_of: BTreeMap<u64, &str> = group_reports
        .iter()
        .flat_map(|g| g.test_ids.iter().map(move |&t| (t, g.id.as_str())))
        .collect();
    let mut test_reports: Vec<TestReport> = tests
        .iter()
        .zip(outcomes)
        .map(|(t, o)| test_report(t.id, o, &status_of, group_of.get(&t.id).copied()))
        .collect();
    super::cause::fill_tests(&mut test_reports, &group_reports);
    let mut causes = super::cause::causes(&group_reports);
    let quiet = super::dependency::quiet_rows(&ctx.dependencies, &causes, ctx.accepted, &target);
    causes.extend(quiet);
    let seen: Vec<_> = group_reports
        .iter()
        .map(|g| (g.id.as_str(), g.label, g.change.as_deref()))
        .chain(
            causes
                .iter()
                .map(|c| (c.id.as_str(), c.label, c.change.as_deref())),
        )
        .collect();
    let stale_accepted = ctx
        .accepted
        .stale(&target, &seen)
        .into_iter()
        .cloned()
        .collect();
    let summary = summarize(&test_reports, &group_reports, &causes, ctx.seconds);
    Report {
        schema_version: super::SCHEMA_VERSION,
        tool: format!("difftest {}", env!("CARGO_PKG_VERSION")),
        reference: ctx.reference,
        target: ctx.target,
        suite: ctx.suite,
        shards: ctx.shard.map(|s| s.to_string()).into_iter().collect(),
        options: ctx.options,
        gate: gate(&group_reports),
        summary,
        causes,
        groups: group_reports,
        stale_accepted,
        notes: ctx.notes,
        dependencies: ctx.dependencies,
        stats: ctx.stats,
        tests: test_reports,
    }
}

/// New groups first, then accepted, then shown; most tests first; then by callee.
pub(crate) fn sort_groups(groups: &mut [GroupReport]) {
    groups.sort_by(|a, b| {
        (a.status, b.tests, &a.callee, a.kind).cmp(&(b.status, a.tests, &b.callee, b.kind))
    });
}

/// Marks each value group whose change (the changed text only) equals that of an earlier
/// group as the same change as the first such group; `groups` must be sorted.
pub(crate) fn relate_groups(groups: &mut [GroupReport]) {
    let mut first: BTreeMap<String, String> = BTreeMap::new();
    for g in groups.iter_mut() {
        g.same_change_as = None;
        if g.kind != crate::compare::Kind::Value {
            continue;
        }
        let Some(change) = crate::text::change(&g.ref_value, &g.tgt_value) else {
            continue;
        };
        match first.get(&change) {
            Some(id) => g.same_change_as = Some(id.clone()),
            None => {
                first.insert(change, g.id.clone());
            }
        }
    }
}

/// Fails when any group is new, or when the target's class path lacks a class (a
/// `classpath` group, accepted or not: the environment, never a pass).
pub(crate) fn gate(groups: &[GroupReport]) -> Gate {
    if groups
        .iter()
        .any(|g| g.status == GroupStatus::New || g.label == Label::Classpath)
    {
        Gate::Fail
    } else {
        Gate::Pass
    }
}

/// The counts of the summary line from the per-test statuses.
pub(crate) fn summarize(
    tests: &[TestReport],
    groups: &[GroupReport],
    causes: &[super::CauseReport],
    seconds: f64,
) -> Summary {
    let new_causes = causes
        .iter()
        .filter(|c| c.status == GroupStatus::New)
        .count();
    let count = |s: TestStatus| tests.iter().filter(|t| t.status == s).count();
    Summary {
        tests: tests.len(),
        passed: count(TestStatus::Pass) + count(TestStatus::MessageOnly),
        differing: count(TestStatus::Differs),
        accepted: count(TestStatus::Accepted),
        message_only: count(TestStatus::MessageOnly),
        unstable: count(TestStatus::Unstable),
        groups: groups.len(),
        new_groups: groups
            .iter()
            .filter(|g| g.status == GroupStatus::New)
            .count(),
        new_changes: if causes.is_empty() {
            distinct_new_changes(groups)
        } else {
            new_causes
        },
        causes: causes.len(),
        new_causes,
        artefacts: count(TestStatus::Artefact),
        seconds,
    }
}

/// New groups that are not the same change as another new group.
fn distinct_new_changes(groups: &[GroupReport]) -> usize {
    let new: std::collections::BTreeSet<&str> = groups
        .iter()
        .filter(|g| g.status == GroupStatus::New)
        .map(|g| g.id.as_str())
        .collect();
    groups
        .iter()
        .filter(|g| g.status == GroupStatus::New)
        .filter(|g| !g.same_change_as.as_deref().is_some_and(|s| new.contains(s)))
        .count()
}

fn values(d: &Divergence) -> (String, String) {
    let reference = match (&d.expected, d.kind) {
        (None, crate::compare::Kind::Timeout | crate::compare::Kind::Crash) => {
            "completes".to_string()
        }
        (e, _) => show(e.as_ref(), None, "(not checked)"),
    };
    let absent = d.kind.name();
    let target = match (&d.actual, &d.detail) {
        (None, Some(detail)) => format!("{absent}: {}", crate::text::visible(detail)),
        (a, _) => show(a.as_ref(), None, "(nothing)"),
    };
    (reference, target)
}

/// A group's report, new until the accepted list is applied; without its example test,
/// the example has no statements.
fn group_report(g: &Group, example: Option<&Test>) -> GroupReport {
    let (ref_value, tgt_value) = values(&g.divergence);
    GroupReport {
        id: g.id.clone(),
        callee: g.callee.clone(),
        kind: g.kind,
        label: crate::triage::label::Label::plain(g.kind),
        change: None,
        cause: g.id.clone(),
        status: GroupStatus::New,
        tests: g.tests.len(),
        test_ids: g.tests.clone(),
        example: g.example,
        example_statements: example.map_or(0, |t| t.statements.len()),
        site: g.divergence.site,
        ref_value,
        tgt_value,
        ref_observed: g.divergence.expected.clone(),
        tgt_observed: g.divergence.actual.clone(),
        example_java: example.map_or_else(Vec::new, |t| example_java(t, g.divergence.site)),
        accepted: None,
        minimized: g.minimized.as_ref().map(minimized_report),
        reproduced: g.reproduced,
        same_change_as: None,
    }
}

/// The example as Java; for an observer divergence, the observer call is the last line.
fn example_java(example: &Test, site: crate::compare::Site) -> Vec<String> {
    let mut lines = java_source_observed(&example.statements, &example.observers);
    if let crate::compare::Site::Observer(j) = site
        && let Some(o) = example.observers.get(j)
    {
        let expr = super::java::observer_expression(o, &example.statements);
        lines.push(format!("{expr};"));
    }
    lines
}

fn minimized_report(m: &Minimized) -> MinimizedReport {
    let (ref_value, tgt_value) = values(&m.divergence);
    MinimizedReport {
        statements: m.test.statements.len(),
        original_statements: m.original_len,
        runs: m.runs,
        site: m.divergence.site,
        ref_value,
        tgt_value,
        java: java_source_observed(&m.test.statements, &m.test.observers),
        test: m.test.clone(),
    }
}

fn test_report(
    id: u64,
    outcome: &TestOutcome,
    status_of: &BTreeMap<&str, GroupStatus>,
    group: Option<&str>,
) -> TestReport {
    let mut detail = TestDetail::default();
    let (status, divergence) = match outcome {
        TestOutcome::Pass => return TestReport::passed(id),
        TestOutcome::Unstable { first, .. } => (TestStatus::Unstable, first.divergence()),
        TestOutcome::Differs {
            verdict: Verdict::Differs(d),
        } => {
            let id = group.map_or_else(
                || crate::triage::group_id(&d.callee, d.kind),
                str::to_string,
            );
            let status = match status_of.get(id.as_str()) {
                Some(GroupStatus::Accepted) => TestStatus::Accepted,
                Some(GroupStatus::Shown) => TestStatus::MessageOnly,
                Some(GroupStatus::Artefact) => TestStatus::Artefact,
                _ => TestStatus::Differs,
            };
            detail.group = Some(id);
            (status, Some(d))
        }
        TestOutcome::Differs { .. } => (TestStatus::Pass, None),
    };
    if let Some(d) = divergence {
        let (r, t) = values(d);
        detail.kind = Some(d.kind);
        detail.callee = Some(d.callee.clone());
        detail.observed = d.observed.as_deref().map(str::to_string);
        detail.ref_value = Some(r);
        detail.tgt_value = Some(t);
    }
    TestReport::new(id, status, detail)
}

/// Adds the tests that passed (a streaming replay keeps only their ids) to a report built
/// from the others, in id order, and counts the summary again.
pub(crate) fn add_passes(report: &mut Report, ids: &[u64]) {
    report
        .tests
        .extend(ids.iter().map(|&id| TestReport::passed(id)));
    report.tests.sort_by_key(|t| t.id);
    let seconds = report.summary.seconds;
    report.summary = summarize(&report.tests, &report.groups, &report.causes, seconds);
}
