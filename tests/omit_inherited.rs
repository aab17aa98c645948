//! An omit list names a static method on the class that declares it, as users write it
//! (`org.joda.time.DateTimeZone.setProvider`); Java also reaches it through every subclass
//! (`CachedDateTimeZone.setProvider`), and the scope lists it there too. Called that way,
//! it replaced joda-time's provider in the generation worker and every later zone lookup
//! failed, so a record of joda-time 2.12.5 checked no named zone and its replay on 2.13.0
//! showed none of the release's zone changes (`tests/fixtures/omitstatic`: `Zones` and its
//! subclass `CachedZones`). Without the omit entry, the record names the calls whose outcome
//! flipped between generation and the reruns, the sign of such state.

mod common;
use common::support;

use support::stderr;

#[test]
fn a_static_omitted_on_its_declaring_class_is_never_called_through_a_subclass() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "omitstatic", 1, "zones");
    let omit = work.path().join("omit.txt");
    std::fs::write(&omit, "fixture.Zones.setProvider\n").unwrap();
    let extra = [
        "--omit",
        omit.to_str().unwrap(),
        "--output-limit",
        "400",
        "--reruns",
        "0",
        "--keep-all",
    ];
    let record = support::record_fixture(work.path(), &targets, "zones1", "zones.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    let suite = std::fs::read_to_string(work.path().join("zones.yaml")).unwrap();
    assert!(
        suite.contains("fixture.CachedZones.forId(") && suite.contains(").cached("),
        "the inherited lookup is in scope and called:\n{suite}"
    );
    assert!(
        !suite.contains("setProvider"),
        "the omitted static was called:\n{suite}"
    );
    assert!(!suite.contains("provider replaced"), "{suite}");
}

#[test]
fn a_record_names_the_calls_that_threw_in_one_run_and_returned_in_another() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "omitstatic", 1, "zones");
    let extra = ["--output-limit", "2000", "--seed", "0"];
    let record = support::record_fixture(work.path(), &targets, "zones1", "zones.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    let out = support::stdout(&record);
    let line = out
        .lines()
        .find(|l| l.starts_with("threw in one run and returned in another: "))
        .unwrap_or_else(|| panic!("no line naming the flipping calls:\n{out}"));
    assert!(
        line.contains("fixture.CachedZones.cached(java.lang.String)")
            || line.contains("fixture.Zones.forId(java.lang.String)"),
        "{line}"
    );
    assert!(line.contains("--omit"), "{line}");
}
