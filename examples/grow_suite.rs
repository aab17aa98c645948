//! Writes a suite N times as large as a recorded one, for memory and throughput
//! measurements (README, Performance): every test is repeated N times under new ids, in
//! ascending id order, and the copy is shared (chunk by chunk) and sealed like any suite
//! difftest writes, as a suite N times as large would be.
//!
//! ```sh
//! cargo run --release --example grow_suite -- oracles/temurin17.yaml 4 /tmp/x4.yaml.zst
//! ```

use difftest::suite::read::{SuiteReader, collect};
use difftest::suite::{SuiteError, Writer, chunked};
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
    let n = suite.tests.len();
    let copy = |i: usize| {
        let mut t = suite.tests[i % n].clone();
        t.id += (i / n) as u64 * span;
        Ok::<_, SuiteError>(t)
    };
    let mut w = Writer::create(&to, &header, &suite.exceptions)?;
    chunked::write_tests(&mut w, tests as usize, copy)?;
    w.finish()?;
    println!("wrote {}: {tests} tests", to.display());
    Ok(())
}
