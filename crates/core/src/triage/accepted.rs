//! The accepted list: differences a person has looked at and accepted, with a reason,
//! stored next to the suite (`oracles/REF.accepted.yaml`). Every entry is keyed by the
//! identity the reviewer accepted, never by something wider: a group entry matches the one
//! group with its id (`g-…`, which hashes callee, kind and label), a cause entry (`cause:
//! {label, change}`) every group with that kind of change and normalised change, whatever its
//! callee — so it covers new callees showing the same change. Either is for one target or for
//! every target (`*`). Entries are only ever added by `difftest accept` (never automatically
//! in CI), and an accept never replaces another entry; entries no replay saw are stale.
//!
//! Format 3 ends with a checksum line over everything before it, so a corrupt or hand-edited
//! list is refused (exit 2) rather than trusted; after reviewing a hand edit, `difftest accept
//! --reseal` writes it again with a fresh checksum. Format 2 (group entries matched by callee
//! and kind, so two groups of one callee shared an entry) is read as format 3: each entry
//! keeps the id it was accepted under and now matches that group alone. Format 1 had no
//! checksum and is refused. Two entries with the same id or cause and target are refused with
//! the line.
//!
//! ```yaml
//! format: 3
//! accepted:
//!   - group: g-3fa2c1
//!     callee: java.text.DateFormat.format(java.util.Date)
//!     kind: value
//!     target: temurin21
//!     reason: CLDR 42 puts a narrow no-break space before AM/PM
//!     by: alice
//!     date: 2025-01-31
//! # sum: xxh3 0123456789abcdef
//! ```

use crate::compare::Kind;
use crate::triage::label::Label;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the accepted-list format; a newer one is refused. 2 added the checksum line
/// and cause entries, 3 keys group entries by group id.
pub(crate) const ACCEPTED_FORMAT: u32 = 3;

/// The oldest format read (with its checksum): earlier ones cannot be verified.
const OLDEST_CHECKED_FORMAT: u32 = 2;

/// The first words of the checksum line that ends a list.
const SUM_LINE: &str = "# sum: xxh3 ";

/// The kind of change and normalised change a cause entry accepts.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CauseKey {
    /// The kind of change.
    pub label: Label,
    /// The normalised change.
    pub change: String,
}

/// One accepted difference: a group (callee and kind) or a cause (label and change).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct AcceptedEntry {
    /// The group id a group entry matches; for a cause entry, the cause id (informational:
    /// matching uses `cause`).
    pub group: String,
    /// The group's callee; for a cause entry, the callees it had when accepted.
    pub callee: String,
    /// What differs in the group.
    pub kind: Kind,
    /// Set for a cause entry: matches every group with this label and normalised change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<CauseKey>,
    /// For a cause entry: the callees seen when it was accepted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callees: Vec<String>,
    /// A target name, or `*` for every target.
    pub target: String,
    /// Why the difference is accepted.
    pub reason: String,
    /// Who accepted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// When it was accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// What an entry accepts: one group, or one cause (kind of change and normalised change).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Identity<'a> {
    /// A group entry: the group id.
    Group(&'a str),
    /// A cause entry: its label and change.
    Cause(&'a CauseKey),
}

impl AcceptedEntry {
    /// The identity the reviewer accepted.
    pub fn identity(&self) -> Identity<'_> {
        match &self.cause {
            Some(key) => Identity::Cause(key),
            None => Identity::Group(&self.group),
        }
    }

    /// Whether this group entry accepts the group `group_id` on `target`.
    pub fn matches(&self, group_id: &str, target: &str) -> bool {
        self.cause.is_none() && self.group == group_id && self.applies_to(target)
    }

    /// Whether this cause entry accepts the change `label`/`change` on `target`.
    pub fn matches_cause(&self, label: Label, change: Option<&str>, target: &str) -> bool {
        match (&self.cause, change) {
            (Some(key), Some(change)) => {
                key.label == label && key.change == change && self.applies_to(target)
            }
            _ => false,
        }
    }

    /// The group (id, callee and kind) or the cause (kind of change and change) accepted.
    pub fn describe(&self) -> String {
        match &self.cause {
            Some(key) => format!("{} ({}: {})", self.group, key.label.describe(), key.change),
            None => format!("{} ({}, {})", self.group, self.callee, self.kind.describe()),
        }
    }

    /// Whether this entry is about `target`.
    pub fn applies_to(&self, target: &str) -> bool {
        self.target == "*" || self.target == target
    }
}

/// The whole file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct AcceptedList {
    /// The accepted list's format version.
    pub format: u32,
    /// The entries.
    #[serde(default)]
    pub accepted: Vec<AcceptedEntry>,
}

impl Default for AcceptedList {
    fn default() -> Self {
        AcceptedList {
            format: ACCEPTED_FORMAT,
            accepted: Vec::new(),
        }
    }
}

/// Why the accepted list cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum AcceptedError {
    /// The list cannot be read.
    #[error("{path}: cannot read the accepted list: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The list is not valid YAML of the format.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    #[error(
        "{path}: format {found} is newer than this difftest reads ({ACCEPTED_FORMAT}); upgrade difftest"
    )]
    /// The list's format is newer than this difftest.
    Newer {
        /// The file.
        path: PathBuf,
        /// The version it says.
        found: u32,
    },
    #[error(
        "{path}: {message}; if the list was edited on purpose, review it and run `difftest accept --reseal`"
    )]
    /// The list's checksum does not match.
    Unverified {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The list could not be written.
    #[error("{path}: cannot write the accepted list: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// `oracles/REF.accepted.yaml` for the suite `oracles/REF.yaml`.
pub(crate) fn path_for(suite: &Path) -> PathBuf {
    // `REF.yaml.zst` shares `REF.accepted.yaml` with `REF.yaml`.
    let plain = suite.with_extension("");
    let suite = if crate::suite::compress::wanted(suite) {
        plain.as_path()
    } else {
        suite
    };
    let stem = suite
        .file_stem()
        .map_or_else(|| "suite".into(), |s| s.to_string_lossy().into_owned());
    suite.with_file_name(format!("{stem}.accepted.yaml"))
}

/// The text of the list at `path`, `None` when there is no file; read by the bounded reader
/// (a regular file of at most [`MAX_TEXT_BYTES`](crate::atomic::bounded::MAX_TEXT_BYTES),
/// opened without blocking, so a named pipe given as the list is refused, not waited on).
fn read_list(path: &Path) -> Result<Option<String>, AcceptedError> {
    use crate::atomic::bounded::{MAX_TEXT_BYTES, Problem, read_text};
    let path_buf = path.to_path_buf();
    match read_text(path, MAX_TEXT_BYTES, "accepted list") {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(match e.problem {
            Problem::Io { source, .. } => AcceptedError::Read {
                path: path_buf,
                source,
            },
            problem => AcceptedError::Parse {
                path: path_buf,
                message: problem.to_string(),
            },
        }),
    }
}

impl AcceptedList {
    /// Reads the list; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<AcceptedList, AcceptedError> {
        match read_list(path)? {
            Some(text) => Self::from_text(&text, path),
            None => Ok(AcceptedList::default()),
        }
    }

    /// Reads the text of a list (named `path` in errors) as [`AcceptedList::load`] reads a
    /// file: the format, entries, duplicates and the checksum are checked; blank text is an
    /// empty list.
    pub fn from_text(text: &str, path: &Path) -> Result<AcceptedList, AcceptedError> {
        if text.trim().is_empty() {
            return Ok(AcceptedList::default());
        }
        let list = Self::parse(text, path)?;
        let unverified = |message: String| AcceptedError::Unverified {
            path: path.to_path_buf(),
            message,
        };
        if list.format < OLDEST_CHECKED_FORMAT {
            return Err(unverified(format!(
                "format {} has no checksum, so its content cannot be verified",
                list.format
            )));
        }
        let (body, sum) = split_sum(text).ok_or_else(|| {
            unverified(format!(
                "line {}: no `{SUM_LINE}…` line at the end",
                text.lines().count()
            ))
        })?;
        if crate::suite::checksum::digest(body.as_bytes()) != sum {
            return Err(unverified(
                "the list does not match its checksum: it was changed after difftest wrote it"
                    .into(),
            ));
        }
        Ok(list)
    }

    /// Reads the list without its checksum (for `accept --reseal`, after a person reviewed
    /// it): the format, entries and duplicates are still checked.
    pub fn load_unverified(path: &Path) -> Result<AcceptedList, AcceptedError> {
        match read_list(path)? {
            Some(text) => Self::from_text_unverified(&text, path),
            None => Ok(AcceptedList::default()),
        }
    }

    /// Reads the text of a list without its checksum, as [`AcceptedList::load_unverified`]
    /// reads a file.
    pub fn from_text_unverified(text: &str, path: &Path) -> Result<AcceptedList, AcceptedError> {
        if text.trim().is_empty() {
            return Ok(AcceptedList::default());
        }
        Self::parse(text, path)
    }

    /// Parses the text and checks the format range and the entries.
    fn parse(text: &str, path: &Path) -> Result<AcceptedList, AcceptedError> {
        let parse = |message: String| AcceptedError::Parse {
            path: path.to_path_buf(),
            message,
        };
        let list: AcceptedList =
            serde_yaml::from_str(text).map_err(|e| parse(one_line_yaml_error(&e)))?;
        if list.format > ACCEPTED_FORMAT {
            let (path, found) = (path.to_path_buf(), list.format);
            return Err(AcceptedError::Newer { path, found });
        }
        if list.format == 0 {
            return Err(parse(format!(
                "format 0 does not exist (this difftest reads format {ACCEPTED_FORMAT})"
            )));
        }
        let lines = entry_lines(text);
        let line_of = |i: usize| {
            lines
                .get(i)
                .map_or(String::new(), |n| format!("line {n}: "))
        };
        let mut seen = std::collections::HashMap::new();
        for (i, e) in list.accepted.iter().enumerate() {
            for (field, value) in [
                ("callee", &e.callee),
                ("target", &e.target),
                ("reason", &e.reason),
            ] {
                if value.trim().is_empty() {
                    return Err(parse(format!("{}entry without a {field}", line_of(i))));
                }
            }
            if let Some(first) = seen.insert((e.identity(), &e.target), i) {
                return Err(parse(format!(
                    "{}{} for target {} is accepted twice (first at {})",
                    line_of(i),
                    e.describe(),
                    e.target,
                    line_of(first).trim_end_matches(": ")
                )));
            }
        }
        Ok(list)
    }

    /// Writes the list (through a temporary file, so a reader never sees half of it).
    pub fn save(&self, path: &Path) -> Result<(), AcceptedError> {
        let werr = |source| AcceptedError::Write {
            path: path.to_path_buf(),
            source,
        };
        let list = AcceptedList {
            format: ACCEPTED_FORMAT,
            accepted: self.accepted.clone(),
        };
        let mut text = serde_yaml::to_string(&list).map_err(|e| werr(std::io::Error::other(e)))?;
        let sum = crate::suite::checksum::digest(text.as_bytes());
        text.push_str(&format!("{SUM_LINE}{sum:016x}\n"));
        crate::atomic::write(path, text).map_err(werr)
    }

    /// The group entry accepting the group `group_id` on `target`, if any.
    pub fn find(&self, group_id: &str, target: &str) -> Option<&AcceptedEntry> {
        self.accepted.iter().find(|e| e.matches(group_id, target))
    }

    /// The entry accepting a group on `target`: its own group entry first, else a cause
    /// entry for its label and normalised change.
    pub fn find_for(
        &self,
        group_id: &str,
        label: Label,
        change: Option<&str>,
        target: &str,
    ) -> Option<&AcceptedEntry> {
        self.find(group_id, target).or_else(|| {
            self.accepted
                .iter()
                .find(|e| e.matches_cause(label, change, target))
        })
    }

    /// Adds `entry` unless an entry with its identity already covers its target (the same
    /// target, or `*`): then nothing changes and that entry is returned. No entry is ever
    /// replaced or removed.
    pub fn add(&mut self, entry: AcceptedEntry) -> Option<&AcceptedEntry> {
        let covered = self.accepted.iter().position(|e| {
            e.identity() == entry.identity() && (e.target == "*" || e.target == entry.target)
        });
        match covered {
            Some(i) => Some(&self.accepted[i]),
            None => {
                self.accepted.push(entry);
                None
            }
        }
    }

    /// Entries about `target` that match none of the `seen` groups (group id, label,
    /// normalised change).
    pub fn stale<'a>(
        &'a self,
        target: &str,
        seen: &[(&str, Label, Option<&str>)],
    ) -> Vec<&'a AcceptedEntry> {
        self.accepted
            .iter()
            .filter(|e| e.applies_to(target))
            .filter(|e| {
                !seen
                    .iter()
                    .any(|&(id, l, ch)| e.matches(id, target) || e.matches_cause(l, ch, target))
            })
            .collect()
    }
}

/// The text before the checksum line, and the checksum, when the last line is one.
fn split_sum(text: &str) -> Option<(&str, u64)> {
    let body = text.strip_suffix('\n')?;
    let at = body.rfind('\n').map_or(0, |i| i + 1);
    let hex = body[at..].strip_prefix(SUM_LINE)?;
    Some((&text[..at], crate::suite::checksum::parse_hex(hex)?))
}

/// The line number of each entry (a line starting with `-` after `accepted:`), in order.
fn entry_lines(text: &str) -> Vec<usize> {
    let mut inside = false;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("accepted:") {
            inside = true;
        } else if inside && line.trim_start().starts_with("- ") {
            lines.push(n + 1);
        } else if !line.starts_with([' ', '-', '#']) && !line.is_empty() {
            inside = false;
        }
    }
    lines
}

/// A serde_yaml error on one line, with its line number when known.
pub(crate) fn one_line_yaml_error(e: &serde_yaml::Error) -> String {
    let message = e.to_string();
    let first = message.lines().next().unwrap_or("invalid YAML").to_string();
    match e.location() {
        Some(loc) if !first.contains("line") => format!("line {}: {first}", loc.line()),
        _ => first,
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests;
