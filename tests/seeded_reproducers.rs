//! A reproducer must show the difference the release made, not one minimization made up.
//! `tests/fixtures/seeded`'s `Dice` is seeded from the clock unless `setSeed` is called, as
//! commons-math's `Well1024a` is, and release 2 changes how a roll is drawn. Removing
//! `setSeed` from an example still shows a value difference at `roll()` (two random values),
//! so delta debugging took that reduction and reported `new Dice().roll()`, which differs
//! between any two runs of one release. Minimization now runs a reduced candidate on the
//! reference twice and keeps it only if the reference's value comes back.

mod common;
use common::support;

use support::{stderr, stdout};

#[test]
fn minimization_keeps_what_makes_the_reference_value_determined() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "seeded", 2, "dice");
    let extra = ["--seed", "0", "--output-limit", "3000", "--reruns", "2"];
    let record = support::record_fixture(work.path(), &targets, "dice1", "dice.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));

    let replay = support::replay_fixture(
        work.path(),
        &targets,
        "dice.yaml",
        "dice2",
        &["--jobs", "1"],
    );
    assert_eq!(replay.status.code(), Some(1), "{}", stderr(&replay));
    let report = support::report_json(work.path(), "dice2-vs-dice1");
    let rolls: Vec<&serde_json::Value> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["status"] == "new" && g["callee"] == "fixture.Dice.roll()")
        .collect();
    assert!(!rolls.is_empty(), "{}", stdout(&replay));
    for g in rolls {
        let java: Vec<&str> = (g["minimized"]["java"].as_array())
            .unwrap_or_else(|| panic!("{} not minimized: {g}", g["id"]))
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        assert!(
            java.iter().any(|l| l.contains(".setSeed(")),
            "the reproducer of {} rolls a clock-seeded die: {java:#?}",
            g["id"]
        );
    }
}
