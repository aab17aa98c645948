//! The binary's contract with its users: bad input gets one line naming the culprit and
//! exit code 2; `targets` commands work on the shipped targets.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn difftest(args: &[&str], targets_dir: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
    cmd.args(args);
    if let Some(dir) = targets_dir {
        cmd.arg("--targets-dir").arg(dir);
    }
    cmd.output().expect("difftest runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_bad_target_file_exits_2_and_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("broken.yaml"),
        "name: broken\ndescription: x\njdk:\n  path: /nowhere\nflavour: vanilla\n",
    )
    .unwrap();
    let out = difftest(&["targets", "check", "broken"], Some(dir.path()));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("broken.yaml:5"), "{err}");
    assert!(err.contains("flavour"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
}

#[test]
fn a_jdk_without_libjvm_exits_2_and_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("fake-jdk");
    std::fs::create_dir_all(home.join("bin")).unwrap();
    let yaml = format!(
        "name: fake\ndescription: x\njdk:\n  path: {}\n",
        home.display()
    );
    std::fs::write(dir.path().join("fake.yaml"), yaml).unwrap();
    let out = difftest(&["targets", "check", "fake"], Some(dir.path()));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("libjvm.so"), "{}", stderr(&out));
}

#[test]
fn an_unknown_target_exits_2_and_lists_the_known_ones() {
    let out = difftest(&["targets", "check", "temurin99"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("temurin17"), "{}", stderr(&out));
}

#[test]
fn a_mistyped_target_is_answered_with_the_nearest_name() {
    let out = difftest(&["targets", "check", "temurin71"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("did you mean 'temurin17'?"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    let out = difftest(&["targets", "check", "graalvm99"], None);
    assert!(!stderr(&out).contains("did you mean"), "{}", stderr(&out));
}

#[test]
fn replay_without_a_suite_says_how_to_record_one() {
    let dir = tempfile::tempdir().unwrap();
    let replay = |dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_difftest"))
            .current_dir(dir)
            .args(["replay", "--impl", "temurin21"])
            .output()
            .expect("difftest runs")
    };
    for with_oracles in [false, true] {
        if with_oracles {
            std::fs::create_dir(dir.path().join("oracles")).unwrap();
        }
        let out = replay(dir.path());
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("difftest record --impl"), "{err}");
        assert!(err.contains("--suite"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    }
}

#[test]
fn an_invalid_jvm_option_exits_2_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("opt.yaml"),
        "name: opt\ndescription: x\njdk:\n  system: true\njvm_options: [Xmx1g]\n",
    )
    .unwrap();
    let out = difftest(&["targets", "check", "opt"], Some(dir.path()));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("Xmx1g"), "{}", stderr(&out));
}

#[test]
fn zero_jobs_is_rejected_by_flag_name() {
    let out = difftest(&["targets", "check", "openjdk17", "--jobs", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--jobs"), "{}", stderr(&out));
}

#[test]
fn an_unknown_class_in_scope_exits_2_and_names_it() {
    let out = difftest(
        &[
            "targets",
            "check",
            "openjdk17",
            "--classes",
            "java.util.Nope",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("java.util.Nope"), "{}", stderr(&out));
}

#[test]
fn targets_list_shows_every_shipped_target() {
    let out = difftest(&["targets", "list"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    for name in [
        "temurin11",
        "temurin17",
        "temurin21",
        "temurin25",
        "openjdk17",
        "openjdk17-zero",
        "system",
        "temurin25-int",
        "temurin25-c2",
        "temurin25-xcomp",
        "espresso21",
        "espresso25",
    ] {
        assert!(table.contains(name), "{name} missing from\n{table}");
    }
}

#[test]
fn check_starts_a_worker_and_counts_the_api() {
    let out = difftest(
        &[
            "targets",
            "check",
            "temurin21",
            "--classes",
            "java.util.ArrayList",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("21.0.8"), "{text}");
    assert!(text.contains("1 public classes"), "{text}");
}

#[test]
fn a_bad_target_timeout_exits_2_and_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("slow.yaml"),
        "name: slow\ndescription: x\njdk:\n  path: /nowhere\ntimeout: -1\n",
    )
    .unwrap();
    let out = difftest(&["targets", "check", "slow"], Some(dir.path()));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("slow.yaml:5:1: timeout: -1"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
}

#[test]
fn verbose_shows_a_targets_own_timeout() {
    let home = common::jdk17();
    let dir = tempfile::tempdir().unwrap();
    let file = format!(
        "name: slow\njdk:\n  path: {}\ntimeout: 42\n",
        home.display()
    );
    std::fs::write(dir.path().join("slow.yaml"), file).unwrap();
    let out = difftest(&["-v", "targets", "install", "slow"], Some(dir.path()));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("timeout: 42 s per call unless --timeout"),
        "{}",
        stderr(&out)
    );
}

#[test]
#[cfg_attr(
    not(feature = "bench"),
    ignore = "runs `difftest bench`: cargo test --release --features bench"
)]
fn bench_detection_refuses_a_list_whose_half_breaks_the_split_rule() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/known-changes");
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(shipped.join("changes.yaml")).unwrap();
    // The first item is a tuning one (README: SHA-256 of its id); say it is held out.
    let first = text.find("  half: tuning").expect("a tuning item");
    let moved = format!(
        "{}  half: validation{}",
        &text[..first],
        &text[first + "  half: tuning".len()..]
    );
    std::fs::write(dir.path().join("changes.yaml"), moved).unwrap();
    std::fs::copy(
        shipped.join("split-base.txt"),
        dir.path().join("split-base.txt"),
    )
    .unwrap();
    let list = dir.path().join("changes.yaml");
    let out = difftest(
        &["bench", "detection", "--changes", list.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("changes.yaml: item cldr42-nnbsp-dateformat: half is validation, the split rule gives tuning"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
