use super::*;
use crate::sequence::{Observed, Statement};
use crate::suite::Suite;
use crate::suite::entries::Entries;
use crate::suite::read::SuiteReader;

fn int(v: i64) -> Observed {
    Observed::Value {
        class: "java.lang.Integer".into(),
        text: v.to_string(),
    }
}

/// A component: a literal and a call on it, with checks.
fn component(k: i64, base: usize) -> Vec<(Statement, Option<Observed>)> {
    vec![
        (Statement::literal("int", &k.to_string()), None),
        (
            Statement::call("java.lang.Math", "negateExact", &["int"], None, &[base]),
            Some(int(-k)),
        ),
    ]
}

/// Tests built as generation builds them: components (some shared, one nested) and a call.
pub(crate) fn tests() -> Vec<Test> {
    (0..40u64)
        .map(|id| {
            let mut steps = Vec::new();
            for k in [id as i64 % 5, 7, id as i64 % 3 + 10] {
                let base = steps.len();
                steps.extend(component(k, base));
            }
            let n = steps.len();
            let call = Statement::call(
                "java.lang.Math",
                "addExact",
                &["int", "int"],
                None,
                &[1, n - 1],
            );
            steps.push((call, Some(int(id as i64))));
            let (statements, expected_steps) = steps.into_iter().unzip();
            Test {
                id: id * 2,
                statements,
                observers: vec![],
                expected_steps,
                expected_observations: vec![],
                varies: if id % 4 == 0 { vec![3] } else { vec![] },
            }
        })
        .map(|mut t| {
            if !t.varies.is_empty() {
                t.expected_steps[3] = None;
            }
            t
        })
        .collect()
}

#[test]
fn shared_suites_read_back_whole_and_identical_bytes_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut suite = crate::suite::tests::sample();
    suite.tests = tests();
    suite
        .header
        .counts
        .insert("tests".into(), suite.tests.len() as u64);
    let (a, b) = (dir.path().join("a.yaml"), dir.path().join("b.yaml"));
    suite.save(&a).unwrap();
    suite.save(&b).unwrap();
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "deterministic");
    assert!(text.contains("- shared: 1  # used by "), "{text}");
    assert_eq!(Suite::load(&a).unwrap(), suite);
    // A reader that skips to later tests still expands them (blocks before them are held).
    for start in [1, 17, 39] {
        let mut reader = SuiteReader::open(&a).unwrap();
        let mut entries = Entries::new(&a);
        assert!(reader.skip_to(&mut entries, start).unwrap());
        let got = reader.next_test(&mut entries).unwrap().unwrap();
        assert_eq!(got, suite.tests[start], "skipped to {start}");
    }
}

#[test]
fn covers_name_the_longest_shared_runs() {
    let tests = tests();
    let plan = plan(|| tests.iter());
    let cover = plan.effective(&plan.tests[7].1);
    let blocks = cover
        .iter()
        .filter(|s| matches!(s, Seg::Block { .. }))
        .count();
    assert!(blocks >= 2, "{cover:?}");
    let covered: u32 = cover
        .iter()
        .map(|s| match *s {
            Seg::Own { len, .. } => len,
            Seg::Block { block, .. } => plan.blocks[block as usize].len,
        })
        .sum();
    assert_eq!(covered as usize, tests[7].statements.len());
}
