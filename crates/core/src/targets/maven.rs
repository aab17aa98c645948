//! Maven classpath entries: parsing `group:artifact:version[:packaging[:classifier]]` and
//! where an artifact lives in the cache, `<cache>/maven/<group>/<artifact>/<version>/`
//! (resolving a coordinate with its dependencies is [`super::closure`]'s).

use super::tools;
use std::path::{Path, PathBuf};

/// A Maven artifact coordinate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MavenCoordinate {
    /// The group id.
    pub group: String,
    /// The artifact id.
    pub artifact: String,
    /// The version.
    pub version: String,
    /// `jar` unless given.
    pub packaging: String,
    /// The classifier (`tests`, …), when given.
    pub classifier: Option<String>,
}

impl MavenCoordinate {
    /// Parses `g:a:v`, `g:a:v:packaging` or `g:a:v:packaging:classifier`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let valid = |s: &str| {
            !s.is_empty()
                && !s.starts_with('.')
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-+".contains(c))
        };
        if !(3..=5).contains(&parts.len()) || !parts.iter().all(|p| valid(p)) {
            return Err(format!(
                "maven: '{text}' is not group:artifact:version[:packaging[:classifier]]"
            ));
        }
        Ok(MavenCoordinate {
            group: parts[0].to_string(),
            artifact: parts[1].to_string(),
            version: parts[2].to_string(),
            packaging: parts.get(3).unwrap_or(&"jar").to_string(),
            classifier: parts.get(4).map(|s| s.to_string()),
        })
    }

    /// A `-SNAPSHOT` version: work in progress, resolved again on every run (from the local
    /// repository `mvn install` fills, else a remote one) instead of served from the cache.
    pub fn is_snapshot(&self) -> bool {
        self.version.ends_with("-SNAPSHOT")
    }

    /// The artifact's file name, as in a Maven repository.
    pub fn file_name(&self) -> String {
        match &self.classifier {
            Some(c) => format!("{}-{}-{c}.{}", self.artifact, self.version, self.packaging),
            None => format!("{}-{}.{}", self.artifact, self.version, self.packaging),
        }
    }

    /// `<maven_root>/<group>/<artifact>/<version>/<file name>`.
    pub fn path_in(&self, maven_root: &Path) -> PathBuf {
        maven_root
            .join(&self.group)
            .join(&self.artifact)
            .join(&self.version)
            .join(self.file_name())
    }
}

impl std::fmt::Display for MavenCoordinate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.group, self.artifact, self.version)?;
        if self.packaging != "jar" || self.classifier.is_some() {
            write!(f, ":{}", self.packaging)?;
        }
        if let Some(c) = &self.classifier {
            write!(f, ":{c}")?;
        }
        Ok(())
    }
}

/// The first `[ERROR]` line of Maven's output, without colour codes.
pub(super) fn first_error_line(output: &str) -> Option<String> {
    output
        .lines()
        .map(tools::strip_ansi)
        .find(|l| l.starts_with("[ERROR]"))
        .map(|l| l.trim_start_matches("[ERROR]").trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_parse_and_name_their_file() {
        let c = MavenCoordinate::parse("org.apache.commons:commons-lang3:3.12.0").unwrap();
        assert_eq!(c.file_name(), "commons-lang3-3.12.0.jar");
        assert_eq!(c.to_string(), "org.apache.commons:commons-lang3:3.12.0");
        let root = Path::new("/c/maven");
        assert_eq!(
            c.path_in(root),
            Path::new("/c/maven/org.apache.commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar")
        );
        let t = MavenCoordinate::parse("g:a:1:jar:tests").unwrap();
        assert_eq!(t.file_name(), "a-1-tests.jar");
        assert!(!t.is_snapshot());
        assert!(
            MavenCoordinate::parse("g:a:1.5-SNAPSHOT")
                .unwrap()
                .is_snapshot()
        );
    }

    #[test]
    fn bad_coordinates_are_rejected() {
        for bad in [
            "g:a",
            "g::1",
            "g:a:1:jar:x:y",
            "../g:a:1",
            "g:a:1 ",
            "g:a/b:1",
            "-g:a:1x:",
        ] {
            assert!(MavenCoordinate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn maven_error_line_is_found() {
        let out = "\u{1b}[0m[ERROR] Failed to execute goal: Could not find artifact\n[ERROR] \n";
        assert_eq!(
            first_error_line(out).as_deref(),
            Some("Failed to execute goal: Could not find artifact")
        );
    }
}
