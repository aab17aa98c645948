//! Random content seen only in a `toString()` read at the end of a test
//! (`tests/fixtures/printed`): a `Dice` prints a number drawn anew in every JVM, and a `Note`
//! prints whatever was added to it. A note that had a dice added changes from rerun to rerun
//! and loses its checks, in that test and wherever a note is made and filled the same way;
//! a note made the same way but filled with words only keeps them. (Before, the note's
//! constructor was marked random everywhere, so no note was checked in any test.)

mod common;
use common::support;

use difftest::suite::{Suite, Test};
use support::{stderr, stdout};

/// The notes of `t` whose text is checked (a `toString()` observer with a value).
fn checked_notes(t: &Test) -> Vec<usize> {
    let checked = t.observers.iter().zip(&t.expected_observations);
    checked
        .filter(|(o, v)| &*o.class == "fixture.Note" && &*o.method == "toString" && v.is_some())
        .map(|(o, _)| o.stmt)
        .collect()
}

/// The notes of `t` that had a dice added (`note.add(dice)`).
fn notes_with_dice(t: &Test) -> Vec<usize> {
    let made_dice = |i: usize| t.statements[i].callee().starts_with("fixture.Dice.<init>");
    t.statements
        .iter()
        .filter(|s| s.callee().starts_with("fixture.Note.add("))
        .filter_map(|s| match s.inputs()[..] {
            [note, arg] if made_dice(arg) => Some(note),
            _ => None,
        })
        .collect()
}

#[test]
fn a_note_filled_with_words_stays_checked_where_one_filled_with_dice_varies() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "printed", 1, "note");
    let extra = [
        "--seed",
        "3",
        "--round-size",
        "20",
        "--output-limit",
        "400",
        "--reruns",
        "2",
    ];
    let record = support::record_fixture(work.path(), &targets, "note1", "notes.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    let unstable = stdout(&record);
    assert!(
        unstable.contains("fixture.Note.toString()"),
        "no note's text varied: the fixture no longer shows the case\n{unstable}"
    );
    let suite = Suite::load(&work.path().join("notes.yaml")).expect("the suite loads");
    let checked = suite.tests.iter().filter(|t| !checked_notes(t).is_empty());
    assert!(
        checked.count() > 0,
        "no note's text is checked: random text in one test dropped every note's"
    );
    for t in &suite.tests {
        let dice = notes_with_dice(t);
        assert!(
            checked_notes(t).iter().all(|n| !dice.contains(n)),
            "test {} checks a note that holds a dice's random text",
            t.id
        );
    }
}
