//! JaCoCo's CSV report (one row per class) summed into branch coverage per package of the
//! scope, and the lines the record summary prints.

use super::is_unmeasured;
use std::collections::{BTreeMap, BTreeSet};

/// Branches of one package: covered of total; `measured` false for a package the agent
/// never instruments ([`super::UNMEASURED`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageCoverage {
    /// The package's name.
    pub package: String,
    /// Lines covered.
    pub covered: u64,
    /// Lines in the package's classes.
    pub total: u64,
    /// Whether JaCoCo measured the package at all.
    pub measured: bool,
}

/// Columns the summary lines fit in.
const WIDTH: usize = 100;

/// The rows of `csv` summed per package, for each package of `scope` (one with no row, or
/// no branch, counts 0 of 0); sorted by package name. Classes the agent never instruments
/// are left out of their package's sums.
pub(super) fn per_package(
    csv: &str,
    scope: &BTreeSet<String>,
) -> Result<Vec<PackageCoverage>, String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("no {name} column"))
    };
    let (package, class, missed, covered) = (
        column("PACKAGE")?,
        column("CLASS")?,
        column("BRANCH_MISSED")?,
        column("BRANCH_COVERED")?,
    );
    let mut sums: BTreeMap<&str, (u64, u64)> = scope.iter().map(|p| (p.as_str(), (0, 0))).collect();
    for (n, line) in lines.enumerate().filter(|(_, l)| !l.is_empty()) {
        let fields: Vec<&str> = line.split(',').collect();
        let number = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<u64>().ok())
                .ok_or_else(|| format!("line {}: not a JaCoCo class row", n + 2))
        };
        let name = fields.get(package).copied().unwrap_or_default();
        let simple = fields.get(class).copied().unwrap_or_default();
        if is_unmeasured(&format!("{name}.{simple}")) {
            continue;
        }
        if let Some(sum) = sums.get_mut(name) {
            let (m, c) = (number(missed)?, number(covered)?);
            *sum = (sum.0 + c, sum.1 + m + c);
        }
    }
    Ok(sums
        .into_iter()
        .map(|(p, (covered, total))| PackageCoverage {
            package: p.to_string(),
            covered,
            total,
            measured: !is_unmeasured(p),
        })
        .collect())
}

/// A line per package (`  java.util   1234 / 5678 branches  21.7 %`, or `not instrumented`),
/// then the total of the measured ones; package names cut to fit [`WIDTH`] columns.
pub fn coverage_lines(rows: &[PackageCoverage]) -> Vec<String> {
    let counts = |covered: u64, total: u64| {
        let pct = match total {
            0 => "    -".to_string(),
            t => format!("{:5.1}", covered as f64 * 100.0 / t as f64),
        };
        format!("{covered:>7} / {total:<7} branches {pct} %")
    };
    let room = WIDTH - 4 - counts(0, 0).len();
    let longest = rows.iter().map(|r| r.package.len()).max().unwrap_or(0);
    let width = longest.clamp(5, room);
    let mut lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let what = match r.measured {
                true => counts(r.covered, r.total),
                false => "not instrumented".to_string(),
            };
            format!("  {:<width$}  {what}", cut(&r.package, width))
        })
        .collect();
    let (covered, total) = rows
        .iter()
        .filter(|r| r.measured)
        .fold((0, 0), |(c, t), r| (c + r.covered, t + r.total));
    lines.push(format!("  {:<width$}  {}", "total", counts(covered, total)));
    lines
}

/// `text` in at most `width` characters, its start replaced by `…` when longer.
fn cut(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    match chars.len() <= width {
        true => text.to_string(),
        false => format!(
            "…{}",
            chars[chars.len() - (width - 1)..]
                .iter()
                .collect::<String>()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "GROUP,PACKAGE,CLASS,INSTRUCTION_MISSED,INSTRUCTION_COVERED,BRANCH_MISSED,BRANCH_COVERED,LINE_MISSED\n\
        r,java.util,A,1,2,10,5,0\n\
        r,java.util,B,1,2,4,1,0\n\
        r,java.text,C,1,2,3,0,0\n\
        r,java.lang,ClassValue.ClassValueMap,1,2,7,7,0\n\
        r,java.lang,Character,1,2,3,1,0\n\
        r,java.lang.invoke,MethodHandle,1,2,3,1,0\n";

    #[test]
    fn rows_are_summed_per_package_of_the_scope_only() {
        let scope: BTreeSet<String> = ["java.util".to_string(), "java.time".to_string()].into();
        let rows = per_package(CSV, &scope).unwrap();
        let got: Vec<(&str, u64, u64)> = rows
            .iter()
            .map(|r| (r.package.as_str(), r.covered, r.total))
            .collect();
        assert_eq!(got, [("java.time", 0, 0), ("java.util", 6, 20)]);
    }

    #[test]
    fn classes_and_packages_never_instrumented_are_not_counted() {
        let scope: BTreeSet<String> =
            ["java.lang".to_string(), "java.lang.invoke".to_string()].into();
        let rows = per_package(CSV, &scope).unwrap();
        let got: Vec<(&str, u64, u64, bool)> = rows
            .iter()
            .map(|r| (r.package.as_str(), r.covered, r.total, r.measured))
            .collect();
        assert_eq!(
            got,
            [("java.lang", 1, 4, true), ("java.lang.invoke", 0, 0, false)]
        );
        let lines = coverage_lines(&rows);
        assert!(lines[1].ends_with("not instrumented"), "{lines:#?}");
        assert!(lines[2].contains("1 / 4"), "{lines:#?}");
    }

    #[test]
    fn a_damaged_report_is_an_error_naming_the_line() {
        let scope: BTreeSet<String> = ["java.util".to_string()].into();
        let bad = "GROUP,PACKAGE,CLASS,BRANCH_MISSED,BRANCH_COVERED\nr,java.util,A,x,1\n";
        assert_eq!(
            per_package(bad, &scope).unwrap_err(),
            "line 2: not a JaCoCo class row"
        );
        assert!(per_package("nonsense\n", &scope).is_err());
    }

    #[test]
    fn lines_fit_in_100_columns_with_a_total() {
        let rows = vec![
            PackageCoverage {
                package: "p".repeat(150),
                covered: 1,
                total: 4,
                measured: true,
            },
            PackageCoverage {
                package: "java.util".into(),
                covered: 0,
                total: 0,
                measured: true,
            },
        ];
        let lines = coverage_lines(&rows);
        assert!(lines.iter().all(|l| l.chars().count() <= 100), "{lines:#?}");
        assert!(lines[0].contains("1 / 4") && lines[0].contains("25.0 %"));
        assert!(lines[1].contains("-"));
        assert!(lines[2].starts_with("  total") && lines[2].contains("1 / 4"));
    }
}
