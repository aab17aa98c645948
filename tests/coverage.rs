//! `record --coverage` on real JVMs: branch coverage per package that is plausible and
//! follows the scope, a suite byte-identical to the one recorded without it, and damaged
//! JaCoCo jars in the cache refused with one line and exit code 3.

mod common;

use common::support::{assert_exit, difftest, difftest_env, stderr, stdout};
use std::path::Path;

/// `(package, covered, total)` of each line the summary prints under its coverage heading.
fn coverage_rows(out: &str) -> Vec<(String, u64, u64)> {
    let lines = out
        .lines()
        .skip_while(|l| !l.starts_with("branch coverage"));
    lines
        .skip(1)
        .take_while(|l| l.starts_with("  ") && !l.starts_with("  ("))
        .filter(|l| !l.ends_with("not instrumented"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

/// Records `scope` (flags, none for the default scope) on temurin17; its stdout.
fn record(dir: &Path, output: &str, scope: &[&str], extra: &[&str]) -> String {
    let args = [
        "record",
        "--impl",
        "temurin17",
        "--seed",
        "5",
        "--output-limit",
        "150",
        "--reruns",
        "1",
        "--no-progress",
        "--output",
        output,
    ];
    let out = difftest(dir, &[&args[..], scope, extra].concat());
    assert_exit(&out, 0);
    stdout(&out)
}

#[test]
fn coverage_is_plausible_follows_the_scope_and_leaves_the_suite_alone() {
    let dir = tempfile::tempdir().unwrap();
    let text = record(
        dir.path(),
        "a.yaml",
        &["--classes", "java.text.ChoiceFormat"],
        &["--coverage"],
    );
    let rows = coverage_rows(&text);
    assert_eq!(rows.len(), 2, "java.text and the total: {text}");
    let (package, covered, total) = &rows[0];
    assert_eq!(package, "java.text");
    assert!(0 < *covered && covered <= total, "{text}");
    assert!(dir.path().join("a.yaml.coverage/coverage.csv").is_file());

    record(
        dir.path(),
        "b.yaml",
        &["--classes", "java.text.ChoiceFormat"],
        &[],
    );
    let (a, b) = (dir.path().join("a.yaml"), dir.path().join("b.yaml"));
    assert!(
        std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
        "suites differ"
    );

    let other = coverage_rows(&record(
        dir.path(),
        "c.yaml",
        &["--classes", "java.math.BigInteger"],
        &["--coverage"],
    ));
    assert_eq!(other[0].0, "java.math", "{other:?}");
    assert!(0 < other[0].1 && other[0].1 <= other[0].2, "{other:?}");
}

/// The whole default scope is instrumented, `java.lang` included (an empty scope once gave
/// the agent no class to instrument, and `java.lang` was left out), and the suite is still
/// the one recorded without the agent.
#[test]
fn the_default_scope_is_measured_java_lang_included() {
    let dir = tempfile::tempdir().unwrap();
    let text = record(dir.path(), "a.yaml", &[], &["--coverage"]);
    let rows = coverage_rows(&text);
    let reached = |package: &str| {
        rows.iter()
            .any(|(p, c, t)| p == package && 0 < *c && c <= t)
    };
    for package in ["java.util", "java.text", "java.math", "java.lang", "total"] {
        assert!(reached(package), "{package} reached: {text}");
    }
    assert!(
        rows.len() > 20,
        "every package of the default scope: {text}"
    );
    // A rerun in a fresh JVM can weaken an exception message by chance (one JVM leaves a
    // helpful `NullPointerException` text out; README, Limits), in either record: on a
    // difference both are recorded once more, so only a difference that repeats fails.
    let same = |dir: &Path| {
        record(dir, "b.yaml", &[], &[]);
        let (a, b) = (dir.join("a.yaml"), dir.join("b.yaml"));
        std::fs::read(a).unwrap() == std::fs::read(b).unwrap()
    };
    if !same(dir.path()) {
        record(dir.path(), "a.yaml", &[], &["--coverage"]);
        assert!(same(dir.path()), "suites differ, twice");
    }
}

#[test]
fn a_damaged_jacoco_jar_in_the_cache_is_one_line_and_exit_3() {
    let classes = common::compile_fixtures("record");
    let work = tempfile::tempdir().unwrap();
    let (targets, cache) = (work.path().join("targets"), work.path().join("cache"));
    std::fs::create_dir_all(&targets).unwrap();
    let yaml = common::jdk17_target("fix", "record fixtures on JDK 17", classes.path());
    std::fs::write(targets.join("fix.yaml"), yaml).unwrap();
    let run = |output: &str| {
        let args = [
            "--targets-dir",
            targets.to_str().unwrap(),
            "record",
            "--impl",
            "fix",
            "--classes",
            "rec.Account",
            "--output-limit",
            "50",
            "--reruns",
            "1",
            "--no-progress",
            "--output",
            output,
            "--coverage",
        ];
        difftest_env(
            work.path(),
            &args,
            &[("DIFFTEST_CACHE", cache.to_str().unwrap())],
        )
    };
    let first = run("one.yaml");
    assert_exit(&first, 0);
    let rows = coverage_rows(&stdout(&first));
    assert!(
        rows.iter().any(|(p, c, t)| p == "rec" && 0 < *c && c <= t),
        "{rows:?}"
    );

    let jar = walk(&cache.join("maven"), "-runtime.jar").expect("the agent jar in the cache");
    let bytes = std::fs::read(&jar).unwrap();
    std::fs::write(&jar, &bytes[..bytes.len() / 2]).unwrap();
    let out = run("two.yaml");
    assert_exit(&out, 3);
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("JaCoCo") && err.contains(jar.to_str().unwrap()),
        "{err}"
    );
    assert!(
        !work.path().join("two.yaml").exists(),
        "no suite without its coverage"
    );
}

/// The first file under `dir` whose name ends with `suffix`.
fn walk(dir: &Path, suffix: &str) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = walk(&path, suffix) {
                return Some(found);
            }
        } else if path.to_string_lossy().ends_with(suffix) {
            return Some(path);
        }
    }
    None
}
