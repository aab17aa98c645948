//! The *hash only* rule: a hash code or hash-like hex word is all that differs.

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
