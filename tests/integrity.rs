//! A gate that cannot be fooled: concurrent `accept`s keep every entry; corrupt suites,
//! accepted lists and report parts are exit 2 with one line naming the file (and line), never
//! a result. None of these tests starts a JVM.

mod common;
use common::support;

use common::report::report_with_groups;
use difftest::triage::accepted::AcceptedList;
use std::path::Path;
use support::{assert_bad, difftest, stderr};

#[test]
fn concurrent_accepts_keep_every_entry() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("oracles/ref.yaml");
    let n = 12;
    report_with_groups(n, &suite.display().to_string())
        .write_all(&dir.path().join("reports"))
        .unwrap();
    support::accept_groups_concurrently(dir.path(), n);
    let list = AcceptedList::load(&dir.path().join("oracles/ref.accepted.yaml")).unwrap();
    assert_eq!(list.accepted.len(), n, "every accepted entry kept");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("oracles"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// The hand-made, sealed suite of the export tests.
fn fixture_suite() -> String {
    std::fs::read_to_string(support::repo().join("tests/fixtures/export/jdk17.yaml")).unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn replay_args(suite: &str) -> Vec<&str> {
    vec!["replay", "--impl", "temurin21", "--suite", suite]
}

#[test]
fn a_flipped_byte_in_a_suite_is_exit_2_naming_the_test() {
    let dir = tempfile::tempdir().unwrap();
    let text = fixture_suite();
    let line = text
        .lines()
        .position(|l| l.contains("long overflow"))
        .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let id_line = lines[..line]
        .iter()
        .rposition(|l| l.starts_with("- id: "))
        .unwrap();
    let id = text
        .lines()
        .nth(id_line)
        .unwrap()
        .trim_start_matches("- id: ")
        .to_string();
    for (name, from, to) in [
        ("message.yaml", "long overflow", "long ovErflow"),
        (
            "class.yaml",
            "java.lang.Math.negateExact",
            "java.lang.Matx.negateExact",
        ),
    ] {
        let flipped = write(dir.path(), name, &text.replacen(from, to, 1));
        let needle = format!("{name}:{}: test {id}", id_line + 1);
        assert_bad(dir.path(), &replay_args(&flipped), &[&needle, "checksum"]);
    }
}

#[test]
fn duplicate_test_ids_are_exit_2_for_replay_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let text = fixture_suite();
    let dup = difftest::suite::checksum::seal(&text.replacen("- id: 2\n", "- id: 3\n", 1));
    let dup = write(dir.path(), "dup.yaml", &dup);
    assert_bad(
        dir.path(),
        &replay_args(&dup),
        &["dup.yaml:", "test id 3 appears twice"],
    );
    let out = dir.path().join("out").display().to_string();
    let export = ["export", "--suite", &dup, "--junit", "5", "--out", &out];
    assert_bad(dir.path(), &export, &["dup.yaml:", "appears twice"]);
    // An exact copy of a test with the header's count raised.
    let start = text.find("- id: 2\n").unwrap();
    let end = text.find("- id: 3\n").unwrap();
    let mut copy = text.clone();
    copy.insert_str(end, &text[start..end]);
    let copy = write(dir.path(), "copy.yaml", &copy);
    assert_bad(
        dir.path(),
        &replay_args(&copy),
        &["copy.yaml:", "appears twice"],
    );
}

#[test]
fn suite_formats_outside_the_range_are_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let text = fixture_suite();
    let zero = difftest::suite::checksum::seal(&text.replacen("format: 3", "format: 0", 1));
    let zero = write(dir.path(), "zero.yaml", &zero);
    assert_bad(dir.path(), &replay_args(&zero), &["zero.yaml", "format 0"]);
    let unchecked: String = text
        .replacen("format: 3", "format: 2", 1)
        .lines()
        .filter(|l| !l.starts_with("  sum: ") && !l.starts_with("# end: "))
        .map(|l| format!("{l}\n"))
        .collect();
    let old = write(dir.path(), "old.yaml", &unchecked);
    assert_bad(
        dir.path(),
        &replay_args(&old),
        &["old.yaml", "no checksums"],
    );
}

#[test]
fn corrupt_report_parts_are_exit_2_for_merge() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_with_groups(2, "oracles/ref.yaml");
    let json = report
        .write_all(&dir.path().join("part"))
        .unwrap()
        .remove(0);
    let text = std::fs::read_to_string(&json).unwrap();
    let flipped = write(
        dir.path(),
        "flipped.json",
        &text.replacen("Counter.m1()", "Counter.m2()", 1),
    );
    assert_bad(
        dir.path(),
        &["report", "--merge", &flipped],
        &["flipped.json", "checksum"],
    );
    let old = write(
        dir.path(),
        "old.json",
        &text.replacen("\"schema_version\": 2", "\"schema_version\": 1", 1),
    );
    assert_bad(
        dir.path(),
        &["report", "--merge", &old],
        &["old.json", "schema 1"],
    );
}

/// Writes shard `k` of 3 of a three-group report (one test each) under `dir/partK/`.
fn shard_part(dir: &Path, k: usize) -> String {
    let mut part = report_with_groups(3, "oracles/ref.yaml");
    part.shards = vec![format!("{k}/3")];
    part.groups.retain(|g| g.test_ids == [k as u64 - 1]);
    part.tests.retain(|t| t.id == k as u64 - 1);
    let written = part.write_all(&dir.join(format!("part{k}"))).unwrap();
    written[0].display().to_string()
}

#[test]
fn a_merge_missing_a_shard_is_exit_2_unless_partial_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (shard_part(dir.path(), 1), shard_part(dir.path(), 2));
    assert_bad(
        dir.path(),
        &["report", "--merge", &one, &two],
        &["shard 3/3 is missing", "--allow-partial"],
    );
    let out = difftest(
        dir.path(),
        &["report", "--merge", &one, &two, "--allow-partial"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let line = support::stdout(&out);
    assert!(
        line.contains("gate: FAIL (partial: without shard 3/3)"),
        "{line}"
    );
    let merged = std::fs::read_to_string(dir.path().join("reports/tgt-vs-ref.json")).unwrap();
    assert!(
        merged.contains("partial verdict: shard 3/3 is missing"),
        "{merged}"
    );
    let three = shard_part(dir.path(), 3);
    let out = difftest(dir.path(), &["report", "--merge", &one, &two, &three]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!support::stdout(&out).contains("partial"));
}

#[test]
fn an_edited_accepted_list_is_exit_2_until_resealed() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("oracles/ref.yaml");
    report_with_groups(1, &suite.display().to_string())
        .write_all(&dir.path().join("reports"))
        .unwrap();
    let accept = ["accept", "g-000000", "--reason", "reviewed"];
    assert_eq!(difftest(dir.path(), &accept).status.code(), Some(0));
    let list = dir.path().join("oracles/ref.accepted.yaml");
    let text = std::fs::read_to_string(&list).unwrap();
    std::fs::write(&list, text.replace("reviewed", "reviewed twice")).unwrap();
    let again = ["accept", "g-000000", "--reason", "again"];
    assert_bad(
        dir.path(),
        &again,
        &["ref.accepted.yaml", "checksum", "--reseal"],
    );
    let path = suite.display().to_string();
    let reseal = ["accept", "--reseal", "--suite", &path];
    let out = difftest(dir.path(), &reseal);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let loaded = AcceptedList::load(&list).unwrap();
    assert_eq!(loaded.accepted[0].reason, "reviewed twice");
}

#[test]
fn jobs_beyond_four_per_core_are_exit_2_with_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    assert_bad(
        dir.path(),
        &["targets", "check", "openjdk17", "--jobs", "100000"],
        &["--jobs 100000", "at most"],
    );
    let suite = write(dir.path(), "s.yaml", &fixture_suite());
    let mut args = replay_args(&suite);
    args.extend(["-j", "100000"]);
    assert_bad(dir.path(), &args, &["--jobs", "at most"]);
}

fn record_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["record", "--impl", "temurin17", "--time-limit", "1"];
    args.extend_from_slice(extra);
    args
}

#[test]
fn empty_huge_or_garbage_scope_files_are_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(
        dir.path(),
        "empty.txt",
        "# nothing yet\n\n   # still nothing\n",
    );
    assert_bad(
        dir.path(),
        &record_args(&["--class-list", &empty]),
        &["empty.txt", "no class or package"],
    );
    let huge = write(
        dir.path(),
        "huge.txt",
        &format!("{}!\n", "x".repeat(50 << 20)),
    );
    let out = difftest(dir.path(), &record_args(&["--class-list", &huge]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.len() < 1000,
        "{} bytes of error",
        out.stderr.len()
    );
    assert!(stderr(&out).contains("huge.txt:1"), "{}", stderr(&out));
    let garbage = write(
        dir.path(),
        "obs.txt",
        "java.util.List.size\n%%% not a pattern\n",
    );
    assert_bad(
        dir.path(),
        &record_args(&["--observers", &garbage]),
        &["obs.txt:2", "pattern"],
    );
    let binary = dir.path().join("lits.txt");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x12]).unwrap();
    let binary = binary.display().to_string();
    let out = difftest(dir.path(), &record_args(&["--literals-file", &binary]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!stderr(&out).contains("lits.txt:0"), "{}", stderr(&out));
}

#[test]
fn unreadable_target_files_are_exit_2_and_list_shows_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let targets = dir.path().join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    std::fs::write(
        targets.join("good.yaml"),
        "name: good\ndescription: a good one\njdk:\n  system: true\n",
    )
    .unwrap();
    std::fs::write(
        targets.join("bin.yaml"),
        [0x7f, b'E', b'L', b'F', 0xff, 0x00],
    )
    .unwrap();
    let t = targets.display().to_string();
    assert_bad(
        dir.path(),
        &["targets", "check", "bin", "--targets-dir", &t],
        &["bin.yaml", "UTF-8"],
    );
    let relative = ["targets", "check", "../targets/x", "--targets-dir", &t];
    assert_bad(dir.path(), &relative, &["../targets/x"]);
    let out = difftest(dir.path(), &["targets", "list", "--targets-dir", &t]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        support::stdout(&out).contains("a good one"),
        "{}",
        support::stdout(&out)
    );
    assert!(stderr(&out).contains("bin.yaml"), "{}", stderr(&out));
}

/// The fixture suite, zstd-compressed as `record --compress` writes it.
fn compressed_fixture() -> Vec<u8> {
    zstd::encode_all(fixture_suite().as_bytes(), 9).unwrap()
}

#[test]
fn a_compressed_suite_reads_like_the_plain_one() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write(dir.path(), "plain.yaml", &fixture_suite());
    let packed = dir.path().join("packed.yaml.zst");
    std::fs::write(&packed, compressed_fixture()).unwrap();
    let stats = |file: &str| {
        let out = difftest(dir.path(), &["suite", "stats", file]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        support::stdout(&out)
    };
    let (a, b) = (stats(&plain), stats(&packed.display().to_string()));
    let counts = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("file") && !l.starts_with("size"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(counts(&a), counts(&b));
    assert!(b.contains("(zstd)") && b.contains("tests: "), "{b}");
}

#[test]
fn cut_or_corrupt_compressed_suites_are_exit_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = compressed_fixture();
    let mut cases: Vec<(String, Vec<u8>)> = [4, bytes.len() / 2, bytes.len() - 3]
        .iter()
        .map(|&n| (format!("cut{n}.yaml.zst"), bytes[..n].to_vec()))
        .collect();
    for at in [bytes.len() / 3, bytes.len() / 2, bytes.len() - 6] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x55;
        cases.push((format!("flip{at}.yaml.zst"), flipped));
    }
    let mut garbage = bytes[..4].to_vec();
    garbage.extend(b"not a zstd frame at all\n");
    cases.push(("garbage.yaml.zst".into(), garbage));
    // A valid frame of a cut suite: zstd is happy, the suite's end line is missing.
    let text = fixture_suite();
    let half = zstd::encode_all(&text.as_bytes()[..text.len() / 2], 9).unwrap();
    cases.push(("half.yaml.zst".into(), half));
    for (name, content) in cases {
        let path = dir.path().join(&name);
        std::fs::write(&path, content).unwrap();
        let file = path.display().to_string();
        let needle = format!("{name}:");
        assert_bad(dir.path(), &replay_args(&file), &[&needle]);
        assert_bad(dir.path(), &["suite", "stats", &file], &[&needle]);
    }
}
