//! `suite stats`: what a suite holds — tests, statements, checks, size on disk, the classes
//! its calls cover — verified whole first, then read as a stream like any suite difftest
//! reads.

use super::Error;
use crate::sequence::Statement;
use crate::suite::entries::Item;
use crate::suite::file::SuiteFile;
use crate::suite::read::{SuiteReader, verify};
use std::collections::BTreeMap;
use std::path::Path;

/// What `suite stats` counts.
#[derive(Default, Debug, PartialEq)]
pub struct SuiteStats {
    /// Regression tests.
    pub tests: u64,
    /// Error-revealing tests.
    pub error_revealing: u64,
    /// Statements of both kinds of test.
    pub statements: u64,
    /// Checked values: expected steps and observations.
    pub checks: u64,
    /// Calls, constructions and field reads per class.
    pub classes: BTreeMap<String, u64>,
    /// The file is zstd-compressed.
    pub compressed: bool,
    /// The file's size on disk (0 when it cannot be read after the counting).
    pub bytes: u64,
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
}

/// Verifies the suite at `path` whole, then reads it again, counting as it goes; a suite
/// that cannot be read is bad input.
pub fn suite_stats(path: &Path) -> Result<SuiteStats, Error> {
    let bad = |e: crate::suite::SuiteError| Error::BadInput(e.to_string());
    let file = SuiteFile::open(path).map_err(bad)?;
    verify(&file, |_| true).map_err(bad)?;
    let reader = SuiteReader::of(&file).map_err(bad)?;
    let mut stats = SuiteStats {
        compressed: reader.compressed(),
        ..SuiteStats::default()
    };
    reader
        .for_each(|item| {
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
        })
        .map_err(bad)?;
    stats.bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    Ok(stats)
}
