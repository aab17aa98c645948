//! Classpath faults are never oracles, on a real JVM: a library jar whose dependency jar is
//! missing stops `record` with exit code 3 (or, with `--allow-missing-classes`, leaves the
//! callables that need it out and says how many); a replay on a target lacking the
//! dependency labels the difference `classpath` and exits 3; a linkage error the library
//! makes and throws as a value, a by-name lookup of a missing class, and a static
//! initializer that throws an ordinary exception are behaviour, recorded as such.

mod common;
use common::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{assert_exit, difftest, report_json, stderr, stdout};

/// Builds `classdep.jar` (the dependency) and `classlib.jar` (compiled against it) from
/// `tests/fixtures/classpath`, and writes the targets `withdep` (both jars) and `nodep`
/// (the library alone).
fn setup(work: &Path) -> PathBuf {
    let fixtures = support::repo().join("tests/fixtures/classpath");
    let dep = jar(work, "classdep", &fixtures.join("dep/classdep"), None);
    let lib = jar(work, "classlib", &fixtures.join("lib/classlib"), Some(&dep));
    let targets = work.join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    let jdk = common::jdk17();
    for (name, jars) in [("withdep", vec![&lib, &dep]), ("nodep", vec![&lib])] {
        let mut yaml = format!(
            "name: {name}\ndescription: {name}\njdk:\n  path: {}\nclasspath:\n",
            jdk.display()
        );
        for j in jars {
            yaml.push_str(&format!("  - path: {}\n", j.display()));
        }
        std::fs::write(targets.join(format!("{name}.yaml")), yaml).unwrap();
    }
    targets
}

/// Compiles the sources in `src` (against `dep`) and packs them into `work/NAME.jar`.
fn jar(work: &Path, name: &str, src: &Path, dep: Option<&Path>) -> PathBuf {
    let classes = work.join(format!("classes-{name}"));
    let mut sources: Vec<PathBuf> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    sources.sort();
    let mut javac = Command::new(common::javac());
    javac.args(["--release", "11", "-d"]).arg(&classes);
    if let Some(dep) = dep {
        javac.arg("-cp").arg(dep);
    }
    assert!(
        javac.args(&sources).status().unwrap().success(),
        "{name} compiles"
    );
    let jar = work.join(format!("{name}.jar"));
    let status = Command::new(common::jdk_tool("jar"))
        .arg("cf")
        .arg(&jar)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .status()
        .unwrap();
    assert!(status.success(), "{name}.jar packs");
    jar
}

fn record(
    work: &Path,
    targets: &Path,
    reference: &str,
    class: &str,
    extra: &[&str],
) -> std::process::Output {
    let output = format!("oracles/{reference}.yaml");
    let mut args = vec!["record", "--impl", reference, "--classes", class];
    args.extend([
        "--time-limit",
        "20",
        "--output-limit",
        "50",
        "--reruns",
        "2",
    ]);
    // Small rounds: later rounds build on values earlier ones returned.
    args.extend(["--round-size", "20"]);
    args.extend(["--seed", "1", "--no-progress", "--jobs", "1", "-o", &output]);
    args.extend(["--targets-dir", targets.to_str().unwrap()]);
    args.extend(extra);
    difftest(work, &args)
}

#[test]
fn record_stops_with_exit_3_naming_the_missing_class_and_the_code_that_needed_it() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    let out = record(work.path(), &targets, "nodep", "classlib.Words", &[]);
    assert_exit(&out, 3);
    let err = stderr(&out);
    let last = err.trim().lines().last().unwrap_or("");
    assert!(
        last.contains("classdep.Helper") && last.contains("classlib.Words.loud"),
        "one line naming the missing class and its needer: {err}"
    );
    assert!(last.contains("--allow-missing-classes"), "{last}");
    assert!(
        !work.path().join("oracles/nodep.yaml").exists(),
        "no suite of classpath errors is written"
    );
}

#[test]
fn allow_missing_classes_leaves_the_callables_out_and_says_how_many() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    let extra = ["--allow-missing-classes"];
    let out = record(work.path(), &targets, "nodep", "classlib.Words", &extra);
    assert_exit(&out, 0);
    let said = stdout(&out);
    assert!(
        said.contains(
            "1 callable left out: it needs a class missing from the class path, e.g. classdep.Helper"
        ),
        "{said}"
    );
    let suite = std::fs::read_to_string(work.path().join("oracles/nodep.yaml")).unwrap();
    assert!(!suite.contains("NoClassDefFoundError"), "{suite}");
    assert!(
        !suite.contains("Words.loud("),
        "no test calls the callable left out"
    );
    assert!(suite.contains("Words.twice("), "the rest is still tested");
    // A by-name lookup of a name the test passed is behaviour, not the class path.
    assert!(suite.contains("ClassNotFoundException"), "{suite}");
}

#[test]
fn replay_on_a_target_lacking_a_dependency_is_labelled_classpath_and_exits_3() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    let out = record(work.path(), &targets, "withdep", "classlib.Words", &[]);
    assert_exit(&out, 0);
    let suite = work.path().join("oracles/withdep.yaml");
    let text = std::fs::read_to_string(&suite).unwrap();
    // A linkage error the library made and threw as a value is behaviour, recorded.
    assert!(
        text.lines().any(|l| l.contains("Words.rethrow(")
            && l.contains("throws java.lang.NoSuchMethodError(\"made by the library\")")),
        "{text}"
    );
    let args = [
        "replay",
        "--impl",
        "nodep",
        "--suite",
        suite.to_str().unwrap(),
        "--jobs",
        "1",
        "--targets-dir",
        targets.to_str().unwrap(),
    ];
    let out = difftest(work.path(), &args);
    assert_exit(&out, 3);
    let summary = stdout(&out);
    assert!(
        summary.contains("on a class path lacking classes (missing classdep.Helper"),
        "{summary}"
    );
    let report = report_json(work.path(), "nodep-vs-withdep");
    let groups = report["groups"].as_array().unwrap();
    assert!(!groups.is_empty());
    for g in groups {
        assert_eq!(g["label"], "classpath", "{g}");
        assert_eq!(g["callee"], "classlib.Words.loud(java.lang.String)", "{g}");
    }
    assert_eq!(report["gate"], "fail");
}

#[test]
fn a_static_initializer_that_throws_is_behaviour_recorded_the_same_on_every_use() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    let out = record(
        work.path(),
        &targets,
        "withdep",
        "classlib.Boom",
        &["--keep-all"],
    );
    assert_exit(&out, 0);
    let suite = std::fs::read_to_string(work.path().join("oracles/withdep.yaml")).unwrap();
    let expects: Vec<&str> = suite
        .lines()
        .filter(|l| l.contains("classlib.Boom.plus("))
        .collect();
    // Several tests call it; whichever runs first in a worker, each expects the first
    // use's answer, so the reruns keep them all.
    assert!(expects.len() >= 3, "{suite}");
    for l in expects {
        assert!(
            l.ends_with("throws java.lang.ExceptionInInitializerError"),
            "{l}"
        );
    }
}

#[test]
fn a_class_whose_signature_names_a_missing_class_stops_record_naming_both() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    let out = record(work.path(), &targets, "nodep", "classlib.Signed", &[]);
    assert_exit(&out, 3);
    let err = stderr(&out);
    let last = err.trim().lines().last().unwrap_or("");
    assert!(
        last.contains("classlib.Signed needs classdep.Helper")
            && last.contains("--allow-missing-classes"),
        "one line naming the class and the class it needs: {err}"
    );
}

/// A package tree brings in whatever it holds, and what a library's classes need beyond its
/// resolved dependencies is usually an optional dependency: such a class is left out of
/// scope and counted without `--allow-missing-classes`; record does not stop. (`Words`, whose
/// call fails for a missing class, is omitted: that one stops a record on its own.)
#[test]
fn a_package_tree_leaves_out_a_class_whose_signature_names_a_missing_class_and_says_so() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    let omit = work.path().join("omit.txt");
    std::fs::write(&omit, "classlib.Words\n").unwrap();
    let args = [
        "record",
        "--impl",
        "nodep",
        "--packages",
        "classlib",
        "--omit",
        omit.to_str().unwrap(),
        "--time-limit",
        "20",
        "--output-limit",
        "30",
        "--seed",
        "1",
        "--no-progress",
        "--jobs",
        "1",
        "-o",
        "oracles/tree.yaml",
        "--targets-dir",
        targets.to_str().unwrap(),
    ];
    let out = difftest(work.path(), &args);
    assert_exit(&out, 0);
    assert!(
        stdout(&out).contains("1 class left out of scope")
            && stdout(&out).contains("classlib.Signed (needs classdep.Helper)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn allow_missing_classes_says_which_classes_left_the_scope_and_v_lists_them() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    let output = "oracles/nodep.yaml";
    let args = [
        "record",
        "--impl",
        "nodep",
        "--packages",
        "classlib",
        "--allow-missing-classes",
        "-v",
        "--time-limit",
        "20",
        "--output-limit",
        "30",
        "--seed",
        "1",
        "--no-progress",
        "--jobs",
        "1",
        "-o",
        output,
        "--targets-dir",
        targets.to_str().unwrap(),
    ];
    let out = difftest(work.path(), &args);
    assert_exit(&out, 0);
    let said = stdout(&out);
    assert!(
        said.contains(
            "1 class left out of scope: it or its public signatures need a class missing from \
             the class path, e.g. classlib.Signed (needs classdep.Helper)"
        ),
        "{said}"
    );
    assert!(
        stderr(&out).contains("left out of scope: classlib.Signed (needs classdep.Helper)"),
        "-v lists them: {}",
        stderr(&out)
    );
    let suite = std::fs::read_to_string(work.path().join(output)).unwrap();
    assert!(!suite.contains("classlib.Signed"), "{suite}");
    assert!(suite.contains("classlib.Words"), "the rest is still tested");
}
