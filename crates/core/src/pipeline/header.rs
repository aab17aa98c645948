//! What a record writes: the classification of the exceptions the tests expect, the header
//! (options and counts that do not depend on the machine or the number of workers), and the
//! suite itself, streamed test by test from the compact form generation kept.

use crate::contracts::{ExceptionKind, classify};
use crate::flakes::RerunReport;
use crate::generate::kept::KeptTest;
use crate::generate::reduce::Reduction;
use crate::generate::spool::SpoolError;
use crate::generate::{Recorded, StopReason};
use crate::in_order;
use crate::model::ApiModel;
use crate::pool::Pool;
use crate::sequence::Observed;
use crate::suite::{FORMAT_VERSION, Header, Writer, chunked};
use crate::targets::Fingerprint;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Exception classes the kept tests expect, classified with the hierarchy from `model`, or
/// from the reference (one `describe`) for classes outside the scope.
pub(crate) fn exception_kinds(
    rec: &Recorded,
    model: &ApiModel,
    pool: &Pool,
) -> Result<BTreeMap<String, ExceptionKind>, SpoolError> {
    let classes = expected_exceptions(rec)?;
    let outside: Vec<String> = classes
        .iter()
        .filter(|c| model.class(c).is_none())
        .cloned()
        .collect();
    let extra = match outside.is_empty() {
        true => ApiModel::default(),
        false => pool
            .describe(&outside, &[])
            .map(|d| d.0)
            .unwrap_or_default(),
    };
    let kinds = classes.into_iter().map(|c| {
        let class = model.class(&c).or_else(|| extra.class(&c));
        let kind = classify(&c, class.map(|k| k.supertypes.as_slice()));
        (c, kind)
    });
    Ok(kinds.collect())
}

/// Exception classes the kept tests expect.
pub(crate) fn expected_exceptions(rec: &Recorded) -> Result<BTreeSet<String>, SpoolError> {
    let mut classes = BTreeSet::new();
    let tests = &rec.tests;
    in_order::for_each(
        0..tests.len(),
        |i| {
            let t = tests.get(i)?;
            let values = t.checks.iter().map(|c| &c.1);
            let all = values.chain(t.checked_observations().map(|(_, v)| v));
            let thrown = all.filter_map(|v| match v {
                Observed::Threw { class, .. } => Some(class.clone()),
                _ => None,
            });
            Ok(thrown.collect::<Vec<String>>())
        },
        |thrown| {
            classes.extend(thrown);
            Ok(())
        },
    )?;
    Ok(classes)
}

/// Everything the header needs to know.
pub(crate) struct Made<'a> {
    pub reference: &'a str,
    pub fingerprint: Fingerprint,
    pub seed: u64,
    pub classes: Vec<String>,
    pub packages: Vec<String>,
    pub options: BTreeMap<String, String>,
    pub reason: Option<StopReason>,
    pub report: &'a RerunReport,
    /// Suite reduction, unless `--keep-all`.
    pub reduction: Option<Reduction>,
    pub partial: bool,
}

/// The suite header.
pub(crate) fn header(
    made: Made,
    rec: &Recorded,
    kinds: &BTreeMap<String, ExceptionKind>,
) -> Header {
    let s = &rec.stats;
    let r = made.report;
    let mut counts: BTreeMap<String, u64> = [
        ("executed", s.executed),
        ("rounds", s.rounds),
        ("duplicates", s.duplicates),
        ("too-long", s.too_long),
        ("no-input", s.no_input),
        ("invalid", s.invalid),
        ("vm-errors", s.vm_errors),
        ("timeouts", s.timeouts),
        ("timed-out-callables", rec.timed_out.len() as u64),
        ("crashes", s.crashes),
        ("truncated", s.truncated),
        ("unchecked", s.unchecked),
        ("kept", s.kept_normal + s.kept_exceptional),
        ("redundant", rec.redundant as u64),
        ("violations", s.violations),
        ("error-groups", rec.error_groups as u64),
        ("pool-values", rec.pool_values as u64),
        ("mined-literals", rec.mined_values as u64),
        ("mined-classes", rec.mined_classes as u64),
        ("config-keys", rec.config_keys as u64),
        ("harvests", s.harvests),
        ("harvested", s.harvested),
        ("lookups", s.lookups),
        ("consumers", s.consumers),
        ("products", s.products),
        ("index-boundaries", s.index_boundaries),
        ("nulls-once", s.nulls_once),
        ("sorted-copies", s.sorted_copies),
        ("hidden-states", s.hidden_states),
        ("misfit-observers", s.misfit_observers),
        ("reruns-done", r.reruns_done as u64),
        ("unstable-checks", r.dropped_checks),
        ("unstable-observations", r.dropped_observations),
        ("derived-from-unstable", r.dropped_derived),
        ("weakened-messages", r.weakened_messages),
        ("unstable-tests", r.dropped_tests),
        ("tests", rec.tests.len() as u64),
        ("error-revealing", rec.errors.len() as u64),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    for (i, &ran) in r.ran_per_rerun.iter().enumerate() {
        counts.insert(format!("rerun-tests.{}", i + 1), ran);
    }
    for kind in kinds.values() {
        *counts
            .entry(format!("exception-classes.{}", kind.as_str()))
            .or_default() += 1;
    }
    if let Some(r) = made.reduction {
        counts.insert("reduced-from".into(), r.before as u64);
        counts.insert("behaviours".into(), r.behaviours as u64);
    }
    let mut options = made.options;
    if let Some(reason) = made.reason {
        options.insert("stopped-by".into(), stop_text(reason).into());
    }
    Header {
        format: FORMAT_VERSION,
        tool: format!("difftest {}", env!("CARGO_PKG_VERSION")),
        reference: made.reference.to_string(),
        fingerprint: made.fingerprint,
        seed: made.seed,
        classes: made.classes,
        packages: made.packages,
        options,
        counts,
        partial: made.partial,
    }
}

pub(crate) fn stop_text(reason: StopReason) -> &'static str {
    match reason {
        StopReason::TimeLimit => "time-limit",
        StopReason::OutputLimit => "output-limit",
        StopReason::Interrupted => "interrupt",
        StopReason::Exhausted => "exhausted",
        StopReason::MissingClasses => "missing-classes",
    }
}

/// Writes the suite atomically, test by test, with the statements the tests share written
/// once (planned chunk by chunk, each test read back and expanded one at a time).
pub(crate) fn write(
    path: &Path,
    header: &Header,
    kinds: &BTreeMap<String, ExceptionKind>,
    rec: &Recorded,
) -> Result<(), super::Error> {
    let test = |i| {
        let t: KeptTest = rec.tests.get(i)?;
        Ok::<_, super::Error>(t.expand(&rec.templates, &rec.names))
    };
    let mut w = Writer::create(path, header, kinds)?;
    chunked::write_tests(&mut w, rec.tests.len(), test)?;
    for e in &rec.errors {
        w.error_test(e)?;
    }
    Ok(w.finish()?)
}
