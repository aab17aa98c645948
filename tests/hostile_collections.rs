//! Maps from a library whose own `keySet()` throws (`tests/fixtures/hostile`: a sorted view
//! over keys that are not `Comparable`, or an `Error`), and library objects holding a JDK set
//! whose key fails its `hashCode()` or whose own `toString()` never returns: the worker's
//! question whether a returned value iterates by identity must not end the run as `crash:
//! agent error`, nor cost the worker; the call returns its object as on a plain JVM, and a
//! spin ends as a timeout the worker survives.

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

/// Runs `seq` to its end and checks that step `at` returned an object of `class`; the steps.
fn made_object(pool: &Pool, seq: SeqRequest, at: usize, class: &str, what: &str) -> Vec<Observed> {
    let result = pool.run(&[seq], false).expect("pool runs").remove(0);
    let SeqResult::Done { steps, .. } = result else {
        panic!("{what}: expected a finished run, got {result:?}");
    };
    assert!(
        matches!(&steps[at], Observed::Object { class: c } if c == class),
        "{what}: {:?}",
        steps[at]
    );
    steps
}

#[test]
fn a_map_whose_key_set_throws_is_returned_not_a_crash() {
    let (pool, _classes) = pool();
    for class in [
        "example.hostile.UnsortableTable",
        "example.hostile.ErrantTable",
    ] {
        let steps = made_object(&pool, made_and_filled(class), 0, class, class);
        assert!(
            matches!(&steps[2], Observed::Null | Observed::Value { .. }),
            "{class}: put answers {:?}",
            steps[2]
        );
    }
}

/// `new CLASS(args…)`, the arguments literals of the given types.
fn made(class: &str, args: &[(&str, &str)]) -> SeqRequest {
    let mut statements: Vec<Statement> = args
        .iter()
        .map(|(ty, v)| Statement::literal(ty, v))
        .collect();
    let params: Vec<&str> = args.iter().map(|(ty, _)| *ty).collect();
    let indices: Vec<usize> = (0..args.len()).collect();
    statements.push(Statement::new(class, &params, &indices));
    SeqRequest {
        statements,
        observers: vec![],
    }
}

#[test]
fn a_held_key_whose_hash_code_throws_or_overflows_the_stack_leaves_the_object_as_made() {
    let (pool, _classes) = pool();
    let class = "example.hostile.HeldTouchy";
    for overflow in ["false", "true"] {
        let what = format!("overflow {overflow}");
        made_object(
            &pool,
            made(class, &[("boolean", overflow)]),
            1,
            class,
            &what,
        );
    }
    assert_eq!(pool.stats().workers_started, 1, "{:?}", pool.stats());
}

#[test]
fn a_holder_whose_text_never_comes_times_out_and_the_worker_serves_on() {
    let classes = common::compile_fixtures("hostile");
    let config: PoolConfig = common::config(1, 2_000);
    let pool = common::pool("temurin17", &[classes.path().to_path_buf()], config);
    let spun = pool
        .run(&[made("example.hostile.HeldSpinner", &[])], false)
        .expect("pool runs")
        .remove(0);
    assert!(matches!(spun, SeqResult::Timeout { .. }), "{spun:?}");
    let next = pool
        .run(&[made("java.lang.StringBuilder", &[])], false)
        .expect("pool runs")
        .remove(0);
    assert!(matches!(next, SeqResult::Done { .. }), "{next:?}");
    let stats = pool.stats();
    assert_eq!(
        (stats.timeouts, stats.workers_started),
        (1, 1),
        "the spin was stopped, not the worker killed: {stats:?}"
    );
}
