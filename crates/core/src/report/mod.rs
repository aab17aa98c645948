//! The replay report: one data model ([`Report`], serialized as the JSON report with a
//! `schema_version`, documented in `docs/replay.md`) from which every output is made: the
//! table on stdout ([`table`]), Markdown ([`markdown`]), HTML ([`html`]), JUnit XML ([`junit`]); and the
//! merge of shard reports ([`merge`]). [`java`] renders sequences as Java source.

pub(crate) mod assemble;
pub(crate) mod cause;
pub(crate) mod dependency;
mod entry;
pub(crate) mod html;
pub(crate) mod java;
pub(crate) mod junit;
pub mod markdown;
pub mod matrix;
pub mod merge;
mod seal;
pub mod summary;
pub mod table;

pub use entry::{TestDetail, TestReport};
#[cfg(test)]
pub(crate) use java::java_source;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_causes;

use crate::compare::{Kind, Site};
use crate::sequence::Observed;
use crate::suite::Test;
use crate::triage::accepted::AcceptedEntry;
use crate::triage::label::Label;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the JSON report schema. Additive changes keep it; others bump it. 2 added
/// `checksum`: the XXH3-64 of the report's compact JSON without that field; reports are read
/// (for `report --merge`, `accept`) only when it matches.
pub const SCHEMA_VERSION: u32 = 2;

/// The files of a report set, `DIR/TGT-vs-REF.EXT`, in the order they are written.
pub(crate) const REPORT_FILES: [&str; 4] = ["json", "md", "html", "junit.xml"];

/// The largest JSON report read. Reports hold each differing test's values, capped by the
/// suite's value limit; a replay with a million differing tests stays far below this.
pub(crate) const MAX_REPORT_BYTES: u64 = 1 << 30;

/// A report with its checksum, as written: the report's fields, then `checksum`.
#[derive(Serialize)]
struct Sealed<'a> {
    #[serde(flatten)]
    report: &'a Report,
    checksum: String,
}

/// The checksum of a report's JSON value (without its `checksum` field).
fn checksum_of(value: &serde_json::Value) -> String {
    let compact = serde_json::to_string(value).unwrap_or_default();
    format!(
        "{:016x}",
        crate::suite::checksum::digest(compact.as_bytes())
    )
}

/// One implementation: target name, fingerprint (`runtime vendor vm`) and the data versions
/// it reports (`unicode`, `tzdata`), when read.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Implementation {
    /// The target's name.
    pub name: String,
    /// `runtime vendor vm`, when read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// Data versions by name (`unicode`, `tzdata`, …).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub data_versions: std::collections::BTreeMap<String, String>,
}

/// How the replay was run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether exception messages counted as differences (`--strict-messages`).
    pub strict_messages: bool,
    /// Confirmation reruns of the tests that differed (`--confirm`).
    pub confirm: u32,
    /// Workers replaying at once (`--jobs`).
    pub jobs: usize,
    /// Sequences minimization could run per group (`--minimize-budget`).
    pub minimize_budget: u32,
    /// Tests per fresh JVM.
    #[serde(default)]
    pub segment: usize,
    /// Values longer than this were compared capped (the suite header's `max-value-bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_value_bytes: Option<u64>,
    /// Plain objects' `toString()` was answered as `Class@0` (the suite header's
    /// `plain-object-text`), so `explain` reruns the example the same way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plain_class_text: bool,
}

/// Whether the release may go.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Gate {
    /// No new cause: the release may go.
    Pass,
    /// At least one new cause: exit code 1.
    Fail,
}

/// The counts of the summary line.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Tests replayed.
    pub tests: usize,
    /// Tests that behaved as on the reference (message-only differences included unless
    /// `strict_messages`).
    pub passed: usize,
    /// Tests with a new (not accepted) difference.
    pub differing: usize,
    /// Tests whose difference is accepted.
    pub accepted: usize,
    /// Tests whose only difference is an exception message (shown, not counted).
    pub message_only: usize,
    /// Tests that were not the same on two target runs.
    pub unstable: usize,
    /// Groups (root causes), all statuses.
    pub groups: usize,
    /// Groups that fail the gate.
    pub new_groups: usize,
    /// New causes: new groups of the same kind of change and normalised change count once
    /// (see [`CauseReport`]).
    #[serde(default)]
    pub new_changes: usize,
    /// Causes (rows of the table), all statuses.
    #[serde(default)]
    pub causes: usize,
    /// Causes that fail the gate (the same as `new_changes`).
    #[serde(default)]
    pub new_causes: usize,
    /// Tests whose difference is a tool artefact (kept out of the gate).
    #[serde(default)]
    pub artefacts: usize,
    /// Wall time of the replay, seconds (for merged reports: the longest part).
    pub seconds: f64,
}

/// What a group means for the gate.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum GroupStatus {
    /// A difference not on the accepted list: fails the gate.
    New,
    /// On the accepted list.
    Accepted,
    /// Shown but not counted (an exception message without `--strict-messages`).
    Shown,
    /// A tool artefact: how difftest calls the API, not the API (kept out of the gate).
    Artefact,
}

/// A minimized sequence that still shows the group's difference.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct MinimizedReport {
    /// Statements of the minimized sequence.
    pub statements: usize,
    /// Statements of the example it was minimized from.
    pub original_statements: usize,
    /// Candidates tried.
    pub runs: u32,
    /// Where the minimized sequence differs.
    pub site: Site,
    /// The reference's outcome at the site, for people.
    pub ref_value: String,
    /// The target's outcome at the site, for people.
    pub tgt_value: String,
    /// The sequence as Java, one statement a line.
    pub java: Vec<String>,
    /// The sequence itself, with the reference's values as expectations.
    pub test: Test,
}

/// One root cause.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GroupReport {
    /// `g-` and six hex digits of a hash of callee and kind.
    pub id: String,
    /// The method or constructor whose outcome differs (`Class.name(params)`).
    pub callee: String,
    /// What differs: return value, exception, exception message, …
    pub kind: Kind,
    /// The kind of change (`rendering`, `invisible`, `data_version`, …).
    #[serde(default = "default_label")]
    pub label: Label,
    /// The normalised change that groups of one cause share; absent when the group is a
    /// cause of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<String>,
    /// The id of the group's cause (`c-…`, or the group id when it is a cause of its own).
    #[serde(default)]
    pub cause: String,
    /// New, accepted, shown or artefact.
    pub status: GroupStatus,
    /// Number of affected tests.
    pub tests: usize,
    /// Every affected test's id.
    pub test_ids: Vec<u64>,
    /// The example test: the shortest affected one.
    pub example: u64,
    /// Statements of the example test.
    pub example_statements: usize,
    /// Where in the example the outcomes differ.
    pub site: Site,
    /// The reference's and the target's outcome at the site, for people.
    pub ref_value: String,
    /// The target's outcome at the site, for people.
    pub tgt_value: String,
    /// The reference's outcome as recorded, when the site holds one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ref_observed: Option<Observed>,
    /// The target's outcome as replayed, when the site holds one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tgt_observed: Option<Observed>,
    /// The example as Java.
    pub example_java: Vec<String>,
    /// The accepted-list entry that matched the group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<AcceptedEntry>,
    /// The shortest sequence found that still differs, when minimized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized: Option<MinimizedReport>,
    /// Whether the example still differed when run side by side on both implementations
    /// during minimization; `false` means the recorded value depends on when or where it
    /// was recorded (clock, randomness, JVM state). Absent when not tried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduced: Option<bool>,
    /// A value difference whose changed text is the same as in an earlier group of the
    /// report (`0x1401ad8b` → `0x4e3f7184` inside different collections' `toString`): the
    /// id of that group, most likely the same root cause seen through another call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_change_as: Option<String>,
}

fn default_label() -> Label {
    Label::ValueDiffers
}

/// One callee of a cause.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct CauseCallee {
    /// The callee of the group.
    pub callee: String,
    /// The group's id.
    pub group: String,
    /// What differs in the group.
    pub kind: Kind,
    /// The group's status.
    pub status: GroupStatus,
    /// Tests of the group.
    pub tests: usize,
}

/// One cause: the groups with the same kind of change and the same normalised change (or a
/// group alone). The table, the Markdown and the gate work per cause.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct CauseReport {
    /// `c-` and six hex digits of a hash of label and normalised change, or the group's id
    /// for a group that is a cause of its own.
    pub id: String,
    /// The kind of change.
    pub label: Label,
    /// The normalised change its groups share; absent for a group alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<String>,
    /// The most urgent status of its groups (new before accepted, shown, artefact).
    pub status: GroupStatus,
    /// Affected tests over all its groups.
    pub tests: usize,
    /// Its groups, most tests first.
    pub callees: Vec<CauseCallee>,
    /// The first group's kind, values and example.
    pub kind: Kind,
    /// The first group's reference outcome at its site.
    pub ref_value: String,
    /// The first group's target outcome at its site.
    pub tgt_value: String,
    /// The first group's example test.
    pub example: u64,
    /// The accepted-list entry that matched the cause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<AcceptedEntry>,
    /// Callees an accepted cause entry covers that it did not name when accepted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covers_new_callees: Vec<String>,
}

/// What became of one test.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TestStatus {
    /// Behaved as on the reference.
    Pass,
    /// Differs in a way not on the accepted list.
    Differs,
    /// Differs as an accepted-list entry allows.
    Accepted,
    /// Only an exception message differs (not counted without `--strict-messages`).
    MessageOnly,
    /// Not the same on two runs on the target.
    Unstable,
    /// The difference is a tool artefact (kept out of the gate).
    Artefact,
}

/// Resource use, for the benchmark and the curious.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Workers started.
    pub workers_started: u64,
    /// Milliseconds the workers took to start, summed.
    pub worker_startup_ms: u64,
    /// Sequences that hit `--timeout`.
    pub timeouts: u64,
    /// Workers that died running a sequence.
    pub crashes: u64,
    /// Replay throughput.
    pub tests_per_second: f64,
    /// Peak resident memory of difftest itself, KiB.
    pub peak_rss_kib_supervisor: u64,
    /// The largest peak resident memory of a worker, KiB.
    pub peak_rss_kib_worker_max: u64,
    /// Supervisor plus the largest worker times the number of jobs: an upper bound.
    pub peak_rss_kib_total: u64,
    /// Seconds spent loading the suite (shared by every target of a run).
    #[serde(default)]
    pub load_seconds: f64,
    /// Seconds spent replaying and confirming on this target (JVM start-ups included).
    #[serde(default)]
    pub replay_seconds: f64,
    /// Seconds spent minimizing (reference start-up included).
    #[serde(default)]
    pub minimize_seconds: f64,
}

/// The whole report (`reports/TGT-vs-REF.json`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Report {
    /// [`SCHEMA_VERSION`] when written.
    pub schema_version: u32,
    /// `difftest` and its version.
    pub tool: String,
    /// The implementation the suite was recorded on.
    pub reference: Implementation,
    /// The implementation it was replayed on.
    pub target: Implementation,
    /// The suite's path.
    pub suite: String,
    /// The shards replayed (`K/N`), empty for the whole suite.
    #[serde(default)]
    pub shards: Vec<String>,
    /// How the replay was run.
    pub options: Options,
    /// Whether the release may go.
    pub gate: Gate,
    /// The counts of the summary line.
    pub summary: Summary,
    /// Causes: groups of the same kind of change and normalised change joined, one table
    /// row each.
    #[serde(default)]
    pub causes: Vec<CauseReport>,
    /// Groups of differing tests with one callee and kind, most tests first.
    pub groups: Vec<GroupReport>,
    /// Accepted entries for this target that no test showed.
    #[serde(default)]
    pub stale_accepted: Vec<AcceptedEntry>,
    /// Warnings worth a human's attention (changed fingerprints, skipped minimization …).
    #[serde(default)]
    pub notes: Vec<String>,
    /// Dependencies whose version differs between reference and target: each is a cause
    /// row (see [`dependency`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<crate::targets::dependency::DependencyChange>,
    /// Resource use.
    #[serde(default)]
    pub stats: Stats,
    /// What became of the replayed tests (see [`TestReport`]).
    pub tests: Vec<TestReport>,
}

/// Writes one of the report files from the report.
type Render = fn(&Report, &mut dyn std::io::Write) -> std::io::Result<()>;

/// Why a report cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The JSON is not a report.
    #[error("{path}: not a difftest JSON report: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The report's schema is newer than this difftest.
    #[error("{path}: report schema {found} is newer than this difftest reads ({SCHEMA_VERSION})")]
    Newer {
        /// The file.
        path: PathBuf,
        /// The version it says.
        found: u32,
    },
    /// The checksum does not match.
    #[error("{path}: {message}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Reports that cannot be merged.
    #[error("cannot merge: {0}")]
    Mismatch(String),
    /// The file cannot be read.
    #[error(transparent)]
    Read(Box<crate::atomic::bounded::ReadError>),
}

impl Report {
    /// The tests whose target lacked a class on its class path (groups labelled
    /// `classpath`), and the first group's change (`missing CLASS`); `None` when none did.
    pub fn classpath_fault(&self) -> Option<(usize, &str)> {
        let mut groups = self.groups.iter().filter(|g| g.label == Label::Classpath);
        let first = groups.next()?;
        let tests = first.tests + groups.map(|g| g.tests).sum::<usize>();
        Some((tests, first.change.as_deref().unwrap_or("missing classes")))
    }

    /// `TGT-vs-REF`, the stem of the report files.
    pub fn stem(&self) -> String {
        use crate::targets::overlay::file_stem;
        format!(
            "{}-vs-{}",
            file_stem(&self.target.name),
            file_stem(&self.reference.name)
        )
    }

    /// Reads a JSON report (at most [`MAX_REPORT_BYTES`]). When it is the JSON of a report
    /// set (`DIR/STEM.json` beside `DIR/STEM.lock`), a write of that set interrupted between
    /// its renames is finished first, so the JSON read belongs to the set around it.
    pub fn read(path: &Path) -> Result<Report, ReportError> {
        let io = |source| ReportError::Io {
            path: path.to_path_buf(),
            source,
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if let Some(stem) = name.as_deref().and_then(|n| n.strip_suffix(".json")) {
            let dir = crate::atomic::folder(path);
            crate::atomic::unit::settle(&dir, stem, &REPORT_FILES).map_err(io)?;
        }
        let text = crate::atomic::bounded::read_text(path, MAX_REPORT_BYTES, "report")
            .map_err(|e| ReportError::Read(Box::new(e)))?;
        Report::from_json(&text, path)
    }

    /// Reads the text of a JSON report (named `path` in errors) as [`Report::read`] reads a
    /// file: schema version, checksum, fields and unique ids are checked.
    pub fn from_json(text: &str, path: &Path) -> Result<Report, ReportError> {
        let parse = |message: String| ReportError::Parse {
            path: path.to_path_buf(),
            message,
        };
        let corrupt = |message: String| ReportError::Corrupt {
            path: path.to_path_buf(),
            message,
        };
        let mut value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| parse(crate::text::escaped_line(&e.to_string())))?;
        let found = value.get("schema_version").and_then(|v| v.as_u64());
        let Some(found) = found.filter(|&v| v > 0) else {
            return Err(parse("no schema_version".into()));
        };
        if found > u64::from(SCHEMA_VERSION) {
            return Err(ReportError::Newer {
                path: path.to_path_buf(),
                found: found.min(u64::from(u32::MAX)) as u32,
            });
        }
        if found < u64::from(SCHEMA_VERSION) {
            return Err(corrupt(format!(
                "report schema {found} has no checksum, so its content cannot be verified; replay again"
            )));
        }
        let sum = value
            .as_object_mut()
            .and_then(|o| o.remove("checksum"))
            .ok_or_else(|| corrupt("no checksum".into()))?;
        if sum.as_str() != Some(checksum_of(&value).as_str()) {
            return Err(corrupt(
                "the report does not match its checksum: it was changed after difftest wrote it"
                    .into(),
            ));
        }
        let report: Report = serde_json::from_value(value)
            .map_err(|e| parse(crate::text::escaped_line(&e.to_string())))?;
        report.check_ids().map_err(corrupt)?;
        Ok(report)
    }

    /// Test ids and group ids are unique.
    fn check_ids(&self) -> Result<(), String> {
        let mut tests = std::collections::HashSet::new();
        if let Some(t) = self.tests.iter().find(|t| !tests.insert(t.id)) {
            return Err(format!("test {} appears twice", t.id));
        }
        let mut groups = std::collections::HashSet::new();
        if let Some(g) = self.groups.iter().find(|g| !groups.insert(&g.id)) {
            return Err(format!("group {} appears twice", g.id));
        }
        Ok(())
    }

    /// Writes `DIR/TGT-vs-REF.{json,md,html,junit.xml}` as one unit ([`crate::atomic::unit`]);
    /// returns the paths written. Under the lock of `DIR/TGT-vs-REF.lock`, so two replays
    /// into one folder write one after the other; each file is written and synced to a
    /// staged name first, and only when all four are on disk is the set committed (a
    /// journal) and renamed into place. A failure (a full disk) before the commit leaves the
    /// files of the last run whole and none of this one; a kill after it is finished by the
    /// next writer or reader; two runs never leave the files of both.
    pub fn write_all(&self, dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ReportError::Io { path, source }
        };
        let stem = self.stem();
        let unit = crate::atomic::unit::Unit::open(dir, &stem, &REPORT_FILES)
            .map_err(io(&crate::atomic::lock_path(&dir.join(&stem))))?;
        let writers: [Render; 4] = [
            |r, out| r.write_json(out),
            |r, out| out.write_all(markdown::render(r).as_bytes()),
            |r, out| out.write_all(html::render(r).as_bytes()),
            junit::write,
        ];
        let mut paths = Vec::new();
        let mut finished = Vec::new();
        for (ext, write) in REPORT_FILES.into_iter().zip(writers) {
            let path = unit.path(ext);
            let mut file = unit.create(ext).map_err(io(&path))?;
            let done = write(self, &mut file)
                .and_then(|()| file.finish())
                .map_err(io(&path))?;
            finished.push(done);
            paths.push(path);
        }
        unit.commit(finished).map_err(io(dir))?;
        Ok(paths)
    }

    /// Writes the JSON report with its checksum ([`seal`]) to `out`.
    fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let checksum = seal::checksum(self).map_err(std::io::Error::other)?;
        let sealed = Sealed {
            report: self,
            checksum,
        };
        serde_json::to_writer_pretty(out, &sealed).map_err(std::io::Error::other)
    }
}
