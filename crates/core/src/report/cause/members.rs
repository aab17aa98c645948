//! Removed members of one API are one cause: `missing` differences whose missing class,
//! method, constructor or field belongs to one top-level class (`java.lang.Thread.suspend()`,
//! `java.lang.Thread.resume()`; `java.lang.StringTemplate` and its nested
//! `StringTemplate$Processor`), missing on the same side, join when the report shows more
//! than one such member. A lone missing member keeps its own change, so accepting it never
//! covers another member removed later.

use super::super::GroupReport;
use crate::compare::Kind;
use crate::sequence::Observed;
use crate::triage::label::Label;
use std::collections::{BTreeMap, BTreeSet};

/// The joined label and change of each group: a missing member's change becomes
/// `CLASS: members missing on the target` (or `on the reference`) when two or more
/// distinct members of CLASS are missing on that side.
pub(super) fn removed_members(
    groups: &[GroupReport],
    joined: Vec<(Label, Option<String>)>,
) -> Vec<(Label, Option<String>)> {
    let keys: Vec<Option<(String, &str)>> = groups
        .iter()
        .zip(&joined)
        .map(|(g, (label, _))| key(g, *label))
        .collect();
    let mut members: BTreeMap<&(String, &str), BTreeSet<&str>> = BTreeMap::new();
    for (key, g) in keys.iter().zip(groups) {
        if let (Some(k), Some(what)) = (key, missing_what(g)) {
            members.entry(k).or_default().insert(what);
        }
    }
    keys.iter()
        .zip(joined)
        .map(|(key, (label, change))| match key {
            Some(k) if members[k].len() > 1 => (
                label,
                Some(format!("{}: members missing on the {}", k.0, k.1)),
            ),
            _ => (label, change),
        })
        .collect()
}

/// The top-level class a missing-API group's missing member belongs to, and the side it is
/// missing on.
fn key(g: &GroupReport, label: Label) -> Option<(String, &'static str)> {
    if g.kind != Kind::Missing || label != Label::ApiMissing {
        return None;
    }
    let side = match (&g.ref_observed, &g.tgt_observed) {
        (Some(Observed::Missing { .. }), Some(Observed::Missing { .. })) => return None,
        (_, Some(Observed::Missing { .. })) => "target",
        (Some(Observed::Missing { .. }), _) => "reference",
        _ => return None,
    };
    Some((top_level_class(missing_what(g)?)?, side))
}

/// The `what` of the side that lacks the member (`method java.lang.Thread.suspend()`).
fn missing_what(g: &GroupReport) -> Option<&str> {
    [&g.tgt_observed, &g.ref_observed]
        .into_iter()
        .find_map(|o| match o {
            Some(Observed::Missing { what }) => Some(what.as_str()),
            _ => None,
        })
}

/// The top-level class of a missing member: `class a.B$C` → `a.B`, `method a.B.m(int)`,
/// `constructor a.B(int)` and `field a.B.F` → `a.B`. `None` for anything else (a refused
/// reflective call).
pub(super) fn top_level_class(what: &str) -> Option<String> {
    let (kind, name) = what.split_once(' ')?;
    let name = name.split('(').next().unwrap_or(name);
    let class = match kind {
        "class" | "constructor" => name,
        "method" | "field" => name.rsplit_once('.')?.0,
        _ => return None,
    };
    let top = class.split('$').next().unwrap_or(class);
    let top = top.trim_end_matches("[]");
    (!top.is_empty() && !top.ends_with('.')).then(|| top.to_string())
}

#[cfg(test)]
mod tests {
    use super::top_level_class;

    #[test]
    fn a_missing_member_belongs_to_its_top_level_class() {
        let top = |w: &str| top_level_class(w);
        assert_eq!(
            top("method java.lang.Thread.suspend()").unwrap(),
            "java.lang.Thread"
        );
        assert_eq!(
            top("class java.lang.StringTemplate$Processor").unwrap(),
            "java.lang.StringTemplate"
        );
        assert_eq!(top("constructor a.B$C(int,a.D)").unwrap(), "a.B");
        assert_eq!(top("field a.B.F").unwrap(), "a.B");
        assert_eq!(top("method a.B.m(java.lang.String)").unwrap(), "a.B");
        assert_eq!(
            top("invalid call: java.lang.IllegalArgumentException: x"),
            None
        );
        assert_eq!(top("class Unqualified").unwrap(), "Unqualified");
        assert_eq!(top("class "), None);
    }
}
