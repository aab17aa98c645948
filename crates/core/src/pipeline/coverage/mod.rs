//! `record --coverage`: branch coverage of the scope reached by the record's generation.
//! The generation workers start with JaCoCo's agent keeping its data in memory
//! (`output=none`); the workers hand their data over the wire as they go
//! ([`crate::pool::Pool::coverage`]); the data goes into `<suite>.coverage/` beside the suite,
//! and JaCoCo's command line reports it against the scope's class files (a JDK's, copied out
//! of its runtime image by the agent's `difftest.ScopeClasses`; a library's jars as they are). The suite
//! does not depend on it: the agent only counts.

mod table;

pub use table::{PackageCoverage, coverage_lines};

use super::Error;
use crate::model::ApiModel;
use crate::targets::JvmSpec;
use crate::targets::jacoco::{self, JacocoJars};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What the agent never instruments (a package with its subpackages, a class with its
/// nested classes): JaCoCo's probes of a modern class file are a dynamic constant, which
/// the JVM bootstraps through these, so an instrumented one recurses on its first probe
/// (`StackOverflowError` in `ClassValue.get`).
pub const UNMEASURED: &[&str] = &["java.lang.invoke", "java.lang.ClassValue"];

/// The `-javaagent:` option for the generation workers: in memory only, instrumenting the
/// JDK's own classes of the scope (`classes`, `packages`) or, for a library, every class
/// outside the JDK.
pub(crate) fn agent_option(
    jars: &JacocoJars,
    classes: &[String],
    packages: &[String],
    library: bool,
) -> String {
    let what = match library {
        true => "includes=*".to_string(),
        false => {
            let mut includes: Vec<String> = packages
                .iter()
                .map(|p| format!("{}.*", p.trim_end_matches(".*")))
                .collect();
            includes.extend(classes.iter().flat_map(|c| [c.clone(), format!("{c}$*")]));
            format!("inclbootstrapclasses=true,includes={}", includes.join(":"))
        }
    };
    format!(
        "-javaagent:{}=output=none,dumponexit=false,excludes=difftest.*:{},{what}",
        jars.agent.display(),
        UNMEASURED
            .iter()
            .flat_map(|u| [u.to_string(), format!("{u}.*"), format!("{u}$*")])
            .collect::<Vec<_>>()
            .join(":")
    )
}

/// The folder beside the suite that keeps the execution data and the report.
pub fn folder_for(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_os_string();
    name.push(".coverage");
    PathBuf::from(name)
}

/// Writes each worker's data to `folder`, reports it with JaCoCo against the scope's class
/// files and returns the coverage of each package of `model`, sorted by name.
pub(crate) fn analyse(
    jars: &JacocoJars,
    jvm: &JvmSpec,
    library: &[PathBuf],
    model: &ApiModel,
    data: &[u8],
    folder: &Path,
) -> Result<Vec<PackageCoverage>, Error> {
    let fail = |what: &str, e: String| Error::Coverage(format!("{what}: {e}"));
    let _ = std::fs::remove_dir_all(folder);
    let folder = &std::fs::create_dir_all(folder)
        .and_then(|_| folder.canonicalize())
        .map_err(|e| fail(&folder.display().to_string(), e.to_string()))?;
    let exec = folder.join("generation.exec");
    crate::atomic::write(&exec, data)
        .map_err(|e| fail(&exec.display().to_string(), e.to_string()))?;
    let mut args: Vec<OsString> = vec!["-jar".into(), jars.cli.clone().into(), "report".into()];
    args.push(exec.into());
    let packages = scope_packages(model);
    let classes = match library.is_empty() {
        true => vec![jdk_classes(jvm, &packages, folder)?],
        false => library.to_vec(),
    };
    for path in classes {
        args.extend(["--classfiles".into(), path.into()]);
    }
    let csv = folder.join("coverage.csv");
    args.extend(["--csv".into(), csv.clone().into(), "--quiet".into()]);
    jacoco::run_java(&jvm.java_home, &args, folder)
        .map_err(|e| fail("JaCoCo's report failed", e))?;
    let text = std::fs::read_to_string(&csv)
        .map_err(|e| fail(&csv.display().to_string(), e.to_string()))?;
    let _ = std::fs::remove_dir_all(folder.join("classes"));
    table::per_package(&text, &packages).map_err(|e| fail(&csv.display().to_string(), e))
}

/// The packages of the classes in scope.
fn scope_packages(model: &ApiModel) -> BTreeSet<String> {
    model
        .classes
        .keys()
        .map(|c| c.rsplit_once('.').map_or("", |(p, _)| p).to_string())
        .collect()
}

/// Whether the class or package `name` is one of [`UNMEASURED`] or inside one.
pub(crate) fn is_unmeasured(name: &str) -> bool {
    UNMEASURED.iter().any(|u| {
        name.strip_prefix(u)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '$']))
    })
}

/// Copies the class files of `packages` out of the reference's runtime image, with the
/// agent's `difftest.ScopeClasses` run on that runtime.
fn jdk_classes(
    jvm: &JvmSpec,
    packages: &BTreeSet<String>,
    folder: &Path,
) -> Result<PathBuf, Error> {
    let (agent, classes) = (folder.join("agent"), folder.join("classes"));
    crate::agent::install(&agent)
        .map_err(|e| Error::Coverage(format!("{}: {e}", agent.display())))?;
    let mut args: Vec<OsString> = vec!["-cp".into(), agent.clone().into()];
    args.extend(["difftest.ScopeClasses".into(), classes.clone().into()]);
    args.extend(packages.iter().map(OsString::from));
    let copied = jacoco::run_java(&jvm.java_home, &args, folder);
    let _ = std::fs::remove_dir_all(&agent);
    copied.map_err(|e| Error::Coverage(format!("cannot copy the scope's class files: {e}")))?;
    Ok(classes)
}
