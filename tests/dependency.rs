//! A dependency that changed version is a cause of its own, on a real JVM and real mvn: two
//! releases of a fixture library whose `pom.xml` names other versions of two dependencies
//! (served from a file repository the test writes). The difference the dependency's new
//! version makes (it throws its own exception) is the `dependency` row, the library's own
//! change stays a row of its own, and the dependency the library never calls is a row with
//! no tests that, once the rest is accepted, does not fail the gate.

mod common;
use common::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{assert_exit, difftest_env, report_json, stderr, stdout};

const GROUP: &str = "org.example.difftest";

/// Compiles `src` (against `dep`) into `out`.
fn jar(work: &Path, src: &Path, dep: Option<&Path>, out: &Path) {
    let classes = work.join(format!(
        "classes-{}",
        out.file_name().unwrap().to_string_lossy()
    ));
    let sources = java_files(src);
    let mut javac = Command::new(common::javac());
    javac.args(["--release", "11", "-d"]).arg(&classes);
    if let Some(dep) = dep {
        javac.arg("-cp").arg(dep);
    }
    assert!(
        javac.args(&sources).status().unwrap().success(),
        "{src:?} compiles"
    );
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let status = Command::new(common::jdk_tool("jar"))
        .arg("cf")
        .arg(out)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .status()
        .unwrap();
    assert!(status.success(), "{out:?} packs");
}

/// The `.java` files under `dir`, sorted.
fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(java_files(&path));
        } else if path.extension().is_some_and(|e| e == "java") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Puts `src` as `GROUP:artifact:version` into the file repository `repo`.
fn publish(work: &Path, repo: &Path, artifact: &str, version: &str, src: &Path) -> PathBuf {
    let dir = repo
        .join(GROUP.replace('.', "/"))
        .join(artifact)
        .join(version);
    let file = dir.join(format!("{artifact}-{version}.jar"));
    jar(work, src, None, &file);
    let pom = format!(
        "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>\
         <groupId>{GROUP}</groupId><artifactId>{artifact}</artifactId><version>{version}</version></project>\n"
    );
    std::fs::write(dir.join(format!("{artifact}-{version}.pom")), pom).unwrap();
    file
}

/// The project folder of library release `release` (its jar and its `pom.xml`, which
/// names `fixdep` and `fixquiet` at `dep`), and its target file `lib-RELEASE`.
fn release(work: &Path, repo: &Path, targets: &Path, release: &str, dep: &str, lib: &Path) {
    let fixtures = support::repo().join("tests/fixtures/depchange");
    let project = work.join(format!("lib-{release}"));
    let dep_jar = repo.join(format!(
        "org/example/difftest/fixdep/{dep}/fixdep-{dep}.jar"
    ));
    let lib_jar = project.join(format!("fixlib-{release}.jar"));
    jar(work, &fixtures.join(lib), Some(&dep_jar), &lib_jar);
    let dependency = |a: &str| {
        format!(
            "<dependency><groupId>{GROUP}</groupId><artifactId>{a}</artifactId><version>{dep}</version></dependency>"
        )
    };
    let pom = format!(
        "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>\
         <groupId>{GROUP}</groupId><artifactId>fixlib</artifactId><version>{release}</version>\
         <repositories><repository><id>difftest-fixture</id><url>file://{}</url></repository></repositories>\
         <dependencies>{}{}</dependencies></project>\n",
        repo.display(),
        dependency("fixdep"),
        dependency("fixquiet"),
    );
    std::fs::write(project.join("pom.xml"), pom).unwrap();
    let yaml = format!(
        "name: lib-{release}\ndescription: fixlib {release}\njdk:\n  path: {}\nclasspath:\n  - path: {}\n  - pom: {}\n",
        common::jdk17().display(),
        lib_jar.display(),
        project.join("pom.xml").display()
    );
    std::fs::write(targets.join(format!("lib-{release}.yaml")), yaml).unwrap();
}

/// Targets `lib-1.0` (fixdep and fixquiet 1.0) and `lib-1.1` (both 2.0, and `count` changed).
fn setup(work: &Path) -> PathBuf {
    let fixtures = support::repo().join("tests/fixtures/depchange");
    let repo = work.join("repo");
    publish(work, &repo, "fixdep", "1.0", &fixtures.join("dep-1"));
    publish(work, &repo, "fixdep", "2.0", &fixtures.join("dep-2"));
    publish(work, &repo, "fixquiet", "1.0", &fixtures.join("quiet"));
    publish(work, &repo, "fixquiet", "2.0", &fixtures.join("quiet"));
    let targets = work.join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    release(work, &repo, &targets, "1.0", "1.0", Path::new("lib-1"));
    release(work, &repo, &targets, "1.1", "2.0", Path::new("lib-2"));
    targets
}

/// `difftest ARGS` with the targets of `setup` and a cache of the test's own.
fn run(work: &Path, args: &[&str]) -> std::process::Output {
    let targets = work.join("targets");
    let cache = work.join("cache");
    let mut all = args.to_vec();
    all.extend(["--targets-dir", targets.to_str().unwrap()]);
    difftest_env(work, &all, &[("DIFFTEST_CACHE", cache.to_str().unwrap())])
}

fn replay(work: &Path) -> std::process::Output {
    run(
        work,
        &[
            "replay",
            "--impl",
            "lib-1.1",
            "--suite",
            "oracles/old.yaml",
            "--jobs",
            "1",
        ],
    )
}

fn report_causes(work: &Path) -> Vec<serde_json::Value> {
    let report = report_json(work, "lib-1.1-vs-lib-1.0");
    report["causes"].as_array().unwrap().clone()
}

#[test]
fn a_changed_dependency_is_a_cause_of_its_own_and_a_quiet_one_does_not_fail_the_gate() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    setup(work);
    let record = [
        "record",
        "--impl",
        "lib-1.0",
        "--time-limit",
        "10",
        "--output-limit",
        "200",
        "--seed",
        "1",
        "--no-progress",
        "--jobs",
        "1",
        "-o",
        "oracles/old.yaml",
    ];
    let out = run(work, &record);
    assert_exit(&out, 0);
    let suite = std::fs::read_to_string(work.join("oracles/old.yaml")).unwrap();
    assert!(
        suite.contains("fixdep:1.0"),
        "the suite names the dependency: {suite}"
    );

    let out = replay(work);
    assert_exit(&out, 1);
    let table = stdout(&out);
    let causes = report_causes(work);
    let row = |change: &str| {
        causes
            .iter()
            .find(|c| c["change"] == change)
            .unwrap_or_else(|| panic!("a row `{change}`: {table}"))
            .clone()
    };
    let dep = row("org.example.difftest:fixdep 1.0 → 2.0");
    assert_eq!(dep["label"], "dependency", "{dep}");
    assert_eq!(dep["status"], "new", "{dep}");
    assert!(dep["tests"].as_u64().unwrap() > 0, "{dep}");
    let callees: Vec<&str> = dep["callees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["callee"].as_str().unwrap())
        .collect();
    assert_eq!(callees, ["fixlib.Text.checked(java.lang.String)"], "{dep}");
    assert!(
        table.contains("dependency: org.example.difftest:fixdep 1.0 → 2.0"),
        "{table}"
    );

    let quiet = row("org.example.difftest:fixquiet 1.0 → 2.0");
    assert_eq!(quiet["label"], "dependency", "{quiet}");
    assert_eq!(quiet["tests"], 0, "{quiet}");
    assert_eq!(quiet["status"], "shown", "no test: not a failure by itself");

    let own: Vec<&serde_json::Value> = causes
        .iter()
        .filter(|c| c["label"] != "dependency")
        .collect();
    assert!(
        !own.is_empty()
            && own
                .iter()
                .all(|c| c["callees"][0]["callee"] == "fixlib.Text.count(java.lang.String)"),
        "the library's own change keeps its own row: {table}"
    );

    // Accept every new row; the quiet dependency row alone then passes the gate.
    for c in causes.iter().filter(|c| c["status"] == "new") {
        let id = c["id"].as_str().unwrap();
        let out = run(work, &["accept", id, "--reason", "reviewed"]);
        assert_exit(&out, 0);
    }
    let out = replay(work);
    assert_exit(&out, 0);
    let after = report_causes(work);
    let dep = after.iter().find(|c| c["id"] == dep["id"]).unwrap();
    assert_eq!(dep["status"], "accepted", "{dep}; {}", stderr(&out));
    let quiet = after.iter().find(|c| c["id"] == quiet["id"]).unwrap();
    assert_eq!(quiet["status"], "shown", "{quiet}");
}
