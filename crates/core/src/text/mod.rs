//! Text for people: values made visible (every character outside printable ASCII as
//! `\uXXXX`, so `12:00 AM` and `12:00\u202FAM` look different), inline diffs of long values
//! with `similar` (`[-removed-]{+added+}`, an escape sequence counting as one character),
//! and shortening that keeps the interesting part.

pub(crate) use difftest_base::line::{clip, escaped_line};

use crate::sequence::Observed;
use similar::{Algorithm, DiffOp, capture_diff_slices};
use std::fmt::Write as _;

/// Values at least this long are shown as an inline diff against the reference's value.
pub(crate) const DIFF_FROM: usize = 16;

/// `s` with every character outside printable ASCII (and every control character) written
/// as `\uXXXX` (UTF-16 units). Already escaped text stays as it is.
pub(crate) fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            out.push(c);
        } else {
            let mut buf = [0u16; 2];
            for u in c.encode_utf16(&mut buf) {
                let _ = write!(out, "\\u{u:04X}");
            }
        }
    }
    out
}

/// A one-line rendering of an outcome for tables and reports.
pub(crate) fn show(observed: Option<&Observed>, detail: Option<&str>, absent: &str) -> String {
    match (observed, detail) {
        (Some(o), _) => visible(&o.render()),
        (None, Some(d)) => visible(d),
        (None, None) => absent.to_string(),
    }
}

/// Splits escaped text into diff tokens: runs of ASCII letters and digits (words), and
/// single display units otherwise (`\uXXXX`, `\n`-style pairs, one character).
fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_ascii_alphanumeric() {
            rest.find(|x: char| !x.is_ascii_alphanumeric())
                .unwrap_or(rest.len())
        } else if c == '\\' {
            match rest.as_bytes().get(1) {
                Some(b'u') if rest.len() >= 6 && rest.is_char_boundary(6) => 6,
                Some(_) if rest.is_char_boundary(2) => 2,
                _ => 1,
            }
        } else {
            c.len_utf8()
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

/// One stretch of a word diff: tokens both values share, or tokens one lost and the other
/// gained (either side may be empty).
enum Stretch<'a> {
    Same(&'a [&'a str]),
    Changed(&'a [&'a str], &'a [&'a str]),
}

/// The word diff of two token lists, in order.
fn stretches<'a>(a: &'a [&'a str], b: &'a [&'a str]) -> Vec<Stretch<'a>> {
    capture_diff_slices(Algorithm::Myers, a, b)
        .into_iter()
        .map(|op| match op {
            DiffOp::Equal { old_index, len, .. } => Stretch::Same(&a[old_index..old_index + len]),
            DiffOp::Delete {
                old_index, old_len, ..
            } => Stretch::Changed(&a[old_index..old_index + old_len], &b[..0]),
            DiffOp::Insert {
                new_index, new_len, ..
            } => Stretch::Changed(&a[..0], &b[new_index..new_index + new_len]),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => Stretch::Changed(
                &a[old_index..old_index + old_len],
                &b[new_index..new_index + new_len],
            ),
        })
        .collect()
}

/// Characters the tokens show as.
fn shown(tokens: &[&str]) -> usize {
    tokens.iter().map(|t| weight(t)).sum()
}

/// `new` as an inline diff against `old` (`[-gone-]{+added+}` around what changed, word by
/// word), or `None` when the two have too little in common for a diff to help.
pub(crate) fn inline_diff(old: &str, new: &str) -> Option<String> {
    let (a, b) = (tokens(old), tokens(new));
    let mut out = String::new();
    let (mut hunks, mut common) = (0, 0);
    for stretch in stretches(&a, &b) {
        match stretch {
            Stretch::Same(same) => {
                common += shown(same);
                out.extend(same.iter().copied());
            }
            Stretch::Changed(gone, added) => {
                hunks += 1;
                if !gone.is_empty() {
                    push_marked(&mut out, "[-", gone, "-]");
                }
                if !added.is_empty() {
                    push_marked(&mut out, "{+", added, "+}");
                }
            }
        }
    }
    let readable = hunks <= 3 && common * 2 >= shown(&a).max(shown(&b));
    readable.then_some(out)
}

/// What changed from `old` to `new`, as the changed hunks only (`-0x1401ad8b+0x4e3f7184`),
/// when that is distinctive enough to recognise the same change in another value: both
/// values share at least half their text and 8 characters, or the hunks themselves come to
/// 4 characters or more. `None` otherwise (`1` → `2` says nothing about its cause). A hunk
/// that repeats is named once (in order of first appearance): `<a>` → `&lt;a&gt;` and
/// `<a><b>` → `&lt;a&gt;&lt;b&gt;` are the same substitution, however often the value
/// makes it.
pub(crate) fn change(old: &str, new: &str) -> Option<String> {
    let (a, b) = (tokens(old), tokens(new));
    let (mut hunks, mut common, mut changed) = (Vec::<String>::new(), 0, 0);
    for stretch in stretches(&a, &b) {
        match stretch {
            Stretch::Same(same) => common += shown(same),
            Stretch::Changed(gone, added) => {
                changed += shown(gone) + shown(added);
                let hunk = format!("-{}+{}", gone.concat(), added.concat());
                if !hunks.contains(&hunk) {
                    hunks.push(hunk);
                }
            }
        }
    }
    let shared = common >= 8 && common * 2 >= shown(&a).max(shown(&b));
    let readable = !hunks.is_empty() && hunks.len() <= 3;
    (readable && (shared || changed >= 4)).then(|| hunks.join(" "))
}

/// The changed stretches of a word diff from `old` to `new`, as (removed, added) texts.
pub(crate) fn hunks(old: &str, new: &str) -> Vec<(String, String)> {
    let (a, b) = (tokens(old), tokens(new));
    stretches(&a, &b)
        .into_iter()
        .filter_map(|s| match s {
            Stretch::Same(_) => None,
            Stretch::Changed(gone, added) => Some((gone.concat(), added.concat())),
        })
        .collect()
}

/// One changed stretch of a word diff with where it sits: the removed text at byte
/// `old_at` of the old value, the added text at byte `new_at` of the new one.
pub(crate) struct HunkSpan {
    pub gone: String,
    pub added: String,
    pub old_at: usize,
    pub new_at: usize,
}

/// The changed stretches of a word diff from `old` to `new`, with their byte offsets.
pub(crate) fn hunk_spans(old: &str, new: &str) -> Vec<HunkSpan> {
    let (a, b) = (tokens(old), tokens(new));
    let (mut old_at, mut new_at) = (0, 0);
    let mut out = Vec::new();
    for stretch in stretches(&a, &b) {
        match stretch {
            Stretch::Same(same) => {
                let len: usize = same.iter().map(|t| t.len()).sum();
                old_at += len;
                new_at += len;
            }
            Stretch::Changed(gone, added) => {
                let (gone, added) = (gone.concat(), added.concat());
                out.push(HunkSpan {
                    old_at,
                    new_at,
                    gone: gone.clone(),
                    added: added.clone(),
                });
                old_at += gone.len();
                new_at += added.len();
            }
        }
    }
    out
}

/// How many characters a token shows as: an escape sequence counts as one.
fn weight(token: &str) -> usize {
    if token.starts_with('\\') {
        1
    } else {
        token.chars().count()
    }
}

fn push_marked(out: &mut String, open: &str, parts: &[&str], close: &str) {
    out.push_str(open);
    out.extend(parts.iter().copied());
    out.push_str(close);
}

/// The target's value for display: an inline diff when both are long and it is readable.
pub(crate) fn target_cell(reference: &str, target: &str) -> String {
    let long = reference.len() >= DIFF_FROM && target.len() >= DIFF_FROM;
    match inline_diff(reference, target) {
        Some(diff) if long && reference != target => diff,
        _ => target.to_string(),
    }
}

/// At most `max` characters: long runs between diff markers are cut in the middle.
pub fn shorten(s: &str, max: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= max {
        return s.to_string();
    }
    let first_mark = s.find(['[', '{']).map_or(0, |b| s[..b].chars().count());
    let keep_before = max / 3;
    let start = first_mark
        .saturating_sub(keep_before)
        .min(chars.len() - max + 1);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let end = (start + max - 1 - usize::from(start > 0)).min(chars.len());
    out.extend(&chars[start..end]);
    if end < chars.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_change_in_different_values_has_the_same_signature() {
        let deque = change("[[checksum=0x1401ad8b]]", "[[checksum=0x4e3f7184]]");
        let map = change("{A=[checksum=0x1401ad8b]}", "{A=[checksum=0x4e3f7184]}");
        assert_eq!(deque.as_deref(), Some("-0x1401ad8b+0x4e3f7184"));
        assert_eq!(deque, map);
        let date = change("Jan 1, 1970, 12:00:00 AM", "Jan 1, 1970, 12:00:00\\u202FAM");
        let time = change("Dec 31, 1969, 9:10:12 PM", "Dec 31, 1969, 9:10:12\\u202FPM");
        assert_eq!(date.as_deref(), Some("- +\\u202F"));
        assert_eq!(date, time);
        assert_eq!(change("1", "2"), None, "too short to mean anything");
        assert_eq!(change("230", "233").as_deref(), Some("-230+233"));
        assert_eq!(change("same", "same"), None);
    }

    #[test]
    fn a_substitution_made_several_times_is_one_change() {
        let once = change("title=\"<p>\" id=x", "title=\"&lt;p&gt;\" id=x");
        let many = change(
            "value=\"<body>hi!</body>\" class=a",
            "value=\"&lt;body&gt;hi!&lt;/body&gt;\" class=a",
        );
        assert!(once.is_some(), "{once:?}");
        assert_eq!(once, many);
    }

    #[test]
    fn visible_escapes_invisible_characters_once() {
        assert_eq!(visible("12:00\u{202F}AM"), "12:00\\u202FAM");
        assert_eq!(visible("12:00\\u202FAM"), "12:00\\u202FAM");
        assert_eq!(visible("a\u{7}\u{1F600}"), "a\\u0007\\uD83D\\uDE00");
    }

    #[test]
    fn inline_diff_treats_escapes_as_single_characters() {
        let diff = |a, b| inline_diff(a, b).unwrap_or_default();
        assert_eq!(
            diff("12:00 AM", "12:00\\u202FAM"),
            "12:00[- -]{+\\u202F+}AM"
        );
        assert_eq!(
            diff("x \\u00A0 y", "x \\u202F y"),
            "x [-\\u00A0-]{+\\u202F+} y"
        );
        assert_eq!(diff("same", "same"), "same");
    }

    #[test]
    fn inline_diff_gives_up_when_little_is_shared() {
        let a = "throws java.lang.ArithmeticException: / by zero";
        let b = "throws java.lang.IllegalArgumentException: divide by zero";
        assert_eq!(inline_diff(a, b), None);
        assert_eq!(inline_diff("1.9999999999999998E23", "2.0E23"), None);
        let (a, b) = (
            "Index 4 out of bounds for length 3",
            "Index 4 out of bounds for size 3",
        );
        let want = "Index 4 out of bounds for [-length-]{+size+} 3";
        assert_eq!(inline_diff(a, b).as_deref(), Some(want));
    }

    #[test]
    fn target_cell_diffs_only_long_values() {
        assert_eq!(
            target_cell("\"12:00 AM\"", "\"12:00\\u202FAM\""),
            "\"12:00\\u202FAM\""
        );
        let (a, b) = ("1.9999999999999998E23", "2.0E23");
        assert_eq!(target_cell(a, b), b);
        let (a, b) = (
            "\"Monday, January 1, 2024\"",
            "\"Monday, January 1, 2024 AD\"",
        );
        assert_eq!(target_cell(a, b), "\"Monday, January 1, 2024{+ AD+}\"");
    }

    #[test]
    fn shorten_keeps_the_first_change_in_view() {
        let long = format!("{}[-a-]{{+b+}}{}", "x".repeat(100), "y".repeat(100));
        let short = shorten(&long, 40);
        assert!(short.contains("[-a-]{+b+}"), "{short}");
        assert!(short.chars().count() <= 40, "{short}");
        assert_eq!(shorten("abc", 10), "abc");
    }
}
