//! Text rules: the same number printed otherwise (*rendering*) and texts that differ only
//! in invisible characters or spaces (*invisible*), and floating-point results a few units in
//! the last place apart (*last place*).

use super::Evidence;
use crate::sequence::Observed;

/// Characters that do not show, or show as a space: removed before comparing.
fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(c, '\u{00A0}' | '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{180E}'
            | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202F}' | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}')
}

/// `s` with `\uXXXX` escapes turned back into characters.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("\\u") {
        out.push_str(&rest[..i]);
        let hex = rest.get(i + 2..i + 6);
        match hex.and_then(|h| u32::from_str_radix(h, 16).ok().and_then(char::from_u32)) {
            Some(c) => {
                out.push(c);
                rest = &rest[i + 6..];
            }
            None => {
                out.push_str("\\u");
                rest = &rest[i + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The texts are equal once every invisible character and whitespace is removed: the
/// change is the invisible characters the changed stretches hold, whichever way they went
/// (`'\u00A0' added or removed`), so one data change that puts a no-break space
/// in some texts and takes it out of others is one cause; a plain space counts only when
/// nothing else changed.
pub(super) fn invisible(old: &str, new: &str) -> Option<String> {
    let (a, b) = (unescape(old), unescape(new));
    let strip = |s: &str| s.chars().filter(|&c| !is_invisible(c)).collect::<String>();
    if a == b || strip(&a) != strip(&b) {
        return None;
    }
    let mut chars: std::collections::BTreeSet<char> = crate::text::hunks(old, new)
        .iter()
        .flat_map(|(gone, added)| {
            unescape(gone)
                .chars()
                .chain(unescape(added).chars())
                .collect::<Vec<_>>()
        })
        .filter(|&c| is_invisible(c))
        .collect();
    if chars.iter().any(|&c| c != ' ') {
        chars.remove(&' ');
    }
    let shown: Vec<String> = chars.into_iter().map(shown_char).collect();
    let shown = if shown.is_empty() {
        "' '".to_string()
    } else {
        shown.join(", ")
    };
    Some(format!("{shown} added or removed"))
}

/// An invisible character named so it can be read: `' '`, `'\u202F'`.
fn shown_char(c: char) -> String {
    if c == ' ' {
        "' '".into()
    } else {
        format!("'\\u{:04X}'", u32::from(c))
    }
}

/// A number in a text: its span and its text.
fn numbers(s: &str) -> (String, Vec<&str>) {
    let bytes = s.as_bytes();
    let (mut skeleton, mut found) = (String::new(), Vec::new());
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'.'));
        if !starts {
            let c = s[i..].chars().next().unwrap_or(' ');
            skeleton.push(c);
            i += c.len_utf8();
            continue;
        }
        let start = if i > 0 && bytes[i - 1] == b'-' {
            skeleton.pop();
            i - 1
        } else {
            i
        };
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        if j + 1 < bytes.len() && bytes[j] == b'.' && bytes[j + 1].is_ascii_digit() {
            j += 1;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
        }
        if j < bytes.len() && (bytes[j] == b'E' || bytes[j] == b'e') {
            let mut k = j + 1;
            if k < bytes.len() && (bytes[k] == b'-' || bytes[k] == b'+') {
                k += 1;
            }
            if k < bytes.len() && bytes[k].is_ascii_digit() {
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                j = k;
            }
        }
        skeleton.push('#');
        found.push(&s[start..j]);
        i = j;
    }
    (skeleton, found)
}

/// A decimal number as (negative, significant digits, exponent of the last digit): equal
/// exactly when the values are equal.
fn decimal(s: &str) -> Option<(bool, String, i64)> {
    let (neg, s) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i64>().ok()?),
        None => (s, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let mut exp = exp - frac.len() as i64;
    let trimmed = digits.trim_start_matches('0');
    let kept = trimmed.trim_end_matches('0');
    exp += (trimmed.len() - kept.len()) as i64;
    if kept.is_empty() {
        return Some((neg, String::new(), 0));
    }
    Some((neg, kept.to_string(), exp))
}

/// Significant digits of a rendered number.
fn significant(s: &str) -> usize {
    decimal(s).map_or(0, |(_, d, _)| d.len())
}

/// The numbers of both sides, in order, when their texts are the same apart from numbers
/// (and have as many); with whether the callee returns a float.
fn paired_numbers<'a>(e: &Evidence<'a>) -> Option<(bool, Vec<&'a str>, Vec<&'a str>)> {
    let is_float = matches!(
        e.actual,
        Some(Observed::Value { class, .. }) if class == "float" || class == "java.lang.Float"
    );
    let (sa, na) = numbers(e.ref_value);
    let (sb, nb) = numbers(e.tgt_value);
    (sa == sb && na.len() == nb.len()).then_some((is_float, na, nb))
}

/// Both sides print the same number: the texts differ only in numbers, and each changed
/// pair is the same decimal value (`1E+3`/`1000`: "decimal notation"), the same double, or
/// — when the callee returns a float, or both have at most 9 significant digits as floats
/// print — the same float ("float/double digits").
pub(super) fn rendering(e: &Evidence) -> Option<String> {
    let (is_float, na, nb) = paired_numbers(e)?;
    let mut digits = false;
    let mut changed = false;
    for (x, y) in na.iter().zip(&nb) {
        if x == y {
            continue;
        }
        changed = true;
        if decimal(x).is_some() && decimal(x) == decimal(y) {
            continue;
        }
        // Integers that round to the same double are different values.
        let floating = |t: &str| t.contains(['.', 'e', 'E']);
        if !floating(x) || !floating(y) {
            return None;
        }
        let (dx, dy) = (x.parse::<f64>().ok()?, y.parse::<f64>().ok()?);
        let same_float = (is_float || significant(x).max(significant(y)) <= 9)
            && x.parse::<f32>().ok()? == y.parse::<f32>().ok()?;
        if dx != dy && !same_float {
            return None;
        }
        digits = true;
    }
    changed.then(|| {
        if digits {
            "float/double printed with other digits".to_string()
        } else {
            "decimal notation".to_string()
        }
    })
}

/// How many units in the last place two results may be apart to count as *last place*: the
/// `java.lang.Math` contracts allow 1 or 2 ulps, and a value computed from such a result
/// carries the error on.
const ULPS: f64 = 2.0;

/// Both sides print the same numbers except floating-point ones that are different values
/// at most [`ULPS`] units in the last place apart (as a float when the callee returns one):
/// what an intrinsic and the portable code of the same function may differ by. One change
/// for every callee, so an interpreter-only VM's last-digit differences form one cause.
pub(super) fn last_place(e: &Evidence) -> Option<String> {
    let (is_float, na, nb) = paired_numbers(e)?;
    let mut changed = false;
    for (x, y) in na.iter().zip(&nb) {
        if x == y {
            continue;
        }
        let floating = |t: &str| t.contains(['.', 'e', 'E']);
        if !floating(x) || !floating(y) {
            return None;
        }
        let (a, b) = (x.parse::<f64>().ok()?, y.parse::<f64>().ok()?);
        let ulp = if is_float {
            ulp_f32(a.abs().max(b.abs()) as f32)
        } else {
            ulp_f64(a.abs().max(b.abs()))
        };
        let apart = (a - b).abs();
        if !apart.is_finite() || apart == 0.0 || apart > ULPS * ulp {
            return None;
        }
        changed = true;
    }
    changed.then(|| format!("floating-point results at most {ULPS} ulps apart"))
}

/// The distance from `x` (finite, not negative) to the next larger double.
fn ulp_f64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1) - x
}

/// The distance from `x` (finite, not negative) to the next larger float, as a double.
fn ulp_f32(x: f32) -> f64 {
    f64::from(f32::from_bits(x.to_bits() + 1)) - f64::from(x)
}
