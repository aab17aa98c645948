//! The *hash only* rule: a hash code, a hash-like hex word, or the order of a hash-based
//! collection is all that differs.

use super::Evidence;

/// Only a hash differs: the callee is a `hashCode()` (or `Objects.hash…`/`Arrays.hashCode`)
/// and both are integers — one change for every class, as hash codes are unspecified beyond
/// their consistency with `equals` — or every changed word is a
/// hex hash-like word (`0x1401ad8b`, `@1b6d3586`) — the change is the reference text with
/// those words masked (`hex hash words in "[checksum=#]"`), so the same text with other hashes
/// on other targets is the same change.
pub(super) fn hash_only(e: &Evidence) -> Option<String> {
    let method = e.callee.split('(').next().unwrap_or(e.callee);
    let (class, name) = method.rsplit_once('.').unwrap_or(("", method));
    let integers = e.ref_value.parse::<i64>().is_ok() && e.tgt_value.parse::<i64>().is_ok();
    let hashing = name == "hashCode" || name == "hash" || name == "identityHashCode";
    if hashing && integers && !class.is_empty() {
        return Some("hashCode() values".to_string());
    }
    if reordered(class, e.ref_value, e.tgt_value) {
        return Some("hash order: the same entries in another order".to_string());
    }
    let hunks = crate::report::text::hunks(e.ref_value, e.tgt_value);
    let hashlike = |w: &str| {
        let hex = w
            .strip_prefix("0x")
            .or_else(|| w.strip_prefix('@'))
            .unwrap_or(w);
        hex.len() >= 5
            && hex.chars().all(|c| c.is_ascii_hexdigit())
            && (w.starts_with("0x") || hex.chars().any(|c| c.is_ascii_alphabetic()))
    };
    let all_hash = !hunks.is_empty()
        && hunks.iter().all(|(gone, added)| {
            !gone.is_empty() && !added.is_empty() && hashlike(gone) && hashlike(added)
        });
    all_hash.then(|| {
        let masked = hunks
            .iter()
            .fold(e.ref_value.to_string(), |text, (gone, _)| {
                text.replacen(gone.as_str(), "#", 1)
            });
        format!(
            "hex hash words in {}",
            crate::report::text::shorten(&masked, 80)
        )
    })
}

/// The same entries in another order: a map's `{k=v, …}` text, or the `[…]` text of a class
/// whose name says it hashes (`HashSet`), with the same `, `-separated items — the order
/// a hash-based collection iterates in follows its elements' hash codes. Classes whose name
/// says they keep an order (`Tree…`, `Sorted…`, `Navigable…`, `Linked…`) are left out.
fn reordered(class: &str, old: &str, new: &str) -> bool {
    let inner = |s: &str, open: char, close: char| {
        let s = s
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or(s);
        s.strip_prefix(open)?
            .strip_suffix(close)
            .map(str::to_string)
    };
    let simple = class.rsplit('.').next().unwrap_or(class);
    let hashing = simple.contains("Hash");
    let ordered = ["Tree", "Sorted", "Navigable", "Linked"]
        .iter()
        .any(|w| simple.contains(w));
    let pairs = [('{', '}', !ordered), ('[', ']', hashing && !ordered)];
    pairs.iter().any(|&(open, close, allowed)| {
        let (Some(a), Some(b)) = (inner(old, open, close), inner(new, open, close)) else {
            return false;
        };
        let items = |s: &str| {
            let mut v: Vec<String> = s.split(", ").map(str::to_string).collect();
            v.sort();
            v
        };
        allowed && a != b && a.len() == b.len() && items(&a) == items(&b)
    })
}
