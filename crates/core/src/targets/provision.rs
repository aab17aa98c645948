//! Provisioning one target: find where its JDK is (or will be), make it present (pip, apt,
//! or just check a path), verify its libjvm and `bin/java`, create a CDS archive for jlink'd
//! runtimes, record the fingerprint, and fetch the classpath. Everything is idempotent:
//! a fast check without the lock, then the lock, then the same check again.

use super::cache::CacheLayout;
use super::error::TargetError;
use super::fingerprint::{self, Record};
use super::maven::MavenCoordinate;
use super::spec::{ClasspathEntry, JdkSource, TargetSpec};
use super::{apt, closure, pip, tools};
use std::path::{Path, PathBuf};

/// Where a target's JDK is, or will be once provisioned.
#[derive(Clone, Debug)]
pub(crate) struct Located {
    pub java_home: PathBuf,
    pub libjvm: PathBuf,
    /// Its fingerprint record.
    pub record_file: PathBuf,
    /// For pip targets: the folder the wheel is unpacked into.
    pub pip_dir: Option<PathBuf>,
    /// The options the JVM runs with (the fingerprint's mode depends on them).
    pub options: Vec<String>,
}

/// Works out the paths of `spec`'s JDK without changing anything.
pub(crate) fn locate(layout: &CacheLayout, spec: &TargetSpec) -> Result<Located, TargetError> {
    let (java_home, pip_dir) = match &spec.jdk {
        JdkSource::Pip { requirement, home } => {
            let dir = layout.pip_dir(requirement);
            (dir.join(home), Some(dir))
        }
        JdkSource::Path { home } | JdkSource::Apt { home, .. } => (tidy(home), None),
        JdkSource::System => (system_home(&spec.name)?, None),
    };
    let record_file = match &pip_dir {
        Some(dir) => dir.join(record_name(&spec.jvm_options)),
        None => layout.fingerprint_file(&spec.name),
    };
    Ok(Located {
        libjvm: java_home.join(&spec.libjvm),
        java_home,
        record_file,
        pip_dir,
        options: spec.options(),
    })
}

/// The name of a shared wheel folder's fingerprint record for targets with these JVM
/// options: the fingerprint depends on them (`vm_info`), so each set has its own record.
fn record_name(jvm_options: &[String]) -> String {
    if jvm_options.is_empty() {
        return "fingerprint.yaml".to_string();
    }
    let hash = crate::hash::fnv1a64(jvm_options.join("\0").as_bytes());
    format!("fingerprint-{hash:016x}.yaml")
}

impl Located {
    /// The lock of a JDK folder that several targets share (a wheel's), if it is one.
    pub(crate) fn shared_lock(&self) -> Option<String> {
        let dir = self.pip_dir.as_ref()?;
        Some(format!("jdk@{}", dir.file_name()?.to_string_lossy()))
    }
}

/// The fingerprint record, if it matches the JDK as it is now.
pub(crate) fn fresh_record(loc: &Located) -> Option<Record> {
    fingerprint::read_record(&loc.record_file)
        .filter(|r| r.is_fresh(&loc.java_home, &loc.libjvm) && r.options == loc.options)
}

/// The fingerprint record, if it matches the JDK as it is now and is complete.
pub(crate) fn current_record(loc: &Located) -> Option<Record> {
    fresh_record(loc).filter(Record::is_complete)
}

/// Makes the JDK present and fingerprinted. Call with the target's lock held.
pub(crate) fn ensure_jdk(
    layout: &CacheLayout,
    spec: &TargetSpec,
    loc: &Located,
    echo: bool,
) -> Result<Record, TargetError> {
    if let Some(record) = current_record(loc) {
        return Ok(record);
    }
    match (&spec.jdk, &loc.pip_dir) {
        (JdkSource::Pip { requirement, home }, Some(dir))
            if !loc.java_home.join("bin").is_dir() =>
        {
            pip::install(&spec.name, requirement, home, dir, &layout.tmp(), echo)?
        }
        (JdkSource::Apt { package, .. }, _) if !loc.libjvm.is_file() => {
            apt::install(&spec.name, package, echo)?
        }
        _ => {}
    }
    if !loc.libjvm.is_file() {
        return Err(TargetError::LibjvmMissing {
            target: spec.name.clone(),
            path: loc.libjvm.clone(),
        });
    }
    let cds = loc
        .pip_dir
        .as_ref()
        .map(|_| make_cds(&spec.name, loc, echo));
    if echo {
        eprintln!("provisioning {}: recording fingerprint", spec.name);
    }
    let mut record = fingerprint::measure(&spec.name, &loc.java_home, &loc.libjvm, &loc.options)?;
    record.cds = cds;
    fingerprint::write_record(&loc.record_file, &record)?;
    Ok(record)
}

/// Creates the default CDS archive (`bin/java -Xshare:dump`) next to the libjvm, which
/// jlink'd runtimes lack; it halves JVM start-up. Failure is reported, not fatal.
fn make_cds(target: &str, loc: &Located, echo: bool) -> String {
    let archive = loc.libjvm.with_file_name("classes.jsa");
    if archive.is_file() {
        return "already present".to_string();
    }
    if echo {
        eprintln!("provisioning {target}: creating a CDS archive (java -Xshare:dump)");
    }
    let mut cmd = super::launcher::java_command(&loc.java_home, &loc.libjvm);
    cmd.arg("-Xshare:dump");
    let outcome = match tools::capture(&mut cmd) {
        Ok(out) if out.status.success() && archive.is_file() => return "created".to_string(),
        Ok(out) if out.status.success() => format!("no archive at {}", archive.display()),
        Ok(out) => format!("{}: {}", tools::status_text(&out.status), out.last_line()),
        Err(e) => e.to_string(),
    };
    eprintln!(
        "warning: target {target}: could not create a CDS archive ({outcome}); JVMs will start slower"
    );
    format!("failed: {outcome}")
}

/// One entry of a provisioned classpath.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClasspathItem {
    /// Absolute, symlinks resolved.
    pub path: PathBuf,
    /// The Maven coordinate with the version Maven chose, for a Maven artifact.
    pub maven: Option<String>,
    /// Brought in by Maven as a dependency of the target's coordinates (not the library's own).
    pub dependency: bool,
    /// A dependency only the library's own optional dependencies bring in.
    pub optional: bool,
}

/// The classpath: the target's entries in order (a coordinate as the version Maven chose),
/// then the rest of its coordinates' runtime closure in Maven's order. With `fetch`, mvn
/// resolves what the cache lacks; without, a closure not resolved yet is an error.
pub(crate) fn classpath(
    layout: &CacheLayout,
    spec: &TargetSpec,
    fetch: bool,
    echo: bool,
) -> Result<Vec<ClasspathItem>, TargetError> {
    let coords: Vec<MavenCoordinate> = spec
        .classpath
        .iter()
        .filter_map(|e| match e {
            ClasspathEntry::Maven(c) => Some(c.clone()),
            ClasspathEntry::Path(_) | ClasspathEntry::Pom(_) => None,
        })
        .collect();
    let mut closure = match coords.is_empty() {
        true => Vec::new(),
        false => maven_closure(layout, spec, &coords, fetch, echo)?,
    };
    let mut items = Vec::new();
    let mut projects = Vec::new();
    for entry in &spec.classpath {
        let item = match entry {
            ClasspathEntry::Pom(pom) => {
                projects.push(project_dependencies(layout, spec, pom, fetch, echo)?);
                continue;
            }
            ClasspathEntry::Path(p) => ClasspathItem {
                path: std::fs::canonicalize(p).map_err(|_| TargetError::ClasspathMissing {
                    target: spec.name.clone(),
                    path: p.clone(),
                })?,
                maven: None,
                dependency: false,
                optional: false,
            },
            ClasspathEntry::Maven(c) => {
                let Some(at) = closure.iter().position(|a| same_artifact(&a.coordinate, c)) else {
                    continue; // Maven left it out (e.g. a pom-only artifact)
                };
                let a = closure.remove(at);
                ClasspathItem {
                    path: a.path,
                    maven: Some(a.coordinate),
                    dependency: false,
                    optional: false,
                }
            }
        };
        items.push(item);
    }
    let dependencies = closure.into_iter().chain(projects.into_iter().flatten());
    for a in dependencies {
        if !items.iter().any(|i| i.path == a.path) {
            items.push(ClasspathItem {
                path: a.path,
                maven: Some(a.coordinate),
                dependency: true,
                optional: a.optional,
            });
        }
    }
    Ok(items)
}

/// The runtime dependencies of the Maven project `pom`, resolved by mvn on every run (the
/// project is work in progress); without `fetch` that is an error, as for a `-SNAPSHOT`.
fn project_dependencies(
    layout: &CacheLayout,
    spec: &TargetSpec,
    pom: &Path,
    fetch: bool,
    echo: bool,
) -> Result<Vec<closure::Artifact>, TargetError> {
    if !fetch {
        return Err(TargetError::Maven {
            target: spec.name.clone(),
            coordinate: pom.display().to_string(),
            detail: "a project's dependencies are resolved on every run".to_string(),
        });
    }
    let (maven_root, closures, tmp) = (layout.maven(), layout.closures(), layout.tmp());
    let places = closure::Places {
        maven_root: &maven_root,
        closures: &closures,
        tmp: &tmp,
    };
    closure::project(&spec.name, pom, &places, echo)
}

/// The runtime closure of `coords`: resolved (when `fetch`) or from the cache.
fn maven_closure(
    layout: &CacheLayout,
    spec: &TargetSpec,
    coords: &[MavenCoordinate],
    fetch: bool,
    echo: bool,
) -> Result<Vec<closure::Artifact>, TargetError> {
    let (maven_root, closures, tmp) = (layout.maven(), layout.closures(), layout.tmp());
    if fetch {
        let places = closure::Places {
            maven_root: &maven_root,
            closures: &closures,
            tmp: &tmp,
        };
        return match spec.optional_dependencies {
            true => super::optional::resolve(&spec.name, coords, &places, echo),
            false => closure::resolve(&spec.name, coords, &places, echo),
        };
    }
    let cached = match spec.optional_dependencies {
        true => super::optional::cached(&closures, coords),
        false => closure::cached(&closures, coords),
    };
    cached.ok_or_else(|| TargetError::Maven {
        target: spec.name.clone(),
        coordinate: coords
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        detail: "not resolved yet (a -SNAPSHOT is resolved on every run)".to_string(),
    })
}

/// Whether the resolved `coordinate` is `c`'s artifact (any version: Maven may mediate).
fn same_artifact(coordinate: &str, c: &MavenCoordinate) -> bool {
    MavenCoordinate::parse(coordinate).is_ok_and(|r| {
        r.group == c.group
            && r.artifact == c.artifact
            && r.classifier == c.classifier
            && r.packaging == c.packaging
    })
}

/// `$JAVA_HOME` if set, else the folder above the `bin/` of the `java` on PATH (symlinks
/// resolved, so `/usr/bin/java` leads to the real JDK).
pub(super) fn system_home(target: &str) -> Result<PathBuf, TargetError> {
    if let Some(home) = std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        let home = PathBuf::from(home);
        return Ok(tidy(&std::path::absolute(&home).unwrap_or(home)));
    }
    let java = tools::which("java").ok_or_else(|| TargetError::NoSystemJava {
        target: target.to_string(),
    })?;
    let real =
        std::fs::canonicalize(&java).map_err(|e| TargetError::io("cannot resolve", &java, e))?;
    real.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or(TargetError::NoSystemJava {
            target: target.to_string(),
        })
}

/// The canonical form of an existing path (symlinks and `..` resolved), else the path itself.
fn tidy(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
