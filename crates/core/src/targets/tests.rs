//! Unit tests of `TargetStore`: listing and loading, status, and provisioning a `path:`
//! target (the machine's JDK 17, found as the `system` target finds a JDK, else the one the
//! shipped `openjdk17` target names) — idempotence, speed of the second run, and several
//! threads provisioning at once.

use super::spec::JdkSource;
use super::*;
use std::collections::BTreeMap;
use std::time::Instant;

fn store_with(files: &[(&str, &str)]) -> (tempfile::TempDir, TargetStore) {
    let dir = tempfile::tempdir().unwrap();
    let targets = dir.path().join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    for (name, text) in files {
        std::fs::write(targets.join(name), text).unwrap();
    }
    let mut store = TargetStore::new(Some(targets), Some(dir.path().join("cache"))).unwrap();
    store.set_progress(false);
    (dir, store)
}

/// A JDK 17 with a server VM: `$JAVA_HOME` or the `java` on PATH (as the `system` target
/// finds one) when that is a 17, else the JDK the shipped `openjdk17` target names; none,
/// after saying the test is skipped, when neither is there.
fn jdk17() -> Option<PathBuf> {
    let shipped = source_root().join("targets/openjdk17.yaml");
    let shipped = match spec::load_file(&shipped, "openjdk17").map(|s| s.jdk) {
        Ok(JdkSource::Path { home }) => Some(home),
        _ => None,
    };
    let candidates = [provision::system_home("test").ok(), shipped];
    let found = candidates.iter().flatten().find(|home| {
        let release = std::fs::read_to_string(home.join("release")).unwrap_or_default();
        release.lines().any(|l| l.starts_with("JAVA_VERSION=\"17."))
            && home.join("lib/server/libjvm.so").is_file()
    });
    if found.is_none() {
        eprintln!("skipped: no JDK 17 with a server VM at {candidates:?}");
    }
    found.cloned()
}

fn path_target(name: &str, home: &Path) -> String {
    let home = home.display();
    format!("name: {name}\njdk:\n  path: {home}\njvm_options: [-Xss4m]\n")
}

#[test]
fn names_are_sorted_yaml_stems() {
    let sys = "name: x\njdk: { system: true }\n";
    let (_d, store) = store_with(&[
        ("b.yaml", sys),
        ("a.yaml", sys),
        ("README.md", "#"),
        (".h.yaml", sys),
    ]);
    assert_eq!(store.names().unwrap(), ["a", "b"]);
}

#[test]
fn unknown_target_lists_the_known_ones() {
    let sys = "name: x\njdk: { system: true }\n";
    let (_d, store) = store_with(&[("alpha.yaml", sys), ("beta.yaml", sys)]);
    let msg = store.load("gamma").unwrap_err().to_string();
    assert!(msg.contains("unknown target 'gamma'"), "{msg}");
    assert!(msg.ends_with("known targets: alpha, beta"), "{msg}");
    let bad = store.load("../etc/passwd").unwrap_err().to_string();
    assert!(!bad.is_empty());
    assert!(matches!(
        store.load("a b"),
        Err(TargetError::InvalidName { .. })
    ));
}

#[test]
fn a_target_can_be_loaded_by_path() {
    let (d, store) = store_with(&[("sys.yaml", "name: sys\njdk: { system: true }\n")]);
    let file = d.path().join("targets/sys.yaml");
    assert_eq!(store.load(&file.to_string_lossy()).unwrap().name, "sys");
}

#[test]
fn missing_targets_dir_is_an_error() {
    let err = TargetStore::new(Some("/nonexistent/targets".into()), Some("/tmp/c".into()));
    assert!(matches!(err, Err(TargetError::TargetsDirMissing(_))));
}

#[test]
fn missing_libjvm_names_target_and_path() {
    let (d, store) = store_with(&[]);
    let home = d.path().join("fakejdk");
    std::fs::create_dir_all(&home).unwrap();
    let text = format!("name: fake\njdk: {{ path: {} }}\n", home.display());
    std::fs::write(store.targets_dir().join("fake.yaml"), text).unwrap();
    let spec = store.load("fake").unwrap();
    let status = store.status(&spec);
    assert!(!status.installed);
    assert!(
        status.summary().contains("no JVM library"),
        "{}",
        status.summary()
    );
    let msg = store.provision(&spec).unwrap_err().to_string();
    assert!(
        msg.starts_with("target 'fake': no JVM library at "),
        "{msg}"
    );
    assert!(msg.ends_with("fakejdk/lib/server/libjvm.so"), "{msg}");
}

#[test]
fn path_target_provisions_once_then_is_a_fast_no_op() {
    let Some(jdk) = jdk17() else {
        return;
    };
    let (_d, store) = store_with(&[("deb.yaml", &path_target("deb", &jdk))]);
    let spec = store.load("deb").unwrap();
    let before = store.status(&spec);
    assert!(
        before.installed && before.fingerprint.is_none(),
        "{before:?}"
    );

    let first = store.provision(&spec).unwrap();
    assert_eq!(first.fingerprint.java_version.split('.').next(), Some("17"));
    assert_eq!(first.jvm.libjvm, jdk.join("lib/server/libjvm.so"));
    assert_eq!(first.jvm.options.first().map(String::as_str), Some("-Xrs"));
    assert_eq!(first.jvm.options.last().map(String::as_str), Some("-Xss4m"));
    assert_eq!(first.jvm.env["TZ"], "UTC");
    let record = store.cache_dir().join("fingerprints/deb.yaml");
    let written = std::fs::metadata(&record).unwrap().modified().unwrap();

    let start = Instant::now();
    let second = store.provision(&spec).unwrap();
    let took = start.elapsed();
    assert_eq!(second.jvm, first.jvm);
    assert_eq!(second.fingerprint, first.fingerprint);
    assert!(took.as_millis() < 50, "second provision took {took:?}");
    assert_eq!(
        std::fs::metadata(&record).unwrap().modified().unwrap(),
        written
    );

    let after = store.status(&spec);
    assert_eq!(after.fingerprint.as_ref(), Some(&first.fingerprint));
    assert!(after.problem.is_none(), "{after:?}");
}

#[test]
fn concurrent_provisioning_is_safe() {
    let Some(jdk) = jdk17() else {
        return;
    };
    let (_d, store) = store_with(&[("deb.yaml", &path_target("deb", &jdk))]);
    let spec = store.load("deb").unwrap();
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| store.provision(&spec))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let fingerprints: Vec<_> = results
        .into_iter()
        .map(|r| r.unwrap().fingerprint)
        .collect();
    assert!(fingerprints.windows(2).all(|w| w[0] == w[1]));
    assert!(store.cache_dir().join("locks/deb.lock").is_file());
}

#[test]
fn missing_classpath_path_is_reported() {
    let Some(jdk) = jdk17() else {
        return;
    };
    let text = format!(
        "{}classpath:\n  - path: nope.jar\n",
        path_target("cp", &jdk)
    );
    let (_d, store) = store_with(&[("cp.yaml", &text)]);
    let spec = store.load("cp").unwrap();
    assert!(!store.status(&spec).installed);
    let msg = store.provision(&spec).unwrap_err().to_string();
    assert!(
        msg.contains("classpath entry") && msg.contains("nope.jar"),
        "{msg}"
    );
}

#[test]
fn class_path_option_joins_entries() {
    let mut jvm = JvmSpec {
        java_home: "/j".into(),
        libjvm: "/j/lib/server/libjvm.so".into(),
        options: vec![],
        classpath: vec![],
        env: BTreeMap::new(),
        espresso: None,
        clock_shift_ms: 0,
        clock_rate: 0,
        timeout: None,
    };
    assert_eq!(jvm.class_path_option(), None);
    jvm.classpath = vec!["/a.jar".into(), "/b".into()];
    assert_eq!(
        jvm.class_path_option().as_deref(),
        Some("-Djava.class.path=/a.jar:/b")
    );
}
