//! Suites whose tests name shared blocks (format 4): every consumer sees the tests expanded,
//! and a hostile file — a reference to an unknown or later block, a cycle, a reference into
//! a corrupted or cut block, a huge fan-out, a block named more or less often than it says —
//! is exit 2 with one line naming the file and line, never a panic and never a result.
//! None of these tests starts a JVM.

mod common;
use common::support;

use difftest::suite::checksum::seal;
use difftest::suite::{FORMAT_VERSION, Suite};
use std::path::Path;
use support::{assert_bad, difftest, stderr, stdout};

/// The export fixture's preamble as format 4, then `entries`, sealed.
fn suite_text(entries: &str) -> String {
    let fixture =
        std::fs::read_to_string(support::repo().join("tests/fixtures/export/jdk17.yaml")).unwrap();
    let preamble = &fixture[..fixture.find("tests:\n").unwrap()];
    let preamble = preamble.replacen("format: 3", &format!("format: {FORMAT_VERSION}"), 1);
    seal(&format!("{preamble}tests:\n{entries}error_revealing: []\n"))
}

const BLOCK: &str = "- shared: 1  # used by 2
  code: |
    v0 = (int) 7
    v1 = java.lang.Math.negateExact((int) v0)  // -7
";

const TESTS: &str = "- id: 1
  code: |
    v0..v1 = shared 1
    v2 = java.lang.Math.abs((int) v1)  // 7
- id: 2
  code: |
    v0 = (int) 1
    v1..v2 = shared 1
    v3 = java.lang.Math.addExact((int) v0, (int) v2)  // -6
";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The 1-based line of the first line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    text.lines().position(|l| l.starts_with(start)).unwrap() + 1
}

#[test]
fn tests_naming_blocks_read_expanded_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let text = suite_text(&format!("{BLOCK}{TESTS}"));
    let path = write(dir.path(), "ok.yaml", &text);
    let suite = Suite::load(Path::new(&path)).unwrap();
    let second = &suite.tests[1];
    assert_eq!(second.statements.len(), 4);
    assert_eq!(
        second.statements[2].inputs(),
        vec![1],
        "numbering continues"
    );
    assert_eq!(second.expected_steps[2], suite.tests[0].expected_steps[1]);
    assert!(second.expected_steps[2].is_some());
    // Written again, the tests share the block again and read back the same.
    let again = dir.path().join("again.yaml");
    suite.save(&again).unwrap();
    let written = std::fs::read_to_string(&again).unwrap();
    assert!(written.contains("= shared 1\n"), "{written}");
    assert_eq!(Suite::load(&again).unwrap(), suite);
    let out = difftest(dir.path(), &["suite", "stats", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("statements: 7"), "{}", stdout(&out));
}

#[test]
fn references_to_unknown_later_or_cyclic_blocks_are_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let later = format!("{TESTS}{BLOCK}");
    let cycle = "- shared: 1  # used by 1
  code: |
    v0..v1 = shared 2
- shared: 2  # used by 1
  code: |
    v0..v1 = shared 1
- id: 1
  code: |
    v0 = (int) 1
";
    let own = BLOCK.replace(
        "v1 = java.lang.Math.negateExact((int) v0)  // -7",
        "v1..v2 = shared 1",
    );
    let cases = [
        (
            "unknown.yaml",
            format!(
                "{BLOCK}{}",
                TESTS.replace("shared 1\n    v2", "shared 9\n    v2")
            ),
            "- id: 1",
            "shared 9 is not defined above",
        ),
        (
            "later.yaml",
            later,
            "- id: 1",
            "shared 1 is not defined above",
        ),
        (
            "cycle.yaml",
            cycle.to_string(),
            "- shared: 1",
            "shared 2 is not defined above",
        ),
        (
            "self.yaml",
            format!("{own}{TESTS}"),
            "- shared: 1",
            "shared 1 is not defined above",
        ),
    ];
    for (name, entries, entry, needle) in cases {
        let text = suite_text(&entries);
        let path = write(dir.path(), name, &text);
        let line = line_of(&text, entry) + 2 + usize::from(name == "self.yaml");
        let at = format!("{name}:{line}: ");
        for args in [
            vec!["suite", "stats", &path],
            vec!["replay", "--impl", "temurin21", "--suite", &path],
        ] {
            assert_bad(dir.path(), &args, &[&at, needle]);
        }
    }
}

#[test]
fn references_into_corrupted_or_cut_blocks_are_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let text = suite_text(&format!("{BLOCK}{TESTS}"));
    let flipped = write(
        dir.path(),
        "flipped.yaml",
        &text.replacen("// -7", "// -8", 1),
    );
    let block_line = line_of(&text, "- shared: 1");
    let at = format!("flipped.yaml:{block_line}: shared 1:");
    assert_bad(
        dir.path(),
        &["suite", "stats", &flipped],
        &[&at, "checksum"],
    );
    // Cut inside the block: no end line.
    let cut_at = text.find("    v1 = java.lang.Math.negateExact").unwrap();
    let cut = write(dir.path(), "cut.yaml", &text[..cut_at]);
    assert_bad(
        dir.path(),
        &["suite", "stats", &cut],
        &["cut.yaml:", "truncated"],
    );
    // A block that lost a statement (and was sealed again): the references no longer fit.
    let short = suite_text(&format!(
        "{}{TESTS}",
        BLOCK.replace("    v1 = java.lang.Math.negateExact((int) v0)  // -7\n", "")
    ));
    let short = write(dir.path(), "short.yaml", &short);
    let needles = ["short.yaml:", "shared 1 has 1 statements, not 2"];
    assert_bad(dir.path(), &["suite", "stats", &short], &needles);
}

#[test]
fn huge_fan_out_and_wrong_use_counts_are_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    // Each block names the one before twice: block 18 would be 2^18 statements.
    let mut entries =
        String::from("- shared: 1  # used by 2\n  code: |\n    v0 = (int) 1\n    v1 = (int) 2\n");
    for k in 2..=18u32 {
        let half = 1usize << (k - 1);
        entries.push_str(&format!(
            "- shared: {k}  # used by 2\n  code: |\n    v0..v{} = shared {}\n    v{half}..v{} = shared {}\n",
            half - 1,
            k - 1,
            2 * half - 1,
            k - 1
        ));
    }
    let text = suite_text(&entries);
    let path = write(dir.path(), "fanout.yaml", &text);
    assert_bad(
        dir.path(),
        &["suite", "stats", &path],
        &["fanout.yaml:", "expand to more than 100000"],
    );
    let over = suite_text(&format!(
        "{}{TESTS}",
        BLOCK.replace("used by 2", "used by 1")
    ));
    let over = write(dir.path(), "over.yaml", &over);
    assert_bad(
        dir.path(),
        &["suite", "stats", &over],
        &["over.yaml:", "named more often"],
    );
    let under = suite_text(&format!(
        "{}{TESTS}",
        BLOCK.replace("used by 2", "used by 3")
    ));
    let under_path = write(dir.path(), "under.yaml", &under);
    let at = format!("under.yaml:{}:", line_of(&under, "- shared: 1"));
    let args = ["replay", "--impl", "temurin21", "--suite", &under_path];
    assert_bad(dir.path(), &args, &[&at, "used 1 more time(s)"]);
    let huge = suite_text(&format!(
        "{}{TESTS}",
        BLOCK.replace("used by 2", "used by 99999999999")
    ));
    let huge = write(dir.path(), "huge.yaml", &huge);
    assert_bad(
        dir.path(),
        &["suite", "stats", &huge],
        &["huge.yaml:", "bad shared block line"],
    );
}
