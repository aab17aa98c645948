//! Replay of suites made by `difftest record` (the feedback-directed generator) on the
//! reference itself: no difference and exit 0, for several seeds.

#[path = "replay_support.rs"]
mod support;

use support::{difftest, report_json, stderr, stdout};

/// Classes whose behaviour depends neither on the clock nor on the JVM start.
const CLASSES: &str = "java.util.ArrayList,java.util.LinkedList,java.util.TreeMap,java.util.BitSet,\
java.lang.StringBuilder,java.math.BigInteger,java.math.BigDecimal,java.util.ArrayDeque";

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
            "4",
            "--reruns",
            "3",
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
