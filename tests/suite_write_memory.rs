//! The suite writer's plan of shared blocks is bounded (issue 36): tests are planned chunk
//! by chunk, so what writing holds beside the tests does not grow with their number. The
//! tests are made one at a time as the writer asks for them, so the process's resident
//! memory is the writer's own.

use difftest::sequence::{Observed, Statement};
use difftest::suite::chunked::write_tests;
use difftest::suite::{Header, SuiteError, Test, Writer};
use std::collections::BTreeMap;
use std::path::Path;

fn int(v: i64) -> Observed {
    Observed::Value {
        class: "java.lang.Integer".into(),
        text: v.to_string(),
    }
}

/// Test `i`: two components (a literal and its negation) out of `n / 2`, each used by
/// about four tests, then their sum: three closed runs, one of them the test's own.
fn test(i: u64, n: u64) -> Test {
    let pick = |k: u64| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (8 * k)) % (n / 2);
    let (a, b) = (pick(0) as i64, pick(3) as i64 + 1);
    let negate = |at| Statement::call("java.lang.Math", "negateExact", &["int"], None, &[at]);
    let add = Statement::call("java.lang.Math", "addExact", &["int", "int"], None, &[1, 3]);
    Test {
        id: i,
        statements: vec![
            Statement::literal("int", &a.to_string()),
            negate(0),
            Statement::literal("int", &b.to_string()),
            negate(2),
            add,
        ],
        observers: vec![],
        expected_steps: vec![None, Some(int(-a)), None, Some(int(-b)), Some(int(-a - b))],
        expected_observations: vec![],
        varies: vec![],
    }
}

fn header() -> Header {
    let text = "java_version: '17'\njava_vendor: v\nvm_name: vm\nruntime_version: '17'\n";
    Header {
        format: difftest::suite::FORMAT_VERSION,
        tool: "difftest test".into(),
        reference: "ref".into(),
        fingerprint: serde_yaml::from_str(text).unwrap(),
        seed: 0,
        classes: vec![],
        packages: vec![],
        options: BTreeMap::new(),
        counts: BTreeMap::new(),
        partial: false,
    }
}

fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// MiB the process's resident peak rose while `n` tests were written to `path`.
fn growth_writing(path: &Path, n: u64) -> f64 {
    difftest::usage::release_free_memory();
    // Resets the peak (VmHWM) to what is resident now.
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_kib("VmRSS:");
    let header = header();
    let mut w = Writer::create(path, &header, &BTreeMap::new()).unwrap();
    write_tests(&mut w, n as usize, |i| {
        Ok::<_, SuiteError>(test(i as u64, n))
    })
    .unwrap();
    w.finish().unwrap();
    (status_kib("VmHWM:").saturating_sub(before)) as f64 / 1024.0
}

#[test]
fn writing_four_times_the_tests_holds_no_more_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.yaml.zst");
    // 300,000 and 1,200,000 closed runs: one chunk and a bit, then more than four.
    let small = growth_writing(&path, 200_000);
    let large = growth_writing(&path, 800_000);
    eprintln!("peak rose {small:.1} MiB for 200,000 tests, {large:.1} MiB for 800,000");
    assert!(small > 0.0, "the resident peak rose while writing");
    assert!(
        large < small * 1.3 + 4.0,
        "writing 800,000 tests raised the peak by {large:.1} MiB, 200,000 by {small:.1} MiB"
    );
}
