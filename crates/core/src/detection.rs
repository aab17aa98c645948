//! The detection benchmark's data: documented behaviour changes between two implementations
//! (`examples/known-changes/changes.yaml`), whether each lies inside a scope, and whether a
//! replay report shows it. `difftest bench detection` runs the records and replays; this
//! module only reads and matches, so it is tested without a JVM.
//!
//! A change is *found* when a test the report counts against the gate (new or accepted)
//! has a callee matching one of the change's globs — or, for an observer and an item with
//! value patterns, the call whose value it read (`Set.toString()` of
//! `Security.getAlgorithms(String)`) — and values matching its patterns, read in the
//! direction older → newer. Added API is found only through a replay of the newer
//! implementation's suite on the older one (`missing` there); removed API through the
//! forward replay. A message-only difference is reported as *shown*, not found: the gate
//! does not count it.
//!
//! Every item belongs to a half, tuning or validation (`half`), by a fixed rule that
//! `load` enforces.

mod half;

use crate::compare::Kind;
use crate::report::{Report, TestStatus};
use crate::scope::{OmitList, glob};
pub use half::Half;
pub(crate) use half::SplitBase;
use regex::Regex;
use serde::Deserialize;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What kind of change an item is.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// The same API behaves differently.
    Behaviour,
    /// API only the newer implementation has.
    Added,
    /// API only the older implementation has.
    Removed,
}

/// One line of `changes.yaml`, as written.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawChange {
    id: String,
    pair: String,
    half: Half,
    kind: ChangeKind,
    title: String,
    source: String,
    classes: Vec<String>,
    callees: Vec<String>,
    #[serde(default, rename = "ref")]
    before: Option<String>,
    #[serde(default, rename = "tgt")]
    after: Option<String>,
    // Documentation for people, read so that a misspelt key stays an error.
    #[serde(default)]
    #[allow(dead_code)]
    probe: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    observed: Option<serde_yaml::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    reachable: Option<serde_yaml::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    note: Option<String>,
}

/// A documented change, ready to match.
#[derive(Clone, Debug)]
pub struct KnownChange {
    /// The change's id in the list (`cldr42-nnbsp-dateformat`).
    pub id: String,
    /// `17-21`: the older and the newer feature release.
    pub pair: String,
    /// Tuning or validation, as the split rule gives it.
    pub half: Half,
    /// What the change alters: a value, an exception, an API added or removed.
    pub kind: ChangeKind,
    /// One line saying what changed.
    pub title: String,
    /// Where the change is documented (release note, bug id).
    pub source: String,
    /// Declaring classes whose calls show the change.
    pub classes: Vec<String>,
    /// Globs over callee names.
    pub callees: Vec<String>,
    /// What the older implementation's value must match.
    pub before: Option<Regex>,
    /// What the newer implementation's value must match.
    pub after: Option<Regex>,
}

/// Why the list cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DetectionError {
    /// The list cannot be read or parsed.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An item of the list is wrong.
    #[error("{path}: item {id}: {message}")]
    Item {
        /// The file.
        path: PathBuf,
        /// The test's id.
        id: String,
        /// What is wrong.
        message: String,
    },
}

/// Reads and checks a list of known changes, and `split-base.txt` beside it (the ids whose
/// half the hash decides).
pub fn load(path: &Path) -> Result<Vec<KnownChange>, DetectionError> {
    let read_error = |message: String| DetectionError::Read {
        path: path.to_path_buf(),
        message,
    };
    let base = SplitBase::beside(path)
        .map_err(|(path, message)| DetectionError::Read { path, message })?;
    use crate::atomic::bounded::{MAX_TEXT_BYTES, read_text};
    let text = read_text(path, MAX_TEXT_BYTES, "list of changes")
        .map_err(|e| read_error(e.problem.to_string()))?;
    let raw: Vec<RawChange> = serde_yaml::from_str(&text).map_err(|e| read_error(e.to_string()))?;
    let mut ids = HashSet::new();
    raw.into_iter()
        .map(|r| {
            let item_error = |message: String| DetectionError::Item {
                path: path.to_path_buf(),
                id: r.id.clone(),
                message,
            };
            if !ids.insert(r.id.clone()) {
                return Err(item_error("the id is used twice".into()));
            }
            check_pair(&r.pair).map_err(&item_error)?;
            let rule = base.half(&r.id);
            if r.half != rule {
                return Err(item_error(format!(
                    "half is {}, the split rule gives {} (set-halves.py writes it)",
                    r.half.name(),
                    rule.name()
                )));
            }
            if r.callees.is_empty() || r.classes.is_empty() {
                return Err(item_error("needs at least one class and one callee".into()));
            }
            let pattern = |p: &Option<String>| {
                p.as_deref()
                    .map(Regex::new)
                    .transpose()
                    .map_err(|e| item_error(e.to_string()))
            };
            Ok(KnownChange {
                before: pattern(&r.before)?,
                after: pattern(&r.after)?,
                id: r.id,
                pair: r.pair,
                half: r.half,
                kind: r.kind,
                title: r.title,
                source: r.source,
                classes: r.classes,
                callees: r.callees,
            })
        })
        .collect()
}

/// `OLD-NEW`, two feature release numbers.
fn check_pair(pair: &str) -> Result<(u32, u32), String> {
    let bad = || format!("pair must be OLD-NEW (like 17-21), not {pair:?}");
    let (old, new) = pair.split_once('-').ok_or_else(bad)?;
    let old: u32 = old.parse().map_err(|_| bad())?;
    let new: u32 = new.parse().map_err(|_| bad())?;
    if old >= new {
        return Err(bad());
    }
    Ok((old, new))
}

/// The older and newer release of a pair (`17-21` → 17, 21).
pub fn pair_releases(pair: &str) -> Option<(u32, u32)> {
    check_pair(pair).ok()
}

/// A scope to judge reachability by: packages (without subpackages), classes, omit list.
pub struct Scope<'a> {
    /// Packages in scope.
    pub packages: &'a [&'a str],
    /// Classes in scope.
    pub classes: &'a [&'a str],
    /// The omit list applied.
    pub omit: &'a OmitList,
}

impl Scope<'_> {
    /// Whether a class of the change is in scope and not omitted (its members may still
    /// need inputs the generator has to find: that is what is measured).
    pub fn reaches(&self, change: &KnownChange) -> bool {
        change.classes.iter().any(|class| {
            let top = class.split('$').next().unwrap_or(class);
            let package = top.rsplit_once('.').map_or("", |(p, _)| p);
            (self.packages.contains(&package) || self.classes.contains(&top))
                && !self.omit.omits_class(class)
        })
    }
}

/// A difference a report shows, read older → newer.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The differing test's id.
    pub test: u64,
    /// The test's group, when it has one.
    pub group: Option<String>,
    /// The cause (the table's row) the test's group belongs to.
    pub cause: Option<String>,
    /// The call whose outcome differs.
    pub callee: String,
    /// When `callee` is an observer: the call whose value it read.
    pub observed: Option<String>,
    /// What differs.
    pub kind: Kind,
    /// The value on the older release.
    pub before: String,
    /// The value on the newer release.
    pub after: String,
    /// Counted by the gate (new or accepted), not only shown.
    pub counted: bool,
    /// From a replay of the newer implementation's suite on the older one.
    pub reverse: bool,
}

/// Every non-passing test of a report with its callee and values. `reverse` is for a
/// report whose reference is the newer implementation: its values are swapped.
pub fn observations(report: &Report, reverse: bool) -> Vec<Observation> {
    report
        .tests
        .iter()
        .filter(|t| !matches!(t.status, TestStatus::Pass | TestStatus::Unstable))
        .filter_map(|t| {
            let d = t.detail();
            let (r, g) = (d.ref_value.clone()?, d.tgt_value.clone()?);
            let (before, after) = if reverse { (g, r) } else { (r, g) };
            Some(Observation {
                test: t.id,
                group: d.group.clone(),
                cause: d.cause.clone(),
                callee: d.callee.clone()?,
                observed: d.observed.clone(),
                kind: d.kind?,
                before,
                after,
                counted: matches!(t.status, TestStatus::Differs | TestStatus::Accepted),
                reverse,
            })
        })
        .collect()
}

/// How far a report got with one change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// No report shows the change.
    Missed,
    /// Only as a message-only difference, which the gate does not count.
    Shown,
    /// A report shows the change.
    Found,
}

impl KnownChange {
    /// Whether this observation is the change.
    pub fn matches(&self, o: &Observation) -> bool {
        let kind_fits = match self.kind {
            ChangeKind::Added => o.kind == Kind::Missing && o.reverse,
            ChangeKind::Removed => o.kind == Kind::Missing && !o.reverse,
            ChangeKind::Behaviour => o.kind != Kind::Missing,
        };
        // Through the call an observer read only when the values pin the change down: an
        // item without patterns would match any difference of any observer of that value.
        let pinned = self.before.is_some() || self.after.is_some();
        let through = |g: &String| pinned && o.observed.as_ref().is_some_and(|c| glob(g, c));
        kind_fits
            && self
                .callees
                .iter()
                .any(|g| glob(g, &o.callee) || through(g))
            && self.before.as_ref().is_none_or(|re| re.is_match(&o.before))
            && self.after.as_ref().is_none_or(|re| re.is_match(&o.after))
    }

    /// How many rows of the report's table show this change: the distinct causes of the
    /// counted observations that match it (0 when it was not found).
    pub fn rows(&self, seen: &[Observation]) -> usize {
        let causes: HashSet<(bool, &str)> = seen
            .iter()
            .filter(|o| o.counted && self.matches(o))
            .map(|o| {
                (
                    o.reverse,
                    o.cause.as_deref().or(o.group.as_deref()).unwrap_or(""),
                )
            })
            .collect();
        causes.len()
    }

    /// The best verdict over all observations, with the first observation that gave it.
    pub fn verdict<'a>(&self, seen: &'a [Observation]) -> (Verdict, Option<&'a Observation>) {
        let mut best = (Verdict::Missed, None);
        for o in seen.iter().filter(|o| self.matches(o)) {
            let v = if o.counted {
                Verdict::Found
            } else {
                Verdict::Shown
            };
            if v > best.0 {
                best = (v, Some(o));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("changes.yaml");
        std::fs::write(&path, text).unwrap();
        std::fs::write(dir.path().join(half::SPLIT_BASE), "nnbsp\nclamp\n").unwrap();
        (dir, path)
    }

    const ONE: &str = r#"
- id: nnbsp
  pair: 17-21
  half: tuning
  kind: behaviour
  title: narrow no-break space before AM/PM
  source: JDK-8284840
  classes: [java.text.DateFormat]
  callees: ["java.text.DateFormat.format(*", "java.util.Date.toLocaleString()"]
  ref: "\\d AM"
  tgt: "\\\\u202FAM"
- id: clamp
  pair: 17-21
  half: validation
  kind: added
  title: Math.clamp
  source: JDK-8301226
  classes: [java.lang.Math]
  callees: ["java.lang.Math.clamp(*"]
"#;

    fn obs(callee: &str, kind: Kind, before: &str, after: &str, reverse: bool) -> Observation {
        Observation {
            test: 1,
            group: None,
            cause: None,
            callee: callee.into(),
            observed: None,
            kind,
            before: before.into(),
            after: after.into(),
            counted: true,
            reverse,
        }
    }

    #[test]
    fn a_change_shown_by_two_causes_takes_two_rows() {
        let (_dir, path) = write(ONE);
        let changes = load(&path).unwrap();
        let shown = |cause: &str, counted: bool| Observation {
            cause: Some(cause.into()),
            counted,
            ..obs(
                "java.text.DateFormat.format(java.util.Date)",
                Kind::Value,
                "\"12:00 AM\"",
                "\"12:00\\u202FAM\"",
                false,
            )
        };
        let seen = [
            shown("c-000001", true),
            shown("c-000001", true),
            shown("c-000002", true),
            shown("c-000003", false),
        ];
        assert_eq!(
            changes[0].rows(&seen),
            2,
            "shown only is not a row of the gate"
        );
        assert_eq!(changes[0].rows(&[]), 0);
    }

    #[test]
    fn loads_and_matches_by_callee_values_and_direction() {
        let (_dir, path) = write(ONE);
        let items = load(&path).unwrap();
        assert_eq!(items.len(), 2);
        let nnbsp = &items[0];
        let yes = obs(
            "java.util.Date.toLocaleString()",
            Kind::Value,
            r#""Jan 1, 1970, 12:00:00 AM""#,
            r#""Jan 1, 1970, 12:00:00\u202FAM""#,
            false,
        );
        assert_eq!(nnbsp.verdict(std::slice::from_ref(&yes)).0, Verdict::Found);
        let other_callee = Observation {
            callee: "java.util.Date.toString()".into(),
            ..yes.clone()
        };
        assert!(!nnbsp.matches(&other_callee));
        // An observer's difference counts for the call whose value it read.
        let through_observer = Observation {
            callee: "java.lang.Object.toString()".into(),
            observed: Some("java.util.Date.toLocaleString()".into()),
            ..yes.clone()
        };
        assert!(nnbsp.matches(&through_observer));
        // Not for an item without value patterns: any observer's difference would do.
        let clamp = &items[1];
        let any_observer = Observation {
            callee: "java.lang.Object.toString()".into(),
            observed: Some("java.lang.Math.clamp(long,int,int)".into()),
            kind: Kind::Missing,
            reverse: true,
            ..yes.clone()
        };
        assert!(!clamp.matches(&any_observer));
        let direct = Observation {
            callee: "java.lang.Math.clamp(long,int,int)".into(),
            ..any_observer.clone()
        };
        assert!(clamp.matches(&direct));
        let backwards = Observation {
            before: yes.after.clone(),
            after: yes.before.clone(),
            ..yes.clone()
        };
        assert!(!nnbsp.matches(&backwards));
        let shown = Observation {
            counted: false,
            ..yes.clone()
        };
        assert_eq!(nnbsp.verdict(&[shown]).0, Verdict::Shown);

        let clamp = &items[1];
        let missing = |reverse| {
            obs(
                "java.lang.Math.clamp(long,int,int)",
                Kind::Missing,
                "",
                "",
                reverse,
            )
        };
        assert!(clamp.matches(&missing(true)));
        assert!(
            !clamp.matches(&missing(false)),
            "added API shows in reverse"
        );
    }

    #[test]
    fn rejects_duplicates_bad_pairs_and_patterns_naming_the_item() {
        let twice = format!("{ONE}{}", &ONE[..ONE.find("- id: clamp").unwrap()]);
        let (_d, path) = write(&twice);
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("item nnbsp: the id is used twice"), "{err}");
        let (_d, path) = write(&ONE.replace(
            "pair: 17-21\n  half: validation",
            "pair: 21-17\n  half: validation",
        ));
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("item clamp: pair must be OLD-NEW"), "{err}");
        let (_d, path) = write(&ONE.replace(r#""\\d AM""#, r#""(""#));
        assert!(load(&path).unwrap_err().to_string().contains("item nnbsp"));
        let (_d, path) = write("- id: x\n  colour: red\n");
        assert!(load(&path).is_err());
    }

    #[test]
    fn refuses_a_half_the_split_rule_does_not_give() {
        let (_d, path) = write(&ONE.replace("half: tuning", "half: validation"));
        let err = load(&path).unwrap_err().to_string();
        assert!(
            err.contains(
                "changes.yaml: item nnbsp: half is validation, the split rule gives tuning"
            ),
            "{err}"
        );
        // An id added after the split is validation, whatever its hash.
        let (dir, path) = write(ONE);
        std::fs::write(dir.path().join(half::SPLIT_BASE), "clamp\n").unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("item nnbsp"));
        std::fs::remove_file(dir.path().join(half::SPLIT_BASE)).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("split-base.txt"), "{err}");
    }

    #[test]
    fn reachability_follows_packages_classes_and_omissions() {
        let (_dir, path) = write(ONE);
        let items = load(&path).unwrap();
        let omit = OmitList::parse("java.lang.Math\n");
        let scope = Scope {
            packages: &["java.text"],
            classes: &[],
            omit: &omit,
        };
        assert!(scope.reaches(&items[0]));
        assert!(!scope.reaches(&items[1]));
        let scope = Scope {
            packages: &["java.lang"],
            classes: &[],
            omit: &OmitList::default(),
        };
        assert!(scope.reaches(&items[1]) && !scope.reaches(&items[0]));
    }

    #[test]
    fn the_shipped_list_loads() {
        let path = crate::targets::source_root().join("examples/known-changes/changes.yaml");
        let items = load(&path).unwrap();
        assert!(items.len() >= 40, "{} items", items.len());
        for half in Half::BOTH {
            assert!(items.iter().any(|c| c.half == half), "no {half:?} item");
        }
    }
}
