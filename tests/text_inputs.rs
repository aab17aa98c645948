//! `record --text-ratio`: text inputs built from the reference's own character data reach
//! the suite as literals beyond ASCII (supplementary code points as surrogate pairs), the
//! header counts them, and the suite replays on the recording JDK with no difference.

mod common;

use common::support::{assert_exit, difftest, report_json, stdout};

/// Whether escaped Java text holds a surrogate pair (a code point beyond the BMP).
fn has_pair(text: &str) -> bool {
    text.match_indices("\\uD").any(|(i, _)| {
        let hi = &text[i + 3..];
        let lead = hi.chars().next().is_some_and(|c| "89AB".contains(c));
        lead && hi.get(3..6).is_some_and(|t| t.starts_with("\\uD"))
    })
}

#[test]
fn text_inputs_reach_the_suite_and_replay_on_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let out = difftest(
        dir.path(),
        &[
            "record",
            "--impl",
            "temurin17",
            "--classes",
            "java.lang.Character,java.lang.String",
            "--text-ratio",
            "0.5",
            "--seed",
            "3",
            "--output-limit",
            "300",
            "--reruns",
            "1",
            "--no-progress",
            "--output",
            "suite.yaml",
        ],
    );
    assert_exit(&out, 0);
    let suite = std::fs::read_to_string(dir.path().join("suite.yaml")).unwrap();
    let count = suite
        .lines()
        .find_map(|l| l.trim().strip_prefix("text-inputs: "))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(count.is_some_and(|n| n > 0), "no text-inputs count");
    assert!(
        suite.contains("text-ratio: '0.5'"),
        "the option in the header"
    );
    let literals: Vec<&str> = suite
        .lines()
        .filter(|l| l.contains(" = \"") && l.contains("\\u"))
        .collect();
    assert!(
        literals.iter().any(|l| has_pair(l)),
        "no String literal beyond the BMP among {literals:?}"
    );
    let replay = ["replay", "--impl", "temurin17", "--suite", "suite.yaml"];
    let out = difftest(dir.path(), &[&replay[..], &["-j", "2"]].concat());
    assert_exit(&out, 0);
    let report = report_json(dir.path(), "temurin17-vs-temurin17");
    assert_eq!(report["summary"]["differing"], 0, "{}", stdout(&out));
}
