//! Maps from a library whose own `keySet()` throws (`tests/fixtures/hostile`: a sorted view
//! over keys that are not `Comparable`, or an `Error`): the worker's question whether a
//! returned map iterates by identity must not end the run as `crash: agent error`; the call
//! returns its object as on a plain JVM.

mod common;

use difftest::message::SeqRequest;
use difftest::pool::{Pool, PoolConfig};
use difftest::sequence::{Observed, SeqResult, Statement};

fn pool() -> (Pool, tempfile::TempDir) {
    let classes = common::compile_fixtures("hostile");
    let config: PoolConfig = common::config(1, 10_000);
    let pool = common::pool("temurin17", &[classes.path().to_path_buf()], config);
    (pool, classes)
}

/// `new CLASS()`, then `put("k", "k")` on it.
fn made_and_filled(class: &str) -> SeqRequest {
    let object = ["java.lang.Object", "java.lang.Object"];
    let statements = vec![
        Statement::new(class, &[], &[]),
        Statement::literal("java.lang.String", "k"),
        Statement::call(class, "put", &object, Some(0), &[1, 1]),
    ];
    SeqRequest {
        statements,
        observers: vec![],
    }
}

#[test]
fn a_map_whose_key_set_throws_is_returned_not_a_crash() {
    let (pool, _classes) = pool();
    for class in [
        "example.hostile.UnsortableTable",
        "example.hostile.ErrantTable",
    ] {
        let result = pool
            .run(&[made_and_filled(class)], false)
            .expect("pool runs")
            .remove(0);
        let SeqResult::Done { steps, .. } = &result else {
            panic!("{class}: expected a finished run, got {result:?}");
        };
        assert!(
            matches!(&steps[0], Observed::Object { class: c } if c == class),
            "{class}: {:?}",
            steps[0]
        );
        assert!(
            matches!(&steps[2], Observed::Null | Observed::Value { .. }),
            "{class}: put answers {:?}",
            steps[2]
        );
    }
}
