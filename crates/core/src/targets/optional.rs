//! A library's classpath as its own build sees it: the runtime closure of the target's
//! coordinates *and* the optional dependencies the library's own POM declares. Maven leaves
//! a dependency's `<optional>` dependencies out of a dependent's classpath, but the library
//! under test is the project here: its build and its tests run with them, and its public
//! API calls into them (commons-compress's Pack200 into `asm`, its codecs into
//! `commons-codec`). Maven itself lists them — `dependency:list` run on each coordinate's
//! own POM, which applies its parent, properties, dependency management and profiles, and
//! marks each `(optional)` — and resolves the closure again with them declared beside the
//! coordinates. A target file turns this off with `optional_dependencies: false`.

use super::closure::{self, Artifact, Places};
use super::error::TargetError;
use super::maven::{self, MavenCoordinate};
use super::tools;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cache key kind of a closure with the libraries' optional dependencies.
const KIND: &str = "closure+optional";

/// The maven-dependency-plugin that lists a POM's direct dependencies: pinned, since the
/// `(optional)` mark and `outputAbsoluteArtifactFilename` depend on its version.
const LIST_GOAL: &str = "org.apache.maven.plugins:maven-dependency-plugin:3.1.1:list";

/// The cached closure of `coords` with their optional dependencies, if there is one.
pub(super) fn cached(closures: &Path, coords: &[MavenCoordinate]) -> Option<Vec<Artifact>> {
    closure::cached_of(closures, KIND, coords)
}

/// The runtime closure of `coords` with the optional dependencies their own POMs declare
/// (marked [`Artifact::optional`] when only those bring them in): from the cache, else
/// resolved with mvn, copied into the cache and recorded.
pub(super) fn resolve(
    target: &str,
    coords: &[MavenCoordinate],
    places: &Places,
    echo: bool,
) -> Result<Vec<Artifact>, TargetError> {
    if let Some(found) = cached(places.closures, coords) {
        return Ok(found);
    }
    if !tools::on_path("mvn") {
        return Err(TargetError::ToolMissing {
            target: target.to_string(),
            tool: "mvn",
            purpose: "resolve Maven classpath entries and their dependencies",
        });
    }
    let all = coords
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if echo {
        eprintln!(
            "provisioning {target}: resolving {all}, its runtime dependencies and its optional ones with mvn"
        );
    }
    let failed = |detail: String| TargetError::Maven {
        target: target.to_string(),
        coordinate: all.clone(),
        detail,
    };
    let work = tools::temp_dir_in(places.tmp, target)?;
    let plain = resolve_pom(work.path(), "plain", coords).map_err(failed)?;
    let mut extra = Vec::new();
    for (i, own) in coords.iter().enumerate() {
        let Some(pom) = own_pom(own, &plain) else {
            continue; // Maven left it out of the classpath (a pom-only artifact)
        };
        let listed = optional_of(&work.path().join(format!("own-{i}")), &pom)
            .map_err(|e| failed(format!("listing the optional dependencies of {own}: {e}")))?;
        extra.extend(listed.into_iter().filter(|c| !declares(coords, c)));
    }
    let (resolved, optional) = match extra.is_empty() {
        true => (plain, Vec::new()),
        false => with_optional(work.path(), coords, &extra, &plain).map_err(failed)?,
    };
    let mut artifacts = closure::into_cache(resolved, places.maven_root)?;
    for (a, optional) in artifacts.iter_mut().zip(optional) {
        a.optional = optional;
    }
    closure::remember(places.closures, KIND, coords, &artifacts)?;
    Ok(artifacts)
}

type Resolved = Vec<(MavenCoordinate, String, PathBuf)>;

/// The closure of `coords` followed by `extra`, and for each of its artifacts whether the
/// closure of `coords` alone (`plain`) lacks it.
fn with_optional(
    work: &Path,
    coords: &[MavenCoordinate],
    extra: &[MavenCoordinate],
    plain: &Resolved,
) -> Result<(Resolved, Vec<bool>), String> {
    let declared: Vec<MavenCoordinate> = coords.iter().chain(extra).cloned().collect();
    let full = resolve_pom(work, "optional", &declared)?;
    let before: BTreeSet<String> = plain.iter().map(|(c, _, _)| key(c)).collect();
    let optional = full
        .iter()
        .map(|(c, _, _)| !before.contains(&key(c)))
        .collect();
    Ok((full, optional))
}

/// `group:artifact[:classifier]`: an artifact whatever version Maven chose.
fn key(c: &MavenCoordinate) -> String {
    match &c.classifier {
        Some(cl) => format!("{}:{}:{cl}", c.group, c.artifact),
        None => format!("{}:{}", c.group, c.artifact),
    }
}

/// Whether the target names `c`'s artifact itself (its version then stays the target's).
fn declares(coords: &[MavenCoordinate], c: &MavenCoordinate) -> bool {
    coords.iter().any(|own| key(own) == key(c))
}

/// The runtime closure of a throwaway project depending on `coords`, in folder `work/name`.
fn resolve_pom(work: &Path, name: &str, coords: &[MavenCoordinate]) -> Result<Resolved, String> {
    let dir = work.join(name);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let pom = dir.join("pom.xml");
    std::fs::write(&pom, closure::pom(coords)).map_err(|e| format!("{}: {e}", pom.display()))?;
    closure::resolve_in(&dir, None)
}

/// The POM of `own` in Maven's local repository: beside its resolved jar, named after the
/// version folder (a snapshot's `-SNAPSHOT` POM, not a timestamped one).
fn own_pom(own: &MavenCoordinate, resolved: &Resolved) -> Option<PathBuf> {
    let (_, _, jar) = resolved.iter().find(|(c, _, _)| key(c) == key(own))?;
    let folder = jar.parent()?;
    let version = folder.file_name()?.to_string_lossy().into_owned();
    Some(folder.join(format!("{}-{version}.pom", own.artifact)))
}

/// The optional compile and runtime dependencies the POM `pom` declares, with the versions
/// its own build resolves: mvn's `dependency:list` run on a copy of it in `dir` (a folder of
/// its own, so no `../pom.xml` is taken for its parent).
fn optional_of(dir: &Path, pom: &Path) -> Result<Vec<MavenCoordinate>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let copy = dir.join("pom.xml");
    std::fs::copy(pom, &copy).map_err(|e| format!("{}: {e}", pom.display()))?;
    let list = dir.join("list.txt");
    let mut cmd = Command::new("mvn");
    cmd.arg("-f")
        .arg(&copy)
        .args(["-B", "-q", "-Dstyle.color=never", LIST_GOAL])
        .args(["-DexcludeTransitive=true", "-DincludeScope=runtime"])
        .arg("-DoutputAbsoluteArtifactFilename=true")
        .arg(format!("-DoutputFile={}", list.display()))
        .current_dir(dir);
    let out = tools::capture(&mut cmd).map_err(|e| format!("cannot run mvn: {e}"))?;
    if !out.status.success() {
        return Err(
            maven::first_error_line(&out.text).unwrap_or_else(|| tools::status_text(&out.status))
        );
    }
    let text = std::fs::read_to_string(&list).map_err(|e| format!("{}: {e}", list.display()))?;
    let listed = closure::parse_list(&optional_lines(&text))?;
    Ok(listed.into_values().map(|(c, _)| c).collect())
}

/// The lines of a `dependency:list` that end in `(optional)`, without the mark (and without
/// the ` -- module …` note that may follow it).
fn optional_lines(text: &str) -> String {
    text.lines()
        .filter_map(|line| {
            let head = line.split(" -- ").next()?.trim_end();
            head.strip_suffix("(optional)").map(str::trim_end)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lines_marked_optional_are_taken() {
        let text = "\nThe following files have been resolved:\n   org.tukaani:xz:jar:1.9:compile:/r/xz-1.9.jar (optional)  -- module org.tukaani.xz\n   org.apache.commons:commons-lang3:jar:3.11:compile:/r/commons-lang3-3.11.jar -- module x\n   asm:asm:jar:3.2:runtime:/r/asm-3.2.jar (optional)\n";
        let listed = closure::parse_list(&optional_lines(text)).unwrap();
        let names: Vec<String> = listed.values().map(|(c, s)| format!("{c} {s}")).collect();
        assert_eq!(names, ["asm:asm:3.2 runtime", "org.tukaani:xz:1.9 compile"]);
    }

    #[test]
    fn the_own_pom_is_beside_the_jar_named_by_the_version_folder() {
        let c = MavenCoordinate::parse("g:lib:1.0-SNAPSHOT").unwrap();
        let jar = PathBuf::from("/m2/g/lib/1.0-SNAPSHOT/lib-1.0-20260101.120000-3.jar");
        let resolved = vec![(c.clone(), "compile".to_string(), jar)];
        assert_eq!(
            own_pom(&c, &resolved).unwrap(),
            Path::new("/m2/g/lib/1.0-SNAPSHOT/lib-1.0-SNAPSHOT.pom")
        );
        let other = MavenCoordinate::parse("g:other:1").unwrap();
        assert!(own_pom(&other, &resolved).is_none());
    }
}
