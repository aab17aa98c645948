//! Parameters declared `java.lang.Class` (type tokens: `fromJson(text, Class)`,
//! `EnumSet.allOf(Class)`, `KeyFactory.getKeySpec(key, Class)`) get class literals with
//! `--class-values`: every class of the scope and a few common ones (`tests/fixtures/
//! typetokens`: `Registry.describe(Class)` describes an interface as one in release 2, which
//! also drops the class `Legacy`). Without the flag such members stay out of scope, as
//! everything mentioning the omitted `java.lang.Class` does.

mod common;
use common::support;

use difftest::sequence::Statement;
use support::stderr;

const RECORD: [&str; 6] = ["--output-limit", "1500", "--reruns", "1", "--seed", "3"];

/// Whether a test passes a class literal naming `class` to `Registry.describe`.
fn describes(suite: &difftest::suite::Suite, class: &str) -> bool {
    suite.tests.iter().any(|t| {
        t.statements.iter().any(|s| match s {
            Statement::Call { method, args, .. } if &**method == "describe" => {
                args.iter().any(|&a| {
                    matches!(&t.statements[a], Statement::Literal { ty, value }
                        if &**ty == "java.lang.Class" && &**value == class)
                })
            }
            _ => false,
        })
    })
}

#[test]
fn class_literals_reach_type_token_parameters_and_replay_finds_the_change() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "typetokens", 2, "tokens");
    let mut extra = RECORD.to_vec();
    extra.push("--class-values");
    let suite =
        support::recorded_fixture_suite(work.path(), &targets, "tokens1", "tokens.yaml", &extra);
    for class in ["fixture.Shape", "fixture.Square", "java.lang.String"] {
        assert!(describes(&suite, class), "no test describes {class}");
    }
    let text = std::fs::read_to_string(work.path().join("tokens.yaml")).unwrap();
    assert!(text.contains("(java.lang.Class) fixture.Square"), "{text}");

    support::assert_same_behaviour(
        work.path(),
        &targets,
        "tokens.yaml",
        "tokens1",
        "tokens1-vs-tokens1",
    );

    let replay = support::replay_fixture(work.path(), &targets, "tokens.yaml", "tokens2", &[]);
    assert_eq!(replay.status.code(), Some(1), "{}", stderr(&replay));
    let report = support::report_json(work.path(), "tokens2-vs-tokens1");
    let groups = report["groups"].as_array().unwrap();
    let describe = groups
        .iter()
        .find(|g| g["callee"] == "fixture.Registry.describe(java.lang.Class)")
        .unwrap_or_else(|| panic!("no group for describe: {groups:#?}"));
    assert_eq!(describe["kind"], "value", "{describe:#?}");
    let example = describe["example_java"].to_string();
    assert!(
        example.contains(".class"),
        "the reproducer names a class literal: {example}"
    );
    let missing = groups
        .iter()
        .any(|g| g["kind"] == "missing" && g["callee"] == "fixture.Legacy.class");
    let callees: Vec<_> = groups.iter().map(|g| (&g["callee"], &g["kind"])).collect();
    assert!(
        missing,
        "no group for the literal of the class release 2 dropped: {callees:?}"
    );
}

#[test]
fn without_class_values_type_token_members_stay_out_of_scope() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "typetokens", 1, "tokens");
    let suite =
        support::recorded_fixture_suite(work.path(), &targets, "tokens1", "tokens.yaml", &RECORD);
    let text = std::fs::read_to_string(work.path().join("tokens.yaml")).unwrap();
    assert!(!text.contains("java.lang.Class"), "{text}");
    assert!(!suite.tests.is_empty());
}

/// A class literal the suite names but no JVM has, or a name that is no class name at all
/// (a path, a trailing `;`), as a damaged or hostile suite could hold: the worker answers
/// `missing` for that step and goes on with the next sequence, and an export writes no Java
/// from such a name (`export::java`'s unit test: only class names become `X.class`).
#[test]
fn a_class_literal_naming_no_class_is_missing_and_never_written_as_java() {
    use difftest::message::SeqRequest;
    use difftest::sequence::{CLASS, Observed};

    let names = [
        "no.such.Klass",
        "../../etc/passwd",
        "java.lang.String;",
        "int[][]",
    ];
    let seq = |name: &str| SeqRequest {
        statements: vec![
            Statement::literal(CLASS, name),
            Statement::call("java.util.EnumSet", "noneOf", &[CLASS], None, &[0]),
        ],
        observers: vec![],
    };
    let mut seqs: Vec<SeqRequest> = names.iter().map(|n| seq(n)).collect();
    seqs.push(seq("java.time.DayOfWeek"));
    let p = support::provision("temurin17", None);
    let pool = difftest::pool::Pool::start("temurin17", p.jvm.clone(), support::config(1, 5000))
        .expect("pool starts");
    let results = pool
        .run(&seqs, false)
        .expect("the pool runs every sequence");
    assert_eq!(results.len(), seqs.len());
    let first_steps: Vec<_> = results
        .iter()
        .map(|r| match r {
            difftest::sequence::SeqResult::Done { steps, .. } => steps.first().cloned(),
            other => panic!("not run to its end: {other:?}"),
        })
        .collect();
    for (name, step) in names.iter().zip(&first_steps).take(3) {
        assert!(
            matches!(step, Some(Observed::Missing { what }) if what.contains(name)),
            "{name}: {step:?}"
        );
    }
    for (name, step) in names.iter().zip(&first_steps).skip(3) {
        assert!(
            !step.as_ref().is_some_and(Observed::is_abnormal),
            "{name}: {step:?}"
        );
    }
    assert!(!first_steps[4].as_ref().is_some_and(Observed::is_abnormal));

    let work = tempfile::tempdir().unwrap();
    let tests = difftest::replay::samples::record(&pool, &seqs, 1).expect("records");
    let suite = support::suite("temurin17", &p, tests, 0);
    let path = support::write_suite(work.path(), &suite);
    let out = work.path().join("junit");
    let (suite_arg, out_arg) = (path.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "export", "--suite", suite_arg, "--junit", "5", "--out", out_arg,
    ];
    let export = support::difftest(work.path(), &args);
    assert_eq!(export.status.code(), Some(0), "{}", stderr(&export));
    let java: String = walk(&out)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(
        java.contains("int[][].class") && java.contains("DayOfWeek.class"),
        "{java}"
    );
    assert!(
        !java.contains("Klass") && !java.contains("passwd"),
        "{java}"
    );
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let mut out = vec![];
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
