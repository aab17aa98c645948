//! A dependency that changed version between the reference and the target (Maven
//! coordinates of the two resolved classpaths, read reference → target), with the classes
//! of the target's jar of it: the report makes each such change a cause of its own and
//! attributes to it the differences that involve those classes.

use super::fingerprint::ClasspathJar;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One dependency whose version differs, or that only one side has.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct DependencyChange {
    /// `group:artifact` (with classifier, if any).
    pub artifact: String,
    /// The reference's version; `None` when only the target has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The target's version; `None` when only the reference has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Binary names of the classes in the target's jar of it (empty when the target lacks
    /// it or the jar could not be read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    /// Why `classes` is empty although the target has the jar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
}

impl DependencyChange {
    /// `org.slf4j:slf4j-api 1.7.36 → 2.0.9`, `g:a (none) → 1.0`, `g:a 1.0 → (none)`: the
    /// normalised change of its cause.
    pub fn change(&self) -> String {
        let side = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
        format!(
            "{} {} → {}",
            self.artifact,
            side(&self.reference),
            side(&self.target)
        )
    }
}

/// How the Maven dependencies of two classpaths differ; `target_paths` are the target's
/// jar paths in the order of `target` (the classes are read from them). Artifacts the
/// targets name themselves (the library under test) are left out unless one side has it
/// as a dependency.
pub(crate) fn changes(
    reference: &[ClasspathJar],
    target: &[ClasspathJar],
    target_paths: &[PathBuf],
) -> Vec<DependencyChange> {
    let versions = |jars: &[ClasspathJar]| -> BTreeMap<String, (String, bool, usize)> {
        jars.iter()
            .enumerate()
            .filter_map(|(i, j)| {
                j.maven_key()
                    .map(|(k, v)| (k, (v.to_string(), j.dependency, i)))
            })
            .collect()
    };
    let (old, new) = (versions(reference), versions(target));
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    let path = |i: usize| (target.len() == target_paths.len()).then(|| &target_paths[i]);
    keys.into_iter()
        .filter_map(|k| {
            let (a, b) = (old.get(k), new.get(k));
            let changed = match (a, b) {
                (Some((va, da, _)), Some((vb, db, _))) => va != vb && (*da || *db),
                (Some((_, d, _)), None) | (None, Some((_, d, _))) => *d,
                (None, None) => false,
            };
            changed.then(|| {
                let jar = b.and_then(|(_, _, i)| path(*i));
                with_classes(k, a.map(|x| x.0.clone()), b.map(|x| x.0.clone()), jar)
            })
        })
        .collect()
}

fn with_classes(
    artifact: &str,
    reference: Option<String>,
    target: Option<String>,
    jar: Option<&PathBuf>,
) -> DependencyChange {
    let read = jar.map(|p| super::jar_index::class_names(p));
    let (classes, unread) = match read {
        Some(Ok(classes)) => (classes, None),
        Some(Err(e)) => (Vec::new(), Some(e.to_string())),
        None => (Vec::new(), None),
    };
    DependencyChange {
        artifact: artifact.to_string(),
        reference,
        target,
        classes,
        unread,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jar(name: &str, dependency: bool) -> ClasspathJar {
        ClasspathJar {
            name: name.into(),
            dependency,
            optional: false,
            xxh3: String::new(),
        }
    }

    #[test]
    fn changed_added_and_removed_dependencies_leave_the_library_out() {
        let old = [
            jar("g:lib:1", false),
            jar("g:dep:1", true),
            jar("g:gone:2", true),
            jar("local.jar", false),
        ];
        let new = [
            jar("g:lib:2", false),
            jar("g:dep:1.1", true),
            jar("g:new:3", true),
            jar("g:cls:2:jar:tests", true),
        ];
        let lines: Vec<String> = changes(&old, &new, &[])
            .iter()
            .map(|c| c.change())
            .collect();
        assert_eq!(
            lines,
            [
                "g:cls:jar:tests (none) → 2",
                "g:dep 1 → 1.1",
                "g:gone 2 → (none)",
                "g:new (none) → 3"
            ]
        );
        assert!(changes(&old, &old, &[]).is_empty());
    }

    #[test]
    fn an_unreadable_jar_is_said_not_fatal() {
        let old = [jar("g:dep:1", true)];
        let new = [jar("g:dep:2", true)];
        let paths = [PathBuf::from("/nonexistent/dep-2.jar")];
        let found = changes(&old, &new, &paths);
        assert!(found[0].classes.is_empty());
        assert!(found[0].unread.as_deref().unwrap().contains("dep-2.jar"));
    }
}
