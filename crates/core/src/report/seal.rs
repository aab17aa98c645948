//! The report's checksum, computed as the report is written: the XXH3-64 of the compact
//! JSON of the report *as a reader parses it back* (serde_json may parse a float one ULP off
//! the value it printed), without its `checksum` field. [`Report::read`] hashes the parsed
//! [`serde_json::Value`] whole; the writer gets the same bytes without holding the whole
//! report as a `Value`: the report without its tests is parsed back whole (it is small), and
//! each test on its own, in turn.

use super::{Report, TestReport};
use crate::suite::checksum::Running;
use serde::Serialize;
use serde_json::Value;
use std::io;

/// The key of the tests in the report's JSON.
const TESTS: &str = "tests";

/// `value` as a reader parses it back from its compact JSON.
fn reparsed<T: Serialize>(value: &T) -> serde_json::Result<Value> {
    serde_json::from_str(&serde_json::to_string(value)?)
}

/// The checksum of the report (see the module doc): equal to the one `Report::read`
/// computes from the whole value.
pub(super) fn checksum(report: &Report) -> serde_json::Result<String> {
    let Value::Object(mut head) = reparsed(&head(report))? else {
        return Err(serde::ser::Error::custom("a report is not a JSON object"));
    };
    head.insert(TESTS.into(), Value::Null); // in the key order a reader sees
    let mut out = Hasher(Running::default());
    out.put(b"{");
    for (i, (key, value)) in head.iter().enumerate() {
        if i > 0 {
            out.put(b",");
        }
        serde_json::to_writer(&mut out, key)?;
        out.put(b":");
        match key.as_str() {
            TESTS => write_tests(&mut out, &report.tests)?,
            _ => serde_json::to_writer(&mut out, value)?,
        }
    }
    out.put(b"}");
    Ok(format!("{:016x}", out.0.value()))
}

/// The tests as a compact JSON array of the values a reader parses back, one at a time.
fn write_tests(out: &mut Hasher, tests: &[TestReport]) -> serde_json::Result<()> {
    out.put(b"[");
    for (i, t) in tests.iter().enumerate() {
        if i > 0 {
            out.put(b",");
        }
        serde_json::to_writer(&mut *out, &reparsed(t)?)?;
    }
    out.put(b"]");
    Ok(())
}

/// The report without its tests (a copy: small beside them).
fn head(report: &Report) -> Report {
    let Report {
        schema_version,
        tool,
        reference,
        target,
        suite,
        shards,
        options,
        gate,
        summary,
        causes,
        groups,
        stale_accepted,
        notes,
        dependencies,
        stats,
        tests: _,
    } = report;
    Report {
        schema_version: *schema_version,
        tool: tool.clone(),
        reference: reference.clone(),
        target: target.clone(),
        suite: suite.clone(),
        shards: shards.clone(),
        options: options.clone(),
        gate: *gate,
        summary: summary.clone(),
        causes: causes.clone(),
        groups: groups.clone(),
        stale_accepted: stale_accepted.clone(),
        notes: notes.clone(),
        dependencies: dependencies.clone(),
        stats: stats.clone(),
        tests: Vec::new(),
    }
}

/// A writer that only hashes what it is given.
struct Hasher(Running);

impl Hasher {
    fn put(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

impl io::Write for Hasher {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.put(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
