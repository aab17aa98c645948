//! `difftest suite stats FILE`: what a suite holds — tests, statements, checks, size on
//! disk and uncompressed, and the classes its calls cover — read as a stream and verified
//! to the end like any suite difftest reads.

use crate::cli::SuiteCommand;
use crate::exit::{Exit, bad_input};
use crate::sequence::Statement;
use crate::suite::entries::Item;
use crate::suite::file::SuiteFile;
use crate::suite::read::{SuiteReader, verify};
use std::collections::BTreeMap;
use std::path::Path;

/// What `suite stats` counts.
#[derive(Default, Debug, PartialEq)]
pub struct SuiteStats {
    pub tests: u64,
    pub error_revealing: u64,
    pub statements: u64,
    /// Checked values: expected steps and observations.
    pub checks: u64,
    /// Calls, constructions and field reads per class.
    pub classes: BTreeMap<String, u64>,
}

impl SuiteStats {
    fn add(&mut self, statements: &[Statement]) {
        self.statements += statements.len() as u64;
        for s in statements {
            if matches!(
                s,
                Statement::New { .. } | Statement::Call { .. } | Statement::Field { .. }
            ) {
                *self.classes.entry(s.class_name().to_string()).or_default() += 1;
            }
        }
    }

    /// Verifies a suite whole, then reads it again, counting as it goes.
    pub fn of(path: &Path) -> Result<(SuiteStats, bool), crate::suite::SuiteError> {
        let file = SuiteFile::open(path)?;
        verify(&file, |_| true)?;
        let reader = SuiteReader::of(&file)?;
        let compressed = reader.compressed();
        let mut stats = SuiteStats::default();
        reader.for_each(|item| {
            match item {
                Item::Test(t) => {
                    stats.tests += 1;
                    stats.checks += t.check_count() as u64;
                    stats.add(&t.statements);
                }
                Item::Error(e) => {
                    stats.error_revealing += 1;
                    stats.add(&e.statements);
                }
            }
            Ok(())
        })?;
        Ok((stats, compressed))
    }
}

pub fn run(cmd: &SuiteCommand) -> anyhow::Result<Exit> {
    let SuiteCommand::Stats { file, classes } = cmd;
    let (stats, compressed) = SuiteStats::of(file).map_err(|e| bad_input(e.to_string()))?;
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    println!("file: {}", file.display());
    println!(
        "size: {:.1} MiB on disk{}",
        mib(size),
        if compressed { " (zstd)" } else { "" }
    );
    println!(
        "tests: {} regression, {} error-revealing",
        stats.tests, stats.error_revealing
    );
    println!(
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
    println!(
        "classes covered: {} in {} packages",
        stats.classes.len(),
        packages.len()
    );
    if *classes {
        for (class, n) in &stats.classes {
            println!("  {class}  {n}");
        }
    }
    Ok(Exit::Success)
}
