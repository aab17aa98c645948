//! `difftest bench attribute`: where a worker's time per test goes in a replay — the first
//! tests of a suite run as replay's first pass runs them, with the workers timing each part
//! (`replay::attribute`); prints the parts, then the top callees, observers and rendered
//! classes by total time, with counts.

use super::{pool_config, store};
use crate::cli::{BenchAttributeArgs, GlobalArgs};
use crate::exit::{Exit, bad_input};
use crate::replay::attribute::{Attribution, Total, attribute};

pub fn run(global: &GlobalArgs, args: &BenchAttributeArgs) -> anyhow::Result<Exit> {
    let store = store(global)?;
    let spec = store
        .load(&args.target)
        .map_err(|e| bad_input(e.to_string()))?;
    let provisioned = store.provision(&spec)?;
    let config = pool_config(&args.pool)?;
    let a = attribute(
        &args.suite,
        &args.target,
        &provisioned.jvm,
        config,
        args.tests,
        args.segment,
    )?;
    print(&a, args.top);
    Ok(Exit::Success)
}

const PARTS: [&str; 12] = [
    "decode",
    "resolve",
    "statement",
    "exception render",
    "render",
    "array digest",
    "observer lookup",
    "observer",
    "observer render",
    "contracts",
    "answer",
    "run",
];

fn print(a: &Attribution, top: usize) {
    outln!(
        "{} tests ({} statements, {} observers; {} differing) in {} segments on {} workers, wall {:.1} s",
        a.tests,
        a.statements,
        a.observers,
        a.differing,
        a.segments,
        a.workers,
        a.wall.as_secs_f64()
    );
    let call = a.part_total("worker").1; // summed below per worker part
    let (measured, jni) = a
        .parts
        .get("worker")
        .and_then(|w| w.get("jni call"))
        .copied()
        .unwrap_or_default();
    let per_test = |ns: u64| ns as f64 / 1e3 / measured.max(1) as f64;
    outln!(
        "{measured} tests timed ({} workers replaced after a hang or crash: their tests are not in the tables)",
        a.workers - a.segments as u64
    );
    outln!("\nworker, Rust side (µs per test timed; share of the worker's time):");
    if let Some(worker) = a.parts.get("worker") {
        for (name, &(count, ns)) in worker {
            outln!(
                "  {name:<18} {:>9.1} µs {:>6.1} %  ({count} sections)",
                per_test(ns),
                share(ns, call)
            );
        }
    }
    outln!("\nagent, Java side (µs per test timed; share of the JNI calls' time):");
    for part in PARTS {
        let (count, ns) = a.part_total(part);
        outln!(
            "  {part:<18} {:>9.1} µs {:>6.1} %  ({count} sections)",
            per_test(ns),
            share(ns, jni)
        );
    }
    if let Some(jvm) = a.parts.get("jvm") {
        outln!("\nJVM counters, summed over the workers (ms; classes a count):");
        for (name, &(_, v)) in jvm {
            match name.as_str() {
                "classes loaded" => outln!("  {name:<18} {v}"),
                _ => outln!("  {name:<18} {:>9.0} ms", v as f64 / 1e6),
            }
        }
    }
    if let Some(&(sections, cost)) = a.parts.get("timing").and_then(|t| t.get("sections")) {
        let workers = a.workers.max(1);
        outln!(
            "\ntiming's own cost: {sections} sections at about {} ns each (calibrated per worker, mean) = {:.1} µs per test",
            cost / workers,
            per_test(sections * (cost / workers))
        );
    }
    outln!(
        "\nsupervisor: waited {:.1} s for answers, compared for {:.2} s (summed over segments)",
        a.waiting.as_secs_f64(),
        a.comparing.as_secs_f64()
    );
    for (part, title) in [
        ("statement", "statements by callee"),
        ("observer", "observers by callee"),
        ("render", "statement values rendered, by class"),
        ("observer render", "observer values rendered, by class"),
        ("exception render", "exceptions rendered, by class"),
        ("contracts", "contracts, by class"),
    ] {
        table(a, part, title, top, jni);
    }
}

fn table(a: &Attribution, part: &str, title: &str, top: usize, jni: u64) {
    let rows: Vec<(&str, Total)> = a.top(part, top);
    if rows.is_empty() {
        return;
    }
    outln!(
        "\ntop {} {title} (total ms, count, µs each, share of JNI time):",
        rows.len()
    );
    for (key, (count, ns)) in rows {
        outln!(
            "  {:>9.1} ms {count:>9} {:>9.1} µs {:>6.2} %  {key}",
            ns as f64 / 1e6,
            ns as f64 / 1e3 / count.max(1) as f64,
            share(ns, jni)
        );
    }
}

fn share(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}
