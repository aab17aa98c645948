//! `difftest bench record`: one full record on the default JDK scope into a temporary
//! folder, then a load of the suite it wrote; prints the figures the README tracks.

use super::record;
use crate::cli::{GlobalArgs, PoolArgs, RecordArgs};
use crate::exit::Exit;
use crate::suite::Suite;
use std::time::Instant;

pub fn run(
    global: &GlobalArgs,
    target: String,
    time_limit: f64,
    reruns: usize,
    pool: PoolArgs,
) -> anyhow::Result<Exit> {
    let dir = tempfile::tempdir()?;
    let output = dir.path().join("bench.yaml");
    let args = RecordArgs {
        reference: target.clone(),
        classes: Vec::new(),
        packages: Vec::new(),
        class_list: None,
        omit: Vec::new(),
        omit_replace: None,
        skip_deprecated_for_removal: false,
        keep_all: false,
        time_limit,
        output_limit: None,
        seed: 0,
        reruns,
        output: Some(output.clone()),
        compress: false,
        literals_file: None,
        observers: None,
        null_ratio: 0.0,
        mined_literal_ratio: crate::generate::DEFAULT_MINED_RATIO,
        no_mined_literals: false,
        edge_ratio: crate::generate::DEFAULT_EDGE_RATIO,
        no_edge_values: false,
        harvest: false,
        no_harvest: false,
        declared_observers: false,
        twin_ratio: crate::generate::DEFAULT_TWIN_RATIO,
        repeat_probability: 0.1,
        repeat_max: 100,
        max_size: 100,
        round_size: 400,
        errors_per_group: 1,
        no_progress: true,
        pool,
    };
    let outcome = record(global, &args)?;
    let began = Instant::now();
    let suite = Suite::load(&output)?;
    let load = began.elapsed();
    let bytes = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
    let secs = outcome.generation.as_secs_f64().max(1e-3);
    println!("target:                {target}");
    println!(
        "sequences executed/s:  {:.0}",
        outcome.executed as f64 / secs
    );
    println!(
        "regression tests kept: {} (+{} error-revealing)",
        outcome.tests, outcome.errors
    );
    println!(
        "{reruns} reruns:            {:.1} s",
        outcome.reruns.as_secs_f64()
    );
    println!("peak RSS, all:         {} MiB", outcome.peak_rss_kib / 1024);
    println!(
        "suite:                 {} MiB, loads in {:.2} s ({} tests)",
        bytes >> 20,
        load.as_secs_f64(),
        suite.tests.len()
    );
    Ok(Exit::Success)
}
