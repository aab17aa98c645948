//! A substitution contained in another is the same change: `ZoneId.getId()` going from
//! `-10:00` to `Pacific/Honolulu` is one of the three changed stretches of the map that
//! lists the short zone ids. Each value difference's substitution is replaced by the widest
//! one that holds all its changed stretches, when no rule named its own change (a plain
//! value difference) and every stretch is telling (four or more characters changed), so
//! the container and the value it shows are one cause. A change a rule named (an invisible
//! character, a rendering) keeps it: it may sit inside a wider value next to another change.

use super::super::GroupReport;
use crate::triage::label::Label;
use std::collections::BTreeSet;

/// Fewest characters (removed and added) a changed stretch needs to tell a change apart.
const TELLING: usize = 4;

/// Each group's substitution, or the widest other substitution that contains all its
/// changed stretches (most stretches, then the greatest text, so the answer does not depend
/// on the groups' order).
pub(super) fn widest(
    groups: &[GroupReport],
    labels: &[(Label, Option<String>)],
    subs: &[Option<String>],
) -> Vec<Option<String>> {
    let sets: Vec<Option<BTreeSet<(String, String)>>> = groups
        .iter()
        .zip(subs)
        .map(|(g, sub)| {
            sub.as_ref()?;
            Some(
                crate::text::hunks(&g.ref_value, &g.tgt_value)
                    .into_iter()
                    .collect(),
            )
        })
        .collect();
    sets.iter()
        .zip(subs)
        .zip(labels)
        .map(|((set, sub), (label, _))| {
            let set = set.as_ref()?;
            if *label != Label::ValueDiffers {
                return sub.clone();
            }
            let telling = set
                .iter()
                .all(|(a, b)| a.chars().count() + b.chars().count() >= TELLING);
            if !telling {
                return sub.clone();
            }
            sets.iter()
                .zip(subs)
                .filter_map(|(other, s)| Some((other.as_ref()?, s.as_ref()?)))
                .filter(|(other, _)| other.is_superset(set))
                .max_by(|(a, x), (b, y)| (a.len(), x).cmp(&(b.len(), y)))
                .map(|(_, s)| s.clone())
        })
        .collect()
}
