//! Writes a suite N times as large as a recorded one, for memory and throughput
//! measurements (README, Performance): every test is repeated N times under new ids, in
//! ascending id order, and the copy is shared and sealed like any suite difftest writes
//! (so each copy names the blocks the first defined, as a suite N times as large would).
//!
//! ```sh
//! cargo run --release --example grow_suite -- oracles/temurin17.yaml 4 /tmp/x4.yaml.zst
//! ```

use difftest::suite::read::{SuiteReader, collect};
use difftest::suite::{Writer, share};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [from, times, to] = args.as_slice() else {
        return Err("usage: grow_suite SUITE N OUT".into());
    };
    let times: u64 = times.parse()?;
    let (from, to) = (PathBuf::from(from), PathBuf::from(to));
    let reader = SuiteReader::open(&from)?;
    let mut header = reader.header().clone();
    let suite = collect(reader)?;
    let span = suite.tests.iter().map(|t| t.id).max().unwrap_or(0) + 1;
    let tests = suite.tests.len() as u64 * times;
    header.counts.insert("tests".into(), tests);
    header.counts.insert("error-revealing".into(), 0);
    let copies = || {
        (0..times).flat_map(|copy| {
            suite.tests.iter().map(move |t| {
                let mut t = t.clone();
                t.id += copy * span;
                t
            })
        })
    };
    let mut counter = share::Counter::default();
    copies().for_each(|t| counter.add(&t));
    let mut planner = counter.planner();
    copies().for_each(|t| planner.add(&t));
    let mut w = Writer::create(&to, &header, &suite.exceptions)?;
    w.share(planner.finish());
    for copy in 0..times {
        for t in &suite.tests {
            let mut t = t.clone();
            t.id += copy * span;
            w.test(&t)?;
        }
    }
    w.finish()?;
    println!("wrote {}: {tests} tests", to.display());
    Ok(())
}
