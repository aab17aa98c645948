//! The *hash only* rule: a hash code, an identity hash, or the order of a hash-based
//! collection is all that differs. The label is earned by what the value is — the result of
//! a hashing method, a field named as a hash, an identity hash in `Class@hex` — never by a
//! word that merely looks hexadecimal (a tz version `2023c`, a data checksum).

use super::Evidence;

/// Only a hash differs: the callee is a hashing method (`hashCode`, `Objects.hash`,
/// `identityHashCode`) or a field named as a hash (`hash`, `hashCode`) and both are
/// integers — one change for every class, as hash codes are unspecified beyond their
/// consistency with `equals` — or every changed word is an identity hash (`@1b6d3586`) or
/// the value of a field named as a hash (`hash=0x1401ad8b`) — the change is the reference
/// text with those words masked (`hash words in "[hash=#]"`), so the same text with other
/// hashes on other targets is the same change.
pub(super) fn hash_only(e: &Evidence) -> Option<String> {
    let method = e.callee.split('(').next().unwrap_or(e.callee);
    let (class, name) = method.rsplit_once('.').unwrap_or(("", method));
    let integers = e.ref_value.parse::<i64>().is_ok() && e.tgt_value.parse::<i64>().is_ok();
    if is_hashing(name) && integers && !class.is_empty() {
        return Some("hashCode() values".to_string());
    }
    if reordered(class, e.ref_value, e.tgt_value) {
        return Some("hash order: the same entries in another order".to_string());
    }
    hash_words(e.ref_value, e.tgt_value)
}

/// Whether a method or field name says its value is a hash: `hashCode`, `hash`,
/// `identityHashCode`, `deepHashCode`, a `hash` field.
pub(super) fn is_hashing(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "hash" || lower.ends_with("hashcode")
}

/// Every changed word is a hash by its place in the text: right after `@` (the identity
/// hash `Object.toString()` prints) or after `hash=`/`hashCode=`/`hash: ` (a field named as
/// a hash). The change is the reference text with those words masked.
fn hash_words(old: &str, new: &str) -> Option<String> {
    let hunks = crate::text::hunk_spans(old, new);
    let hex = |w: &str| {
        let digits = w.strip_prefix("0x").unwrap_or(w);
        !digits.is_empty() && digits.chars().all(|c| c.is_ascii_hexdigit())
    };
    let placed = |text: &str, at: usize, word: &str| hex(word) && names_a_hash(&text[..at]);
    let all_hash = !hunks.is_empty()
        && hunks
            .iter()
            .all(|h| placed(old, h.old_at, &h.gone) && placed(new, h.new_at, &h.added));
    all_hash.then(|| {
        let mut masked = old.to_string();
        for h in hunks.iter().rev() {
            masked.replace_range(h.old_at..h.old_at + h.gone.len(), "#");
        }
        format!("hash words in {}", crate::text::shorten(&masked, 80))
    })
}

/// Whether the text before a word places it as a hash: `…@`, `…hash=`, `…hashCode=`,
/// `…hash: ` (any case).
fn names_a_hash(before: &str) -> bool {
    if before.ends_with('@') {
        return true;
    }
    let trimmed = before.trim_end_matches([' ', '=', ':']);
    if trimmed.len() == before.len() {
        return false;
    }
    let name_start = trimmed
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    is_hashing(&trimmed[name_start..])
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
