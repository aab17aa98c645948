//! The whole pipeline on `examples/fixture-lib`: record on release 1, replay on release 2.
//! The replay must report the injected regressions — and nothing else: not the unchanged
//! `Counter`, not the nondeterministic `ticket()`.

mod common;
use common::support;

use std::collections::BTreeSet;
use std::path::Path;
use support::{difftest, report_json, stderr, stdout};

/// Compiles both releases and writes the targets `lib-v1` and `lib-v2`.
fn setup(work: &Path) {
    let targets = work.join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    for v in ["v1", "v2"] {
        let src = support::repo()
            .join("examples/fixture-lib")
            .join(v)
            .join("example/lib");
        let mut sources: Vec<_> = std::fs::read_dir(&src)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        sources.sort();
        let out = work.join(format!("classes-{v}"));
        let status = std::process::Command::new(common::javac())
            .args(["--release", "11", "-d"])
            .arg(&out)
            .args(&sources)
            .status()
            .expect("javac runs");
        assert!(status.success(), "{v} compiles");
        let yaml = common::jdk17_target(&format!("lib-{v}"), &format!("fixture library {v}"), &out);
        std::fs::write(targets.join(format!("lib-{v}.yaml")), yaml).unwrap();
    }
}

#[test]
fn record_on_release_1_and_replay_on_release_2_finds_every_injected_regression() {
    let work = tempfile::tempdir().unwrap();
    setup(work.path());
    let targets = work.path().join("targets");
    let targets = targets.to_str().unwrap();
    let common = ["--targets-dir", targets, "--timeout", "2", "--jobs", "2"];
    let mut record = vec!["record", "--impl", "lib-v1", "--packages", "example.lib"];
    record.extend([
        "--time-limit",
        "15",
        "--output-limit",
        "600",
        "--reruns",
        "3",
    ]);
    record.extend(["--seed", "5", "--no-progress", "-o", "oracles/lib-v1.yaml"]);
    record.extend(common);
    let out = difftest(work.path(), &record);
    assert!(out.status.success(), "{}", stderr(&out));
    let suite = std::fs::read_to_string(work.path().join("oracles/lib-v1.yaml")).unwrap();
    assert!(
        !suite
            .lines()
            .any(|l| l.contains(".ticket()  //") && !l.ends_with("// varies")),
        "nanoTime values were dropped as unstable"
    );

    let mut replay = vec!["replay", "--impl", "lib-v2"];
    replay.extend(common);
    let out = difftest(work.path(), &replay);
    support::assert_exit(&out, 1);
    let report = report_json(work.path(), "lib-v2-vs-lib-v1");
    let found: BTreeSet<(String, String)> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["status"] == "new")
        .map(|g| {
            (
                g["callee"].as_str().unwrap().into(),
                g["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    let c = "example.lib.Calculator";
    let expected = [
        (format!("{c}.greet(java.lang.String)"), "value"),
        (format!("{c}.divide(int,int)"), "exception_class"),
        (format!("{c}.clamp(int,int,int)"), "normal_vs_exception"),
        (format!("{c}.legacyName()"), "missing"),
        (format!("{c}.twice(int)"), "timeout"),
        (format!("{c}.checked(int)"), "crash"),
    ];
    for (callee, kind) in &expected {
        assert!(
            found.contains(&(callee.clone(), kind.to_string())),
            "{callee} {kind} not found in {found:?}\n{}",
            stdout(&out)
        );
    }
    let injected: BTreeSet<&str> = expected.iter().map(|(c, _)| c.as_str()).collect();
    for (callee, kind) in &found {
        assert!(
            injected.contains(callee.as_str()),
            "unexpected group {callee} {kind}"
        );
    }
}

/// `compare` runs both directions: what changed, the removed `legacyName()` and the
/// `negate(int)` that only release 2 has, read from release 1 to release 2.
#[test]
fn compare_reports_changes_added_and_removed_api_from_one_release_to_the_next() {
    let work = tempfile::tempdir().unwrap();
    setup(work.path());
    let targets = work.path().join("targets");
    let mut args = vec!["--targets-dir", targets.to_str().unwrap()];
    args.extend(["compare", "--impl", "lib-v1,lib-v2", "--"]);
    args.extend(["--packages", "example.lib", "--time-limit", "15"]);
    args.extend(["--output-limit", "600", "--reruns", "2", "--seed", "5"]);
    args.extend(["--no-progress", "--timeout", "2", "--jobs", "2"]);
    let out = difftest(work.path(), &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let log = stderr(&out);
    assert!(
        !log.contains("replaying on") && !log.contains("generating:"),
        "{log}"
    );
    assert!(
        stdout(&out).contains("lib-v1 -> lib-v2:"),
        "{}",
        stdout(&out)
    );
    let path = work.path().join("reports/compare-lib-v1-to-lib-v2.json");
    let text = std::fs::read_to_string(&path).expect("compare JSON written");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let callees = |key: &str| -> Vec<String> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["callee"].as_str().unwrap().to_string())
            .collect()
    };
    let c = "example.lib.Calculator";
    assert_eq!(callees("added"), [format!("{c}.negate(int)")]);
    assert_eq!(callees("removed"), [format!("{c}.legacyName()")]);
    let greet = json["changed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["callee"] == format!("{c}.greet(java.lang.String)").as_str())
        .expect("greet changed");
    let after = greet["after"].as_str().unwrap();
    assert!(after.contains("\\u202F"), "read from v1 to v2: {after}");
    assert!(work.path().join("oracles/lib-v2.yaml").exists());
    assert!(work.path().join("reports/lib-v1-vs-lib-v2.json").exists());
    let out = difftest(work.path(), &["compare", "--impl", "lib-v1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `compare` reads its record flags once and checks both suite files before the first
/// record: B's suite path being a folder is exit 2 at once, with no record run on A.
#[test]
fn compare_refuses_an_unwritable_second_suite_before_recording_the_first() {
    let work = tempfile::tempdir().unwrap();
    setup(work.path());
    std::fs::create_dir_all(work.path().join("oracles/lib-v2.yaml")).unwrap();
    let targets = work.path().join("targets");
    let mut args = vec!["--targets-dir", targets.to_str().unwrap()];
    args.extend(["compare", "--impl", "lib-v1,lib-v2", "--"]);
    args.extend(["--packages", "example.lib", "--time-limit", "15"]);
    args.extend(["--output-limit", "100", "--seed", "5", "--no-progress"]);
    let out = difftest(work.path(), &args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("lib-v2.yaml: is a folder, not a suite file"),
        "{}",
        stderr(&out)
    );
    assert!(
        !work.path().join("oracles/lib-v1.yaml").exists(),
        "no record ran on lib-v1"
    );
}
