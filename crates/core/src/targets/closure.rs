//! The runtime dependency closure of a target's Maven coordinates, as Maven resolves it:
//! `mvn dependency:list dependency:build-classpath -DincludeScope=runtime` on a generated
//! POM that declares the coordinates (compile and runtime scopes, exclusions and version
//! mediation are Maven's own). The jars are copied into `<cache>/maven/…` and the resolved
//! list into `<cache>/closures/<hash of the coordinates>.yaml`, so a second run needs no mvn.
//! A closure holding a `-SNAPSHOT` is resolved again on every run, as a lone snapshot is.

use super::error::TargetError;
use super::maven::{self, MavenCoordinate};
use super::tools;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One artifact of a closure, in classpath order.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Artifact {
    /// `group:artifact:version[:packaging[:classifier]]` with the version Maven chose.
    pub coordinate: String,
    /// Maven's scope for it: `compile` or `runtime`.
    pub scope: String,
    /// Its jar in the cache.
    pub path: PathBuf,
    /// Brought in only because the library's own POM declares it (or what it needs)
    /// `<optional>`: on the library's own build classpath, not on a dependent's
    /// ([`super::optional`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
}

/// The cached closure file.
#[derive(Serialize, Deserialize)]
struct ClosureFile {
    /// The coordinates asked for, in order (guards against a hash collision).
    requested: Vec<String>,
    artifacts: Vec<Artifact>,
}

/// `<cache>/closures/<hash>.yaml` for `coords`, in their order (order is part of Maven's
/// mediation: at equal depth, the first declaration wins).
fn closure_file(closures: &Path, coords: &[MavenCoordinate]) -> PathBuf {
    closure_file_of(closures, "closure", coords)
}

/// `<cache>/closures/<hash>.yaml` for `coords` resolved the way `kind` names.
fn closure_file_of(closures: &Path, kind: &str, coords: &[MavenCoordinate]) -> PathBuf {
    let key: Vec<String> = coords.iter().map(ToString::to_string).collect();
    let hash = crate::hash::fnv1a64(format!("{kind}\0{}", key.join("\0")).as_bytes());
    closures.join(format!("{hash:016x}.yaml"))
}

/// The cached closure of `coords`, if it is there, is for them, and every jar is present.
/// A closure with a `-SNAPSHOT` is never served from the cache.
pub(crate) fn cached(closures: &Path, coords: &[MavenCoordinate]) -> Option<Vec<Artifact>> {
    cached_file(&closure_file(closures, coords), coords)
}

/// [`cached`] for the closure of `coords` resolved the way `kind` names.
pub(super) fn cached_of(
    closures: &Path,
    kind: &str,
    coords: &[MavenCoordinate],
) -> Option<Vec<Artifact>> {
    cached_file(&closure_file_of(closures, kind, coords), coords)
}

fn cached_file(file: &Path, coords: &[MavenCoordinate]) -> Option<Vec<Artifact>> {
    if coords.iter().any(MavenCoordinate::is_snapshot) {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let file: ClosureFile = serde_yaml::from_str(&text).ok()?;
    let requested: Vec<String> = coords.iter().map(ToString::to_string).collect();
    (file.requested == requested && file.artifacts.iter().all(|a| a.path.is_file()))
        .then_some(file.artifacts)
}

/// Where the cache keeps things, for [`resolve`].
pub(crate) struct Places<'a> {
    pub maven_root: &'a Path,
    pub closures: &'a Path,
    pub tmp: &'a Path,
}

/// The closure of `coords`: from the cache, else resolved with mvn, copied into the cache
/// and recorded. `target` names the target in messages.
pub(crate) fn resolve(
    target: &str,
    coords: &[MavenCoordinate],
    places: &Places,
    echo: bool,
) -> Result<Vec<Artifact>, TargetError> {
    if let Some(found) = cached(places.closures, coords) {
        return Ok(found);
    }
    let all = coords
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let failed = |detail: String| TargetError::Maven {
        target: target.to_string(),
        coordinate: all.clone(),
        detail,
    };
    if !tools::on_path("mvn") {
        return Err(TargetError::ToolMissing {
            target: target.to_string(),
            tool: "mvn",
            purpose: "resolve Maven classpath entries and their dependencies",
        });
    }
    if echo {
        eprintln!("provisioning {target}: resolving {all} and its runtime dependencies with mvn");
    }
    let work = tools::temp_dir_in(places.tmp, target)?;
    std::fs::write(work.path().join("pom.xml"), pom(coords))
        .map_err(|e| TargetError::io("cannot write", work.path().join("pom.xml"), e))?;
    let resolved = resolve_in(work.path(), None).map_err(failed)?;
    let artifacts = into_cache(resolved, places.maven_root)?;
    remember(places.closures, "closure", coords, &artifacts)?;
    Ok(artifacts)
}

/// Writes the closure file of `coords` resolved the way `kind` names (atomically: a reader
/// sees the old file or the new one).
pub(super) fn remember(
    closures: &Path,
    kind: &str,
    coords: &[MavenCoordinate],
    artifacts: &[Artifact],
) -> Result<(), TargetError> {
    let file = closure_file_of(closures, kind, coords);
    let text = serde_yaml::to_string(&ClosureFile {
        requested: coords.iter().map(ToString::to_string).collect(),
        artifacts: artifacts.to_vec(),
    })
    .map_err(|e| TargetError::io("cannot write", &file, std::io::Error::other(e)))?;
    crate::atomic::write(&file, text).map_err(|e| TargetError::io("cannot write", &file, e))
}

/// The runtime dependencies of the Maven project whose POM is `pom` (not the project's own
/// artifact), resolved by mvn every time and copied into the cache.
pub(crate) fn project(
    target: &str,
    pom: &Path,
    places: &Places,
    echo: bool,
) -> Result<Vec<Artifact>, TargetError> {
    if !tools::on_path("mvn") {
        return Err(TargetError::ToolMissing {
            target: target.to_string(),
            tool: "mvn",
            purpose: "resolve the dependencies of a pom.xml",
        });
    }
    if echo {
        eprintln!(
            "provisioning {target}: resolving the runtime dependencies of {} with mvn",
            pom.display()
        );
    }
    let work = tools::temp_dir_in(places.tmp, target)?;
    let resolved = resolve_in(work.path(), Some(pom)).map_err(|detail| TargetError::Maven {
        target: target.to_string(),
        coordinate: pom.display().to_string(),
        detail,
    })?;
    into_cache(resolved, places.maven_root)
}

/// Copies resolved artifacts into the cache (a snapshot always, a release when missing).
pub(super) fn into_cache(
    resolved: Vec<(MavenCoordinate, String, PathBuf)>,
    maven_root: &Path,
) -> Result<Vec<Artifact>, TargetError> {
    let mut artifacts = Vec::with_capacity(resolved.len());
    for (coord, scope, from) in resolved {
        let path = coord.path_in(maven_root);
        if !path.is_file() || coord.is_snapshot() {
            copy_in(&from, &path)?;
        }
        artifacts.push(Artifact {
            coordinate: coord.to_string(),
            scope,
            path,
            optional: false,
        });
    }
    Ok(artifacts)
}

/// Copies a jar from Maven's local repository into the cache, atomically.
fn copy_in(from: &Path, to: &Path) -> Result<(), TargetError> {
    let mut src = std::fs::File::open(from).map_err(|e| TargetError::io("cannot read", from, e))?;
    let mut out = crate::atomic::AtomicFile::create(to)
        .map_err(|e| TargetError::io("cannot write", to, e))?;
    std::io::copy(&mut src, &mut out).map_err(|e| TargetError::io("cannot write", to, e))?;
    out.commit()
        .map_err(|e| TargetError::io("cannot write", to, e))
}

/// Runs mvn on `pom` (else `work/pom.xml`), writing its lists into `work`; returns each
/// artifact of the runtime closure in classpath order with its scope and its file in
/// Maven's local repository.
pub(super) fn resolve_in(
    work: &Path,
    pom: Option<&Path>,
) -> Result<Vec<(MavenCoordinate, String, PathBuf)>, String> {
    let (list, classpath) = (work.join("list.txt"), work.join("classpath.txt"));
    let mut cmd = Command::new("mvn");
    if let Some(pom) = pom {
        cmd.arg("-f").arg(pom);
    }
    cmd.args(["-B", "-q", "-Dstyle.color=never"])
        .args(["dependency:list", "dependency:build-classpath"])
        .arg("-DincludeScope=runtime")
        .arg("-DoutputAbsoluteArtifactFilename=true")
        .arg(format!("-DoutputFile={}", list.display()))
        .arg(format!("-Dmdep.outputFile={}", classpath.display()))
        .current_dir(work);
    let out = tools::capture(&mut cmd).map_err(|e| format!("cannot run mvn: {e}"))?;
    if !out.status.success() {
        return Err(
            maven::first_error_line(&out.text).unwrap_or_else(|| tools::status_text(&out.status))
        );
    }
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let listed = parse_list(&read(&list)?)?;
    order_by_classpath(listed, &read(&classpath)?)
}

/// The POM of a throwaway project that depends on `coords` (a `pom` packaging pulls in its
/// own dependencies).
pub(super) fn pom(coords: &[MavenCoordinate]) -> String {
    let mut deps = String::new();
    for c in coords {
        deps.push_str(&format!(
            "    <dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version><type>{}</type>{}</dependency>\n",
            c.group,
            c.artifact,
            c.version,
            c.packaging,
            c.classifier
                .as_ref()
                .map(|cl| format!("<classifier>{cl}</classifier>"))
                .unwrap_or_default()
        ));
    }
    format!(
        "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>difftest.resolve</groupId>\n  <artifactId>closure</artifactId>\n  <version>0</version>\n  <packaging>pom</packaging>\n  <dependencies>\n{deps}  </dependencies>\n</project>\n"
    )
}

/// The lines of `dependency:list -DoutputAbsoluteArtifactFilename=true`:
/// `g:a:type[:classifier]:v:scope:/path/to.jar[ -- module …]`.
pub(super) fn parse_list(
    text: &str,
) -> Result<BTreeMap<PathBuf, (MavenCoordinate, String)>, String> {
    let mut out = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        let line = line.split(" -- ").next().unwrap_or_default();
        let Some((coord, path)) = line.split_once(":/") else {
            continue;
        };
        let f: Vec<&str> = coord.split(':').collect();
        let (g, a, ty, classifier, v, scope) = match f.as_slice() {
            [g, a, ty, v, scope] => (g, a, ty, None, v, scope),
            [g, a, ty, cl, v, scope] => (g, a, ty, Some(cl), v, scope),
            _ => return Err(format!("cannot read mvn's dependency list line: {line}")),
        };
        let text = match classifier {
            Some(cl) => format!("{g}:{a}:{v}:{ty}:{cl}"),
            None => format!("{g}:{a}:{v}:{ty}"),
        };
        let parsed = MavenCoordinate::parse(&text)?;
        out.insert(
            PathBuf::from(format!("/{path}")),
            (parsed, scope.to_string()),
        );
    }
    Ok(out)
}

/// The listed artifacts in the order of the build classpath (Maven's own order).
fn order_by_classpath(
    mut listed: BTreeMap<PathBuf, (MavenCoordinate, String)>,
    classpath: &str,
) -> Result<Vec<(MavenCoordinate, String, PathBuf)>, String> {
    let mut out = Vec::new();
    for entry in classpath.trim().split(':').filter(|e| !e.is_empty()) {
        let path = PathBuf::from(entry);
        let (coord, scope) = listed
            .remove(&path)
            .ok_or_else(|| format!("{entry} is on mvn's classpath but not in its list"))?;
        out.push((coord, scope, path));
    }
    match listed.keys().next() {
        Some(left) => Err(format!(
            "{} is in mvn's list but not on its classpath",
            left.display()
        )),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "\nThe following files have been resolved:\n   org.apache.commons:commons-text:jar:1.9:compile:/r/commons-text-1.9.jar\n   org.apache.commons:commons-lang3:jar:3.11:runtime:/r/commons-lang3-3.11.jar -- module org.apache.commons.lang3\n   g:a:jar:tests:1:compile:/r/a-1-tests.jar\n\n";

    #[test]
    fn list_and_classpath_give_the_closure_in_maven_order() {
        let listed = parse_list(LIST).unwrap();
        let cp = "/r/a-1-tests.jar:/r/commons-text-1.9.jar:/r/commons-lang3-3.11.jar\n";
        let ordered = order_by_classpath(listed, cp).unwrap();
        let names: Vec<String> = ordered.iter().map(|(c, s, _)| format!("{c} {s}")).collect();
        assert_eq!(
            names,
            [
                "g:a:1:jar:tests compile",
                "org.apache.commons:commons-text:1.9 compile",
                "org.apache.commons:commons-lang3:3.11 runtime"
            ]
        );
    }

    #[test]
    fn a_classpath_entry_missing_from_the_list_is_an_error() {
        let listed = parse_list(LIST).unwrap();
        let e = order_by_classpath(listed.clone(), "/r/other.jar").unwrap_err();
        assert!(e.contains("/r/other.jar is on mvn's classpath"), "{e}");
        let e = order_by_classpath(listed, "/r/commons-text-1.9.jar").unwrap_err();
        assert!(e.contains("in mvn's list but not on its classpath"), "{e}");
    }

    #[test]
    fn the_cache_key_is_the_coordinates_in_order_and_snapshots_are_never_cached() {
        let a = MavenCoordinate::parse("g:a:1").unwrap();
        let b = MavenCoordinate::parse("g:b:2").unwrap();
        let dir = Path::new("/c");
        assert_ne!(
            closure_file(dir, &[a.clone(), b.clone()]),
            closure_file(dir, &[b.clone(), a.clone()])
        );
        let snap = MavenCoordinate::parse("g:s:1-SNAPSHOT").unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let file = closure_file(tmp.path(), std::slice::from_ref(&snap));
        let jar = tmp.path().join("s.jar");
        std::fs::write(&jar, b"").unwrap();
        let text = format!(
            "requested: [\"g:s:1-SNAPSHOT\"]\nartifacts:\n- coordinate: g:s:1-SNAPSHOT\n  scope: compile\n  path: {}\n",
            jar.display()
        );
        std::fs::write(&file, text).unwrap();
        assert!(cached(tmp.path(), &[snap]).is_none());
    }

    #[test]
    fn a_cached_closure_with_a_jar_gone_is_not_served() {
        let tmp = tempfile::tempdir().unwrap();
        let a = MavenCoordinate::parse("g:a:1").unwrap();
        let jar = tmp.path().join("a-1.jar");
        std::fs::write(&jar, b"").unwrap();
        let text = format!(
            "requested: [\"g:a:1\"]\nartifacts:\n- coordinate: g:a:1\n  scope: compile\n  path: {}\n",
            jar.display()
        );
        std::fs::write(closure_file(tmp.path(), std::slice::from_ref(&a)), text).unwrap();
        assert_eq!(
            cached(tmp.path(), std::slice::from_ref(&a)).unwrap().len(),
            1
        );
        std::fs::remove_file(&jar).unwrap();
        assert!(cached(tmp.path(), &[a]).is_none());
    }
}
