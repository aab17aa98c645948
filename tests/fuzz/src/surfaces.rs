//! The five surfaces the fuzzer drives, each from the raw bytes of one input, through the
//! library's own entry points: the suite reader (`replay`, `suite stats`), the accepted list
//! (`accept`, `replay`), the merge of report shards (`report --merge`), the worker's wire
//! messages as the supervisor and the worker decode them, and the command line (clap).
//!
//! Shared by the afl targets (`tests/fuzz/src/bin/*.rs`) and by the stable test
//! `tests/fuzz_corpus.rs`, which feeds every committed corpus file through these same
//! functions. The property: no panic, and every refusal is one line naming its input.
//! Inputs guarded by a checksum are tried twice: as given, and sealed again the way the
//! writer seals them, so mutated inputs also reach the parsers behind the checksum.

use difftest::message::{Request, Response, decode};
use difftest::report::Report;
use difftest::report::merge::merge;
use difftest::suite::checksum::{digest, seal};
use difftest::suite::compress::MAGIC;
use difftest::suite::file::SuiteFile;
use difftest::suite::read::{SuiteReader, collect, verify};
use difftest::triage::accepted::{AcceptedEntry, AcceptedList};
use std::fmt::Display;
use std::path::Path;

/// The name inputs are read under; every error must name it.
pub const NAME: &str = "fuzz-input";

/// What one input gave: values read and refusals (each checked to be one line naming it).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub values: usize,
    pub errors: usize,
}

impl Outcome {
    fn take<T, E: Display>(&mut self, result: Result<T, E>, named: bool) -> Option<T> {
        match result {
            Ok(value) => {
                self.values += 1;
                Some(value)
            }
            Err(e) => {
                self.errors += 1;
                refusal_is_one_line(&e.to_string(), named);
                None
            }
        }
    }
}

/// Panics (a finding) when a refusal is not one line, or does not name the input.
fn refusal_is_one_line(message: &str, named: bool) {
    assert!(!message.trim().is_empty(), "empty error");
    assert!(
        !message.contains('\n'),
        "error of several lines: {message:?}"
    );
    if named {
        assert!(
            message.contains(NAME),
            "error not naming its input: {message}"
        );
    }
}

/// The bytes as text, when they are UTF-8.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A suite file: checked whole as `replay` and `suite stats` check it (end line, counts,
/// checksums, header counts, ids), then read test by test; then read again from its
/// second test on, as a replay thread skips to its segment.
pub fn suite(data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    read_suite(&mut out, data);
    if let Some(text) = text(data).filter(|_| !data.starts_with(&MAGIC)) {
        read_suite(&mut out, seal(text).as_bytes());
    }
    out
}

fn read_suite(out: &mut Outcome, data: &[u8]) {
    let name = Path::new(NAME);
    let Some(file) = out.take(SuiteFile::from_bytes(name, data), true) else {
        return;
    };
    if out.take(verify(&file, |_| true), true).is_none() {
        return;
    }
    out.take(SuiteReader::of(&file).and_then(collect), true);
    let skipped = SuiteReader::of(&file).and_then(|mut reader| {
        let mut entries = difftest::suite::entries::Entries::new(name);
        match reader.skip_to(&mut entries, 1)? {
            true => reader.next_test(&mut entries).map(|t| t.is_some()),
            false => Ok(false),
        }
    });
    out.take(skipped, true);
}

/// An accepted list: read as `replay` reads it (checksum checked) and as `accept --reseal`
/// does (without); each entry then added to a new list as `accept` adds it.
pub fn accepted(data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    let Some(text) = text(data) else {
        return out;
    };
    let name = Path::new(NAME);
    out.take(AcceptedList::from_text(text, name), true);
    let body = text.split("# sum: xxh3 ").next().unwrap_or_default();
    let sealed = format!("{body}# sum: xxh3 {:016x}\n", digest(body.as_bytes()));
    out.take(AcceptedList::from_text(&sealed, name), true);
    if let Some(list) = out.take(AcceptedList::from_text_unverified(text, name), true) {
        let mut again = AcceptedList::default();
        for entry in &list.accepted {
            again.add(entry.clone());
        }
        for entry in &list.accepted {
            assert!(found(&again, entry), "{} is not accepted", entry.describe());
        }
    }
    out
}

/// Whether `list` accepts what `entry` accepts, on its target.
fn found(list: &AcceptedList, entry: &AcceptedEntry) -> bool {
    match &entry.cause {
        None => list.find(&entry.group, &entry.target).is_some(),
        Some(key) => {
            let change = Some(key.change.as_str());
            list.find_for("", key.label, change, &entry.target)
                .is_some()
        }
    }
}

/// Report shards, separated by NUL bytes: each read as `report --merge` reads it (as given,
/// and sealed again), grouped by target, and merged (complete, and partial allowed).
pub fn report_merge(data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    let name = Path::new(NAME);
    let mut parts: Vec<Report> = Vec::new();
    for shard in data.split(|&b| b == 0).filter_map(text) {
        out.take(Report::from_json(shard, name), true);
        if let Some(sealed) = reseal_report(shard) {
            parts.extend(out.take(Report::from_json(&sealed, name), true));
        }
    }
    let mut by_target = std::collections::BTreeMap::<String, Vec<Report>>::new();
    for part in parts {
        by_target
            .entry(part.target.name.clone())
            .or_default()
            .push(part);
    }
    for parts in by_target.into_values() {
        out.take(merge(parts.clone(), false), false);
        if let Some(merged) = out.take(merge(parts, true), false) {
            let _ = difftest::report::markdown::render(&merged);
        }
    }
    out
}

/// The JSON of a report with its `checksum` set as the writer sets it: the XXH3-64 of the
/// compact JSON of the rest.
fn reseal_report(text: &str) -> Option<String> {
    let mut value: serde_json::Value = serde_json::from_str(text).ok()?;
    let object = value.as_object_mut()?;
    object.remove("checksum");
    let sum = digest(serde_json::to_string(object).ok()?.as_bytes());
    object.insert("checksum".into(), format!("{sum:016x}").into());
    serde_json::to_string(&value).ok()
}

/// Wire messages, one per line: each decoded as the supervisor decodes a worker's answer
/// and as the worker decodes a request; a message that decodes must encode and decode again.
pub fn wire(data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    for line in data.split(|&b| b == b'\n').filter_map(text) {
        if let Some(response) = out.take(decode::<Response>(line), false) {
            let again = serde_json::to_string(&response).expect("a decoded answer encodes");
            decode::<Response>(&again).expect("an encoded answer decodes");
        }
        if let Some(request) = out.take(decode::<Request>(line), false) {
            let again = serde_json::to_string(&request).expect("a decoded request encodes");
            decode::<Request>(&again).expect("an encoded request decodes");
        }
    }
    out
}

/// A command line: arguments separated by NUL bytes (any bytes, not only UTF-8), parsed
/// as `difftest` parses its own, and the error rendered as `main` renders it; each
/// argument also given to the value parsers of durations.
pub fn cli(data: &[u8]) -> Outcome {
    use clap::Parser;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let mut out = Outcome::default();
    let args = data.split(|&b| b == 0).map(OsStr::from_bytes);
    let argv = std::iter::once(OsStr::new("difftest")).chain(args);
    match difftest::cli::Cli::try_parse_from(argv) {
        Ok(_) => out.values += 1,
        Err(e) => {
            out.errors += 1;
            let _ = e.render().to_string();
        }
    }
    for arg in data.split(|&b| b == 0).filter_map(text) {
        let values = difftest::cli::values::timeout(arg).ok();
        let limits = difftest::cli::values::time_limit(arg).ok();
        out.values += usize::from(values.is_some()) + usize::from(limits.is_some());
    }
    out
}
