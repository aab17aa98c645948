//! Merging the JSON reports of the shards of one replay (`difftest report --merge`): tests
//! are concatenated, groups with the same id combined (the shortest example that reproduced
//! wins), stale accepted entries are those stale in every part, and the summary and gate
//! recomputed.
//! Every part names its shard `K/N`; a merge missing one of the N shards is refused unless
//! the caller allows a partial verdict, which the merged report then states in its notes.

use super::assemble::{gate, relate_groups, sort_groups, summarize};
use super::{GroupReport, Report, ReportError, Stats};
use crate::replay::Shard;
use std::collections::{BTreeMap, BTreeSet};

/// Merges the reports of the parts of one replay (same reference and target). A missing
/// shard is an error unless `allow_partial`, which notes it in the merged report instead.
pub fn merge(parts: Vec<Report>, allow_partial: bool) -> Result<Report, ReportError> {
    let mut parts = parts.into_iter();
    let mut merged = parts
        .next()
        .ok_or_else(|| ReportError::Mismatch("no report to merge".into()))?;
    for part in parts {
        absorb(&mut merged, part)?;
    }
    merged.tests.sort_by_key(|t| t.id);
    // Labels and causes again: the merged groups may have other examples, and reports of
    // older versions have none.
    let versions = super::cause::versions(&merged.reference, &merged.target);
    super::cause::label_groups(&mut merged.groups, &versions);
    super::dependency::attribute(&mut merged.groups, &merged.dependencies);
    super::cause::set_artefacts(&mut merged.groups);
    sort_groups(&mut merged.groups);
    relate_groups(&mut merged.groups);
    super::cause::fill_tests(&mut merged.tests, &merged.groups);
    let quiet = std::mem::take(&mut merged.causes);
    merged.causes = super::cause::causes(&merged.groups);
    super::dependency::keep_quiet_rows(quiet, &mut merged.causes);
    merged.shards.sort();
    check_complete(&mut merged, allow_partial)?;
    merged.summary = summarize(
        &merged.tests,
        &merged.groups,
        &merged.causes,
        merged.summary.seconds,
    );
    merged.gate = gate(&merged.groups);
    let tests = merged.summary.tests as f64;
    merged.stats.tests_per_second = if merged.summary.seconds > 0.0 {
        tests / merged.summary.seconds
    } else {
        0.0
    };
    Ok(merged)
}

fn absorb(merged: &mut Report, part: Report) -> Result<(), ReportError> {
    check_compatible(merged, &part)?;
    let seen: BTreeSet<u64> = merged.tests.iter().map(|t| t.id).collect();
    if let Some(t) = part.tests.iter().find(|t| seen.contains(&t.id)) {
        return Err(ReportError::Mismatch(format!(
            "test #{} is in two parts",
            t.id
        )));
    }
    merged.shards.extend(part.shards);
    merged.tests.extend(part.tests);
    merged
        .stale_accepted
        .retain(|e| part.stale_accepted.contains(e));
    for note in part.notes {
        if !merged.notes.contains(&note) {
            merged.notes.push(note);
        }
    }
    merged.summary.seconds = merged.summary.seconds.max(part.summary.seconds);
    add_stats(&mut merged.stats, &part.stats);
    let mut by_id: BTreeMap<String, GroupReport> = std::mem::take(&mut merged.groups)
        .into_iter()
        .map(|g| (g.id.clone(), g))
        .collect();
    for g in part.groups {
        match by_id.remove(&g.id) {
            Some(old) => by_id.insert(g.id.clone(), combine(old, g)),
            None => by_id.insert(g.id.clone(), g),
        };
    }
    merged.groups = by_id.into_values().collect();
    Ok(())
}

fn check_compatible(a: &Report, b: &Report) -> Result<(), ReportError> {
    let differ = |what: &str, x: &str, y: &str| {
        Err(ReportError::Mismatch(format!(
            "parts have different {what}: {x} and {y}"
        )))
    };
    if a.reference.name != b.reference.name {
        return differ("references", &a.reference.name, &b.reference.name);
    }
    if a.target.name != b.target.name {
        return differ("targets", &a.target.name, &b.target.name);
    }
    if a.shards.is_empty() || b.shards.is_empty() {
        return Err(ReportError::Mismatch(
            "a part replayed the whole suite, not a shard".into(),
        ));
    }
    if let Some(s) = b.shards.iter().find(|s| a.shards.contains(s)) {
        return Err(ReportError::Mismatch(format!("shard {s} is given twice")));
    }
    Ok(())
}

/// Refuses (or, with `allow_partial`, notes) shards of `K/N` that no part replayed.
fn check_complete(merged: &mut Report, allow_partial: bool) -> Result<(), ReportError> {
    let missing = missing_shards(&merged.shards)?;
    if missing.is_empty() {
        return Ok(());
    }
    if !allow_partial {
        return Err(ReportError::Mismatch(format!(
            "{} (give every shard's report, or --allow-partial for a partial verdict)",
            missing_phrase(&missing)
        )));
    }
    merged.notes.push(format!(
        "partial verdict: {}; the gate covers only shards {}",
        missing_phrase(&missing),
        merged.shards.join(", ")
    ));
    Ok(())
}

/// "shard 3/3 is missing" or "shards 2/4, 4/4 are missing".
fn missing_phrase(missing: &[String]) -> String {
    match missing {
        [one] => format!("shard {one} is missing"),
        many => format!("shards {} are missing", many.join(", ")),
    }
}

/// The shards `K/N` of the same N not among `shards`; an error when the parts disagree on N.
pub(crate) fn missing_shards(shards: &[String]) -> Result<Vec<String>, ReportError> {
    let mut parsed = Vec::new();
    for s in shards {
        let shard: Shard = s
            .parse()
            .map_err(|e: crate::replay::ShardError| ReportError::Mismatch(e.to_string()))?;
        parsed.push(shard);
    }
    let Some(n) = parsed.first().map(|s| s.n) else {
        return Ok(Vec::new());
    };
    if let Some(other) = parsed.iter().find(|s| s.n != n) {
        return Err(ReportError::Mismatch(format!(
            "parts split the suite differently: shard {} and shard {other}",
            parsed[0]
        )));
    }
    let present: BTreeSet<u32> = parsed.iter().map(|s| s.k).collect();
    Ok((1..=n)
        .filter(|k| !present.contains(k))
        .map(|k| Shard { k, n }.to_string())
        .collect())
}

/// One group from two parts: the example that still differed side by side (or was not
/// tried) wins over one that did not, then the shortest, as a whole replay keeps trying
/// the group's other tests when its first example does not reproduce; a shard whose short
/// example depended on the clock must not hide another shard's real difference.
fn combine(a: GroupReport, b: GroupReport) -> GroupReport {
    let rank = |g: &GroupReport| (g.reproduced == Some(false), g.example_statements, g.example);
    let (mut keep, other) = if rank(&b) < rank(&a) { (b, a) } else { (a, b) };
    let ids: BTreeSet<u64> = keep
        .test_ids
        .iter()
        .chain(&other.test_ids)
        .copied()
        .collect();
    keep.test_ids = ids.into_iter().collect();
    keep.tests = keep.test_ids.len();
    keep.status = keep.status.min(other.status);
    keep.accepted = keep.accepted.or(other.accepted);
    keep.minimized = match (keep.minimized, other.minimized) {
        (Some(x), Some(y)) => Some(if y.statements < x.statements { y } else { x }),
        (x, y) => x.or(y),
    };
    keep
}

/// Adds a part's counters to the merged ones; they come from files, so a sum saturates
/// rather than wraps (or panics) on values no replay produces.
fn add_stats(into: &mut Stats, s: &Stats) {
    into.workers_started = into.workers_started.saturating_add(s.workers_started);
    into.worker_startup_ms = into.worker_startup_ms.saturating_add(s.worker_startup_ms);
    into.timeouts = into.timeouts.saturating_add(s.timeouts);
    into.crashes = into.crashes.saturating_add(s.crashes);
    into.peak_rss_kib_supervisor = into.peak_rss_kib_supervisor.max(s.peak_rss_kib_supervisor);
    into.peak_rss_kib_worker_max = into.peak_rss_kib_worker_max.max(s.peak_rss_kib_worker_max);
    into.peak_rss_kib_total = into.peak_rss_kib_total.max(s.peak_rss_kib_total);
}
