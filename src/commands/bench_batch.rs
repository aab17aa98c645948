//! The batch of `bench workers`: ten-statement sequences over `java.util`, run on warm
//! workers for the raw statement rate that `bench workers` prints and `bench record` sets
//! beside generation's.

use crate::message::SeqRequest;
use crate::pool::Pool;
use crate::sequence::{Statement, names};
use std::time::Instant;

/// Statements executed and seconds taken by `batch` ([`java_util_batch`]) on warm workers:
/// the raw rate that `bench workers` prints and `bench record` sets beside generation's.
pub fn raw_run(pool: &Pool, batch: &[SeqRequest]) -> anyhow::Result<(usize, f64)> {
    // Warm up every worker (JIT, class loading), then measure a full run.
    pool.run(&batch[..batch.len().min(2000)], false)?;
    let began = Instant::now();
    let results = pool.run(batch, false)?;
    let secs = began.elapsed().as_secs_f64().max(1e-3);
    Ok((results.len() * 10, secs))
}

/// `n` ten-statement sequences over ArrayList, HashMap and StringBuilder.
pub fn java_util_batch(n: usize) -> Vec<SeqRequest> {
    (0..n).map(one_sequence).collect()
}

fn one_sequence(i: usize) -> SeqRequest {
    let lit = |ty: &str, v: String| Statement::Literal {
        ty: ty.into(),
        value: v.into(),
    };
    let call = |class: &str, method: &str, params: &[&str], recv: usize, args: Vec<usize>| {
        Statement::Call {
            class: class.into(),
            method: method.into(),
            params: names(params),
            receiver: Some(recv),
            args,
        }
    };
    let new = |class: &str| Statement::New {
        class: class.into(),
        params: vec![],
        args: vec![],
    };
    let (list, map) = ("java.util.ArrayList", "java.util.HashMap");
    let obj = "java.lang.Object";
    let statements = vec![
        new(list),
        lit("java.lang.String", format!("s{}", i % 97)),
        call(list, "add", &[obj], 0, vec![1]),
        lit("int", (i % 5).to_string()),
        call(list, "add", &[obj], 0, vec![3]),
        call(list, "size", &[], 0, vec![]),
        new(map),
        call(map, "put", &[obj, obj], 6, vec![1, 3]),
        call(map, "containsKey", &[obj], 6, vec![1]),
        call(list, "toString", &[], 0, vec![]),
    ];
    SeqRequest {
        statements,
        observers: vec![],
    }
}
