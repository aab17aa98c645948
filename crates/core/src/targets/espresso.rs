//! Espresso targets: the jars of GraalVM's Java on Truffle (the polyglot API, the Espresso
//! language and their dependencies, from Maven Central) fetched into the cache, the
//! polyglot resource cache unpacked once at install time, and the fingerprint of the
//! *guest*, read by starting a context on the guest's class library.
//!
//! ```text
//! <cache>/espresso/<hash of the coordinates>/lib/*.jar        the closure, complete once `complete` exists
//! <cache>/espresso/<hash>/resources/                          -Dpolyglot.engine.userResourceCache
//! <cache>/espresso/<hash>/fingerprint-<target>.yaml            the guest's fingerprint
//! ```
//!
//! The resources are unpacked before any worker runs: workers cannot write there (sandbox).

use super::cache::CacheLayout;
use super::error::TargetError;
use super::fingerprint::{self, Fingerprint, Record, Stamp};
use super::maven::MavenCoordinate;
use super::provision::Located;
use super::spec::EspressoSpec;
use super::tools;
use crate::hash::fnv1a64;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) use difftest_protocol::jvm::EspressoRuntime;

/// The folder of one set of coordinates.
fn folder(layout: &CacheLayout, e: &EspressoSpec) -> PathBuf {
    let key: Vec<String> = e.maven.iter().map(|c| c.to_string()).collect();
    let hash = fnv1a64(format!("espresso\0{}", key.join("\0")).as_bytes());
    layout.root().join("espresso").join(format!("{hash:016x}"))
}

fn record_file(dir: &Path, target: &str) -> PathBuf {
    dir.join(format!("fingerprint-{target}.yaml"))
}

/// The runtime and guest fingerprint if everything is in place; reads only.
pub(crate) fn ready(
    layout: &CacheLayout,
    target: &str,
    e: &EspressoSpec,
    host: &Located,
    guest_home: &Path,
) -> Option<(EspressoRuntime, Fingerprint)> {
    let dir = folder(layout, e);
    if !dir.join("complete").is_file() {
        return None;
    }
    let record = fingerprint::read_record(&record_file(&dir, target))
        .filter(|r| r.is_fresh(guest_home, &host.libjvm) && r.is_complete())?;
    Some((runtime(&dir, guest_home).ok()?, record.fingerprint))
}

/// Fetches the closure and measures the guest's fingerprint where missing. Call with the
/// target's lock held.
pub(crate) fn ensure(
    layout: &CacheLayout,
    target: &str,
    e: &EspressoSpec,
    host: &Located,
    guest_home: &Path,
    echo: bool,
) -> Result<(EspressoRuntime, Fingerprint), TargetError> {
    if let Some(done) = ready(layout, target, e, host, guest_home) {
        return Ok(done);
    }
    let dir = folder(layout, e);
    if !dir.join("complete").is_file() {
        fetch_closure(layout, target, &e.maven, &dir, echo)?;
    }
    let runtime = runtime(&dir, guest_home)?;
    if echo {
        eprintln!(
            "{target}: starting Espresso once (unpacks its resources, reads the guest's fingerprint)"
        );
    }
    let (mut fingerprint, vm_version) = probe(layout, target, host, &runtime)?;
    // The data (time zones, CLDR, Unicode) are the guest library's: read them with its own JVM.
    let guest_libjvm = guest_home.join(super::spec::DEFAULT_LIBJVM);
    fingerprint.data_versions = Some(super::data::read(guest_home, &guest_libjvm));
    let stamp = Stamp::of(&host.libjvm).ok_or_else(|| TargetError::LibjvmMissing {
        target: target.to_string(),
        path: host.libjvm.clone(),
    })?;
    let record = Record {
        fingerprint: fingerprint.clone(),
        vm_version,
        java_home: guest_home.to_path_buf(),
        libjvm: host.libjvm.clone(),
        libjvm_stamp: stamp,
        cds: None,
        options: Vec::new(),
    };
    fingerprint::write_record(&record_file(&dir, target), &record)?;
    Ok((runtime, fingerprint))
}

fn runtime(dir: &Path, guest_home: &Path) -> Result<EspressoRuntime, TargetError> {
    let lib = dir.join("lib");
    let entries = std::fs::read_dir(&lib).map_err(|e| TargetError::io("cannot read", &lib, e))?;
    let mut jars: Vec<PathBuf> = entries
        .flatten()
        .map(|d| d.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jar"))
        .collect();
    jars.sort();
    Ok(EspressoRuntime {
        guest_home: guest_home.to_path_buf(),
        jars,
        resource_cache: dir.join("resources"),
    })
}

/// `mvn dependency:copy-dependencies` on a generated pom that depends on `coords`.
fn fetch_closure(
    layout: &CacheLayout,
    target: &str,
    coords: &[MavenCoordinate],
    dir: &Path,
    echo: bool,
) -> Result<(), TargetError> {
    if !tools::on_path("mvn") {
        return Err(TargetError::ToolMissing {
            target: target.to_string(),
            tool: "mvn",
            purpose: "fetch the Espresso artifacts",
        });
    }
    let listed: Vec<String> = coords.iter().map(|c| c.to_string()).collect();
    if echo {
        eprintln!(
            "provisioning {target}: fetching {} and their dependencies with mvn",
            listed.join(", ")
        );
    }
    let work = tools::temp_dir_in(&layout.tmp(), target)?;
    let pom = work.path().join("pom.xml");
    crate::atomic::write(&pom, crate::targets::closure::pom(coords))
        .map_err(|e| TargetError::io("cannot write", &pom, e))?;
    let lib = work.path().join("lib");
    let mut cmd = Command::new("mvn");
    cmd.args([
        "-B",
        "-q",
        "-Dstyle.color=never",
        "dependency:copy-dependencies",
    ])
    .arg(format!("-DoutputDirectory={}", lib.display()))
    .current_dir(work.path());
    let out = tools::capture(&mut cmd).map_err(|e| TargetError::io("cannot run", "mvn", e))?;
    if !out.status.success() || !lib.is_dir() {
        return Err(TargetError::Maven {
            target: target.to_string(),
            coordinate: listed.join(", "),
            detail: out.last_line(),
        });
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| TargetError::io("cannot create", dir, e))?;
    let dest = dir.join("lib");
    std::fs::rename(&lib, &dest)
        .map_err(|e| TargetError::io("cannot move into place", &dest, e))?;
    let marker = dir.join("complete");
    crate::atomic::write(&marker, listed.join("\n") + "\n")
        .map_err(|e| TargetError::io("cannot write", &marker, e))
}

/// Starts a context with plain `java` (no sandbox, so the resources get unpacked) and reads
/// the guest's properties.
fn probe(
    layout: &CacheLayout,
    target: &str,
    host: &Located,
    rt: &EspressoRuntime,
) -> Result<(Fingerprint, String), TargetError> {
    let broken = |detail: String| TargetError::JavaBroken {
        target: target.to_string(),
        java: host.java_home.join("bin/java"),
        detail,
    };
    let agent = tools::temp_dir_in(&layout.tmp(), target)?;
    crate::agent::install(agent.path())
        .map_err(|e| TargetError::io("cannot write the agent to", agent.path(), e))?;
    let mut cp = vec![agent.path().to_path_buf()];
    cp.extend(rt.jars.iter().cloned());
    let cp = std::env::join_paths(&cp).map_err(|e| broken(e.to_string()))?;
    let mut cmd = super::launcher::java_command(&host.java_home, &host.libjvm);
    cmd.args(rt.host_options())
        .arg(format!(
            "-Ddifftest.guest.classpath={}",
            agent.path().display()
        ))
        .arg("-cp")
        .arg(cp)
        .arg("difftest.EspressoHost")
        .arg(&rt.guest_home);
    let out = tools::capture(&mut cmd).map_err(|e| broken(e.to_string()))?;
    let json = out
        .text
        .lines()
        .find(|l| l.starts_with("{\"java.version\""));
    match json {
        Some(line) if out.status.success() => parse_probe(line).map_err(broken),
        _ => Err(broken(format!(
            "{}: {}",
            tools::status_text(&out.status),
            out.last_line()
        ))),
    }
}

/// The fingerprint and `java.vm.version` from the probe's JSON line of properties.
fn parse_probe(line: &str) -> Result<(Fingerprint, String), String> {
    let props: BTreeMap<String, String> =
        serde_json::from_str(line).map_err(|e| format!("unreadable guest properties: {e}"))?;
    let get = |k: &str| props.get(k).cloned().ok_or(format!("the guest has no {k}"));
    super::fingerprint::from_properties(get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pom_lists_each_coordinate_with_its_type() {
        let c = |s: &str| MavenCoordinate::parse(s).unwrap();
        let pom = crate::targets::closure::pom(&[c("g:a:1"), c("h:b:2:pom")]);
        assert!(pom.contains(
            "<groupId>g</groupId><artifactId>a</artifactId><version>1</version><type>jar</type>"
        ));
        assert!(pom.contains("<artifactId>b</artifactId><version>2</version><type>pom</type>"));
    }

    #[test]
    fn the_probe_line_gives_the_guest_fingerprint() {
        let line = r#"{"java.version":"21.0.8","java.vendor":"Eclipse Adoptium","java.vm.name":"Espresso 64-Bit VM","java.runtime.version":"21.0.8+9-LTS","java.vm.version":"21-espresso-snapshot"}"#;
        let (fp, vm) = parse_probe(line).unwrap();
        assert_eq!(
            fp.one_line(),
            "21.0.8+9-LTS Eclipse Adoptium Espresso 64-Bit VM"
        );
        assert_eq!(vm, "21-espresso-snapshot");
        assert!(parse_probe("{}").unwrap_err().contains("java.version"));
    }
}
