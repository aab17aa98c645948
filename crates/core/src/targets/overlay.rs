//! Targets for one run, without a file: `BASE+ENTRY[+ENTRY…]` puts jars, class folders or
//! Maven coordinates on top of the target `BASE` (`temurin17+target/mylib-1.5.0.jar`,
//! `temurin17+org.example:mylib:1.4.0`), and a `pom.xml` adds that project's runtime
//! dependencies (`temurin17+target/mylib-1.5.0.jar+pom.xml`). The result keeps `BASE`'s name for provisioning,
//! so its JDK is shared with `BASE` in the cache; reports and suites carry the whole
//! expression, and [`file_stem`] turns it into a name fit for a file.

use super::error::TargetError;
use super::maven::MavenCoordinate;
use super::spec::{ClasspathEntry, TargetSpec};
use std::path::{Path, PathBuf};

/// The character joining a base target and what goes on top of it.
pub(crate) const JOIN: char = '+';

/// Whether `name` is an overlay expression rather than a target name or file.
pub(crate) fn is_overlay(name: &str) -> bool {
    name.contains(JOIN)
}

/// Splits `BASE+ENTRY…` into the base name and the parsed entries. A part holding `:` is a
/// Maven coordinate, anything else a path (relative to the working directory) that must
/// exist; an empty part is an error.
pub(crate) fn parse(expr: &str) -> Result<(String, Vec<ClasspathEntry>), TargetError> {
    let invalid = |message: String| TargetError::Invalid {
        location: format!("--impl {expr}"),
        message,
    };
    let mut parts = expr.split(JOIN);
    let base = parts.next().unwrap_or_default().to_string();
    if base.is_empty() {
        return Err(invalid(format!(
            "no base target before '{JOIN}' (e.g. temurin17{JOIN}lib.jar)"
        )));
    }
    let mut entries = Vec::new();
    for part in parts {
        if part.is_empty() {
            return Err(invalid(format!(
                "an empty part: write BASE{JOIN}JAR or BASE{JOIN}GROUP:ARTIFACT:VERSION"
            )));
        }
        entries.push(entry(part).map_err(invalid)?);
    }
    Ok((base, entries))
}

fn entry(part: &str) -> Result<ClasspathEntry, String> {
    if part.contains(':') && !part.contains('/') {
        return MavenCoordinate::parse(part)
            .map(ClasspathEntry::Maven)
            .map_err(|e| e.trim_start_matches("maven: ").to_string());
    }
    let path = Path::new(part);
    if !path.exists() {
        return Err(format!("{part}: no such jar or folder"));
    }
    let absolute = std::path::absolute(path).map_err(|e| format!("{part}: {e}"))?;
    match path.extension().is_some_and(|x| x == "xml") && path.is_file() {
        true => Ok(ClasspathEntry::Pom(absolute)),
        false => Ok(ClasspathEntry::Path(absolute)),
    }
}

/// `base` with `entries` appended to its classpath; the description says what was added.
pub(crate) fn apply(mut base: TargetSpec, expr: &str, entries: Vec<ClasspathEntry>) -> TargetSpec {
    base.description = format!("{expr} (for one run)");
    base.classpath.extend(entries);
    base
}

/// A file name for a target or overlay: the name itself, or for an overlay the base and
/// each part's short name (a path's file stem, a coordinate's `artifact-version`), joined
/// by `+`: `temurin17+target/mylib-1.5.0.jar` → `temurin17+mylib-1.5.0`.
pub fn file_stem(name: &str) -> String {
    if !is_overlay(name) {
        return name.to_string();
    }
    let mut parts = name.split(JOIN);
    let mut stem = parts.next().unwrap_or_default().to_string();
    for part in parts {
        let short = match MavenCoordinate::parse(part) {
            Ok(c) if !part.contains('/') => format!("{}-{}", c.artifact, c.version),
            _ => PathBuf::from(part)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        stem.push(JOIN);
        stem.extend(short.chars().map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        }));
    }
    stem
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_coordinates_or_existing_paths() {
        let dir = tempfile::tempdir().unwrap();
        let jar = dir.path().join("lib-1.0.jar");
        std::fs::write(&jar, b"").unwrap();
        let expr = format!("temurin17+g.x:lib:1.5.0-SNAPSHOT+{}", jar.display());
        let (base, entries) = parse(&expr).unwrap();
        assert_eq!(base, "temurin17");
        assert!(matches!(&entries[0], ClasspathEntry::Maven(c) if c.version == "1.5.0-SNAPSHOT"));
        assert_eq!(entries[1], ClasspathEntry::Path(jar.clone()));
    }

    #[test]
    fn bad_parts_name_the_flag_and_the_part() {
        for (expr, needle) in [
            ("temurin17+", "empty part"),
            ("+x.jar", "no base target"),
            ("temurin17+no/such.jar", "no/such.jar: no such jar"),
            ("temurin17+g:a", "'g:a' is not group:artifact:version"),
        ] {
            let e = parse(expr).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--impl {expr}: ")), "{e}");
            assert!(e.contains(needle), "{e}");
            assert!(e.lines().count() == 1, "{e}");
        }
    }

    #[test]
    fn file_stems_are_short_and_safe() {
        assert_eq!(file_stem("temurin17"), "temurin17");
        assert_eq!(
            file_stem("temurin17+target/mylib-1.5.0-SNAPSHOT.jar"),
            "temurin17+mylib-1.5.0-SNAPSHOT"
        );
        assert_eq!(
            file_stem("temurin21+org.apache.commons:commons-lang3:3.12.0"),
            "temurin21+commons-lang3-3.12.0"
        );
        assert_eq!(file_stem("t+./build/classes/"), "t+classes");
    }
}
