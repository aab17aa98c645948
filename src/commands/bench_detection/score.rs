//! The scores `bench detection` prints: per pair a table of the documented changes with
//! each variant's verdict, each variant's score on each half of the list, and how many
//! rows of a report show one found change.

use super::Variant;
use crate::detection::{self, Half, KnownChange, Scope, Verdict};
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};

pub fn mark(v: Verdict) -> &'static str {
    match v {
        Verdict::Found => "found",
        Verdict::Shown => "message only",
        Verdict::Missed => "-",
    }
}

/// How many table rows (causes) show each found change: the mean and the widest spread.
pub fn print_rows(pair: &str, variant: &str, items: &[&KnownChange], rows: &[usize]) {
    let found: Vec<(usize, &str)> = rows
        .iter()
        .zip(items)
        .filter(|(n, _)| **n > 0)
        .map(|(n, c)| (*n, c.id.as_str()))
        .collect();
    let Some(&(most, id)) = found.iter().max_by_key(|(n, _)| *n) else {
        return;
    };
    let total: usize = found.iter().map(|(n, _)| n).sum();
    outln!(
        "{pair} {variant}: rows per found change {:.2} ({total} rows for {} changes; at most {most}: {id})",
        total as f64 / found.len() as f64,
        found.len()
    );
}

/// The pair's table (one row per documented change, one column per variant) and each
/// variant's score on each half.
pub fn print_pair(
    pair: &str,
    items: &[&KnownChange],
    scope: &Scope,
    variants: &[Variant],
    columns: &[Vec<Verdict>],
    both: bool,
) {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec![
        "item".to_string(),
        "half".into(),
        "kind".into(),
        "in scope".into(),
    ];
    header.extend(variants.iter().map(|v| v.name.clone()));
    table.set_header(header);
    for (i, c) in items.iter().enumerate() {
        let mut row = vec![
            c.id.clone(),
            c.half.name().to_string(),
            format!("{:?}", c.kind).to_lowercase(),
            if scope.reaches(c) { "yes" } else { "no" }.to_string(),
        ];
        row.extend(columns.iter().map(|col| mark(col[i]).to_string()));
        table.add_row(row);
    }
    outln!("{pair}: {} documented changes\n{table}", items.len());
    let direction = if both {
        "both directions"
    } else {
        "old → new"
    };
    for (v, col) in variants.iter().zip(columns) {
        for half in Half::BOTH {
            outln!(
                "{pair} {} ({direction}) {}",
                v.name,
                score(half, items, scope, col)
            );
        }
    }
}

/// One half's score: found of the reachable items (added API, which only a reverse replay
/// shows, left out as before), and of all its items.
fn score(half: Half, items: &[&KnownChange], scope: &Scope, col: &[Verdict]) -> String {
    let found = |keep: &dyn Fn(&KnownChange) -> bool| {
        let of = items.iter().filter(|c| c.half == half && keep(c)).count();
        let hit = items
            .iter()
            .zip(col)
            .filter(|(c, verdict)| c.half == half && keep(c) && **verdict == Verdict::Found)
            .count();
        format!(
            "{hit}/{of} ({:.0} %)",
            100.0 * hit as f64 / of.max(1) as f64
        )
    };
    let in_scope = |c: &KnownChange| scope.reaches(c) && c.kind != detection::ChangeKind::Added;
    format!(
        "{}: found {} of the reachable in the default scope, {} of all",
        half.name(),
        found(&in_scope),
        found(&|_| true),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detection::ChangeKind;
    use crate::scope::OmitList;

    fn item(id: &str, half: Half, class: &str, kind: ChangeKind) -> KnownChange {
        KnownChange {
            id: id.into(),
            pair: "17-21".into(),
            half,
            kind,
            title: String::new(),
            source: String::new(),
            classes: vec![class.into()],
            callees: vec![format!("{class}.*")],
            before: None,
            after: None,
        }
    }

    #[test]
    fn each_half_is_scored_on_its_own_items() {
        let items = [
            item("a", Half::Tuning, "java.lang.Math", ChangeKind::Behaviour),
            item("b", Half::Tuning, "java.io.File", ChangeKind::Behaviour),
            item(
                "c",
                Half::Validation,
                "java.lang.Math",
                ChangeKind::Behaviour,
            ),
            item(
                "d",
                Half::Validation,
                "java.lang.Math",
                ChangeKind::Behaviour,
            ),
            item("e", Half::Validation, "java.lang.Math", ChangeKind::Added),
        ];
        let items: Vec<&KnownChange> = items.iter().collect();
        let omit = OmitList::default();
        let scope = Scope {
            packages: &["java.lang"],
            classes: &[],
            omit: &omit,
        };
        use Verdict::{Found, Missed};
        let col = [Found, Found, Missed, Found, Found];
        assert_eq!(
            score(Half::Tuning, &items, &scope, &col),
            "tuning: found 1/1 (100 %) of the reachable in the default scope, 2/2 (100 %) of all"
        );
        assert_eq!(
            score(Half::Validation, &items, &scope, &col),
            "validation: found 1/2 (50 %) of the reachable in the default scope, 2/3 (67 %) of all"
        );
    }
}
