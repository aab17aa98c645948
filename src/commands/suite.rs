//! `difftest suite stats FILE`: what a suite holds — tests, statements, checks, size on
//! disk and uncompressed, and the classes its calls cover — counted by
//! [`crate::pipeline::suite_stats`] and printed here.

use crate::cli::SuiteCommand;
use crate::exit::Exit;
use crate::pipeline::suite_stats::suite_stats;

pub fn run(cmd: &SuiteCommand) -> anyhow::Result<Exit> {
    let SuiteCommand::Stats { file, classes } = cmd;
    let stats = suite_stats(file).map_err(|e| e.into_anyhow())?;
    let (size, compressed) = (stats.bytes, stats.compressed);
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    outln!("file: {}", file.display());
    outln!(
        "size: {:.1} MiB on disk{}",
        mib(size),
        if compressed { " (zstd)" } else { "" }
    );
    outln!(
        "tests: {} regression, {} error-revealing",
        stats.tests,
        stats.error_revealing
    );
    outln!(
        "statements: {} ({:.1} per test), {} checked values",
        stats.statements,
        stats.statements as f64 / (stats.tests + stats.error_revealing).max(1) as f64,
        stats.checks
    );
    let packages: std::collections::BTreeSet<&str> = stats
        .classes
        .keys()
        .map(|c| c.rsplit_once('.').map_or("", |(p, _)| p))
        .collect();
    outln!(
        "classes covered: {} in {} packages",
        stats.classes.len(),
        packages.len()
    );
    if *classes {
        for (class, n) in &stats.classes {
            outln!("  {class}  {n}");
        }
    }
    Ok(Exit::Success)
}
