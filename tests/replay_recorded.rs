//! Replay of suites made by `difftest record` (the feedback-directed generator) on the
//! reference itself: no difference and exit 0, for several seeds.

mod common;
use common::support;

use support::{difftest, report_json, stderr, stdout};

/// Classes whose values depend neither on the clock, nor on random numbers, nor on
/// identity hash codes: nondeterminism the recorder's reruns may miss (a boolean drawn at
/// random agrees with itself over three runs one time in four; `[C@1b6d3586` changes length
/// once in sixteen) would show up here as differences of the reference with itself.
const CLASSES: &str = "java.lang.Integer,java.lang.Long,java.lang.Short,java.lang.Byte,\
java.lang.Character,java.util.BitSet,java.lang.Boolean,java.lang.String";

#[test]
fn a_recorded_suite_replayed_on_its_reference_shows_no_difference_for_several_seeds() {
    for seed in ["1", "2", "3"] {
        let dir = tempfile::tempdir().unwrap();
        let record = [
            "record",
            "--impl",
            "temurin17",
            "--classes",
            CLASSES,
            "--time-limit",
            "3",
            "--output-limit",
            "3000",
            "--reruns",
            "5",
            "--seed",
            seed,
            "--no-progress",
            "-j",
            "2",
        ];
        let out = difftest(dir.path(), &record);
        assert_eq!(out.status.code(), Some(0), "record: {}", stderr(&out));
        let out = difftest(dir.path(), &["replay", "--impl", "temurin17", "-j", "2"]);
        let report = report_json(dir.path(), "temurin17-vs-temurin17");
        assert_eq!(
            out.status.code(),
            Some(0),
            "seed {seed}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        assert!(
            report["summary"]["tests"].as_u64().unwrap() > 100,
            "seed {seed}"
        );
        assert_eq!(report["summary"]["differing"], 0, "seed {seed}");
    }
}

#[test]
fn a_compressed_suite_is_written_found_replayed_and_refused_when_cut() {
    let dir = tempfile::tempdir().unwrap();
    let record = [
        "record",
        "--impl",
        "temurin17",
        "--classes",
        CLASSES,
        "--output-limit",
        "2000",
        "--reruns",
        "2",
        "--compress",
        "--no-progress",
    ];
    let out = difftest(dir.path(), &record);
    assert_eq!(out.status.code(), Some(0), "record: {}", stderr(&out));
    let packed = dir.path().join("oracles/temurin17.yaml.zst");
    let bytes = std::fs::read(&packed).expect("record --compress writes REF.yaml.zst");
    assert_eq!(bytes[..4], [0x28, 0xB5, 0x2F, 0xFD], "a zstd frame");
    assert!(!dir.path().join("oracles/temurin17.yaml").exists());
    let out = difftest(
        dir.path(),
        &["suite", "stats", "oracles/temurin17.yaml.zst"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("(zstd)"), "{}", stdout(&out));
    // Found without --suite, replayed on the recording JDK without a difference.
    let out = difftest(dir.path(), &["replay", "--impl", "temurin17", "-j", "2"]);
    support::assert_exit(&out, 0);
    let report = report_json(dir.path(), "temurin17-vs-temurin17");
    assert!(report["summary"]["tests"].as_u64().unwrap() > 100);
    assert_eq!(report["summary"]["differing"], 0);
    // Cut: exit 2 naming the file, and no report written.
    std::fs::write(
        dir.path().join("cut.yaml.zst"),
        &bytes[..bytes.len() * 2 / 3],
    )
    .unwrap();
    let replay = ["replay", "--impl", "temurin17", "--suite", "cut.yaml.zst"];
    let out = difftest(
        dir.path(),
        &[&replay[..], &["--report-dir", "cut"]].concat(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("cut.yaml.zst:"), "{}", stderr(&out));
    assert!(!dir.path().join("cut").exists(), "no report of a cut suite");
}
