//! Kinds of change and cause rows on a fixture library in two releases (compiled here with
//! javac; `tests/fixtures/kinds`): a float printed with other digits through three methods
//! is one cause, a narrow no-break space in two formats is one cause, a hash code and a
//! permitted exception narrowing are labelled, and a real value change next to a rendering
//! change on the same method gives two rows, results one unit in the last place apart through
//! two methods are one cause, a count of the runtime's currencies is a data version; both
//! JDKs' data versions are in the report; accepting a cause passes the gate. Asserted on the
//! JSON report.

mod common;
use common::support;

use difftest::message::SeqRequest;
use difftest::sequence::Statement;
use serde_json::Value;
use std::path::{Path, PathBuf};
use support::{difftest, report_json, stderr, stdout};

/// Compiles `tests/fixtures/kinds/vN` for N in 1..=2 and writes targets kinds1..kinds2.
fn setup(work: &Path) -> PathBuf {
    support::fixture_targets(work, "kinds", 2, "kinds")
}

/// `Statement::literal(args…); Class.method(args)`.
fn static_call(class: &str, method: &str, args: &[(&str, &str)]) -> SeqRequest {
    let mut s: Vec<Statement> = args.iter().map(|(t, v)| Statement::literal(t, v)).collect();
    let params: Vec<&str> = args.iter().map(|(t, _)| *t).collect();
    let idx: Vec<usize> = (0..args.len()).collect();
    s.push(Statement::call(class, method, &params, None, &idx));
    SeqRequest {
        statements: s,
        observers: vec![],
    }
}

fn sequences() -> Vec<SeqRequest> {
    let num = "fixture.Num";
    let mut seqs = vec![
        static_call(num, "minNormal", &[]),
        static_call(num, "scaled", &[("int", "3")]),
        static_call(num, "big", &[]),
        static_call(num, "price", &[("int", "1")]),
        static_call(num, "price", &[("int", "2")]),
        static_call(num, "price", &[("int", "0")]), // passes
        static_call("fixture.Fmt", "time", &[("int", "12")]),
        static_call("fixture.Fmt", "stamp", &[("int", "5")]),
        static_call("fixture.Arr", "at", &[("int", "4")]),
        static_call("fixture.Arr", "at", &[("int", "1")]), // passes
        static_call("fixture.Calc", "exp", &[("int", "3")]),
        static_call("fixture.Calc", "root", &[("int", "2")]),
    ];
    seqs.push(SeqRequest {
        statements: vec![
            Statement::call(
                "java.util.Currency",
                "getAvailableCurrencies",
                &[],
                None,
                &[],
            ),
            Statement::call("fixture.Data", "count", &["java.util.Set"], None, &[0]),
        ],
        observers: vec![],
    });
    seqs.push(SeqRequest {
        statements: vec![
            Statement::literal("int", "5"),
            Statement::new("fixture.Key", &["int"], &[0]),
            Statement::call("fixture.Key", "hashCode", &[], Some(1), &[]),
        ],
        observers: vec![],
    });
    seqs
}

/// The cause whose callees include `callee` (by method name) with `label`.
fn cause<'a>(report: &'a Value, callee: &str, label: &str) -> &'a Value {
    report["causes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["label"] == label
                && c["callees"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m["callee"].as_str().unwrap().starts_with(callee))
        })
        .unwrap_or_else(|| panic!("no {label} cause with {callee}: {report:#}"))
}

fn callees(c: &Value) -> Vec<String> {
    let mut v: Vec<String> = c["callees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["callee"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn kinds_of_change_are_labelled_and_join_into_causes() {
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path());
    support::record_stable(work.path(), "kinds1", &targets, &sequences());
    let tdir = targets.to_str().unwrap();
    let replay = || {
        difftest(
            work.path(),
            &[
                "--targets-dir",
                tdir,
                "replay",
                "--impl",
                "kinds2",
                "-j",
                "1",
            ],
        )
    };
    let out = replay();
    support::assert_exit(&out, 1);
    let report = report_json(work.path(), "kinds2-vs-kinds1");

    let floats = cause(&report, "fixture.Num.minNormal", "rendering");
    assert_eq!(
        callees(floats),
        [
            "fixture.Num.big()",
            "fixture.Num.minNormal()",
            "fixture.Num.scaled(int)"
        ],
        "one row for the float digits: {floats:#}"
    );
    assert_eq!(floats["tests"], 3);
    assert!(floats["id"].as_str().unwrap().starts_with("c-"));

    let nbsp = cause(&report, "fixture.Fmt.time", "invisible");
    assert_eq!(
        callees(nbsp),
        ["fixture.Fmt.stamp(int)", "fixture.Fmt.time(int)"],
        "{nbsp:#}"
    );
    assert!(
        nbsp["change"].as_str().unwrap().contains("\\u202F"),
        "{nbsp:#}"
    );

    let hash = cause(&report, "fixture.Key.hashCode", "hash_only");
    assert_eq!(hash["tests"], 1);
    let narrowing = cause(&report, "fixture.Arr.at", "permitted_narrowing");
    assert_eq!(
        narrowing["change"],
        "java.lang.ArrayIndexOutOfBoundsException → java.lang.IndexOutOfBoundsException"
    );

    // The same method, two changes: two groups, two rows.
    let price_rendering = cause(&report, "fixture.Num.price", "rendering");
    let price_value = cause(&report, "fixture.Num.price", "value_differs");
    assert_ne!(price_rendering["id"], price_value["id"]);
    assert_eq!(price_rendering["change"], "decimal notation");
    let price_groups: Vec<&Value> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["callee"] == "fixture.Num.price(int)")
        .collect();
    assert_eq!(price_groups.len(), 2, "{report:#}");

    // Both sides run the same JDK build, so a count over currency codes that changed is the
    // library's own change, never the JDK's currency data.
    let data = cause(&report, "fixture.Data.count", "value_differs");
    assert_eq!(data["change"], "-233+236", "{data:#}");

    let ulps = cause(&report, "fixture.Calc.exp", "last_place");
    assert_eq!(
        callees(ulps),
        ["fixture.Calc.exp(int)", "fixture.Calc.root(int)"],
        "{ulps:#}"
    );

    // The data versions the JDK reports, on both sides (the same JDK here).
    for side in ["reference", "target"] {
        let v = &report[side]["data_versions"];
        assert!(
            v["unicode"].as_str().is_some_and(|u| u.contains('.')),
            "{v}"
        );
        assert!(v["tzdata"].as_str().is_some_and(|t| t.len() >= 5), "{v}");
    }

    // Eight rows; every row and every differing test carries a label; nothing is hidden.
    let causes = report["causes"].as_array().unwrap();
    assert_eq!(causes.len(), 8, "{:#}", report["causes"]);
    assert_eq!(report["summary"]["new_causes"], 8);
    assert_eq!(report["summary"]["differing"], 12);
    let differing: Vec<&Value> = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "differs")
        .collect();
    assert_eq!(differing.len(), 12);
    assert!(
        differing
            .iter()
            .all(|t| t["label"].is_string() && t["cause"].is_string())
    );
    let table = stdout(&out);
    assert!(
        table.contains("same value, other rendering") && table.contains("permitted narrowing"),
        "{table}"
    );
    let md = std::fs::read_to_string(work.path().join("reports/kinds2-vs-kinds1.md")).unwrap();
    assert!(md.contains("invisible or whitespace change"), "{md}");
    assert!(
        md.contains("- Data versions (reference → target): tzdata "),
        "{md}"
    );
    let xml =
        std::fs::read_to_string(work.path().join("reports/kinds2-vs-kinds1.junit.xml")).unwrap();
    assert!(xml.contains("[hash only]"), "{xml}");

    // Accepting the float cause covers its callees; the rest still fails.
    let id = floats["id"].as_str().unwrap();
    let accepted = difftest(
        work.path(),
        &["accept", id, "--reason", "shortest decimal", "--by", "t"],
    );
    assert_eq!(accepted.status.code(), Some(0), "{}", stderr(&accepted));
    let list = std::fs::read_to_string(work.path().join("oracles/kinds1.accepted.yaml")).unwrap();
    assert!(
        list.contains("format: 3") && list.contains("label: rendering"),
        "{list}"
    );
    let out = replay();
    assert_eq!(out.status.code(), Some(1));
    let report = report_json(work.path(), "kinds2-vs-kinds1");
    let floats = cause(&report, "fixture.Num.minNormal", "rendering");
    assert_eq!(floats["status"], "accepted");
    assert_eq!(floats["id"], id, "the cause id is stable across runs");
    assert_eq!(report["summary"]["accepted"], 3);
    assert_eq!(report["summary"]["new_causes"], 7);
}
