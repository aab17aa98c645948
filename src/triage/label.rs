//! Kinds of change: a label for each group that says what sort of change it is (the same
//! value printed differently, an invisible character, implementation data, a hash code, a
//! permitted exception, an artefact of how difftest calls the API, or a plain difference),
//! and the *normalised change* that groups of one cause share (the rendering rule, the
//! inserted character, the data family, the exception pair). The rules are general: none
//! names a known JDK change by its value.
//!
//! The [`Kind`] (how two outcomes differ) is kept; the label is a second, separate axis.

use crate::compare::Kind;
use crate::sequence::Observed;
use serde::{Deserialize, Serialize};

/// The kind of change a group shows. The snake_case names are part of the JSON report and
/// of the accepted list.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// Both sides are the same number (float, double or decimal value), printed otherwise.
    Rendering,
    /// The texts differ only in spaces, no-break spaces or other invisible characters.
    Invisible,
    /// Counts and contents of implementation data: Unicode, locale (CLDR), time zones,
    /// currencies.
    DataVersion,
    /// Only a hash code (or a hash-like hex word) differs.
    HashOnly,
    /// An exception replaced by its subclass or superclass among standard pairs the API
    /// contracts allow.
    PermittedNarrowing,
    /// The difference comes from difftest's own reflective call (kept out of the gate).
    ToolArtefact,
    /// Any other value difference.
    ValueDiffers,
    /// Any other exception difference (normal vs exception, class, message).
    Exception,
    /// A class or member exists on one side only.
    ApiMissing,
    /// The target did not answer.
    Timeout,
    /// The target's worker died.
    Crash,
}

impl Label {
    /// The stable snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            Label::Rendering => "rendering",
            Label::Invisible => "invisible",
            Label::DataVersion => "data_version",
            Label::HashOnly => "hash_only",
            Label::PermittedNarrowing => "permitted_narrowing",
            Label::ToolArtefact => "tool_artefact",
            Label::ValueDiffers => "value_differs",
            Label::Exception => "exception",
            Label::ApiMissing => "api_missing",
            Label::Timeout => "timeout",
            Label::Crash => "crash",
        }
    }

    /// Words for people.
    pub fn describe(self) -> &'static str {
        match self {
            Label::Rendering => "same value, other rendering",
            Label::Invisible => "invisible or whitespace change",
            Label::DataVersion => "data version",
            Label::HashOnly => "hash only",
            Label::PermittedNarrowing => "permitted narrowing",
            Label::ToolArtefact => "tool artefact",
            Label::ValueDiffers => "value differs",
            Label::Exception => "exception",
            Label::ApiMissing => "API missing",
            Label::Timeout => "timeout",
            Label::Crash => "crash",
        }
    }

    /// The label for a difference no special rule recognises.
    pub fn plain(kind: Kind) -> Label {
        match kind {
            Kind::Value => Label::ValueDiffers,
            Kind::NormalVsException | Kind::ExceptionClass | Kind::ExceptionMessage => {
                Label::Exception
            }
            Kind::Missing => Label::ApiMissing,
            Kind::Timeout => Label::Timeout,
            Kind::Crash => Label::Crash,
        }
    }
}

/// What the rules look at: one group's difference.
pub struct Evidence<'a> {
    pub callee: &'a str,
    pub kind: Kind,
    pub expected: Option<&'a Observed>,
    pub actual: Option<&'a Observed>,
    /// The escaped texts shown for people (`"12:00\u202FAM"`, `throws …`).
    pub ref_value: &'a str,
    pub tgt_value: &'a str,
    /// The example (minimized when available) as Java lines: which classes are involved.
    pub java: &'a [String],
}

/// The label of a group and its normalised change (`None`: the group is a cause of its own;
/// for a plain value difference the change is its distinctive changed text, see
/// [`crate::report::text::change`]).
pub fn classify(e: &Evidence) -> (Label, Option<String>) {
    if let Some(change) = tool_artefact(e) {
        return (Label::ToolArtefact, Some(change));
    }
    if let Some(change) = permitted_narrowing(e) {
        return (Label::PermittedNarrowing, Some(change));
    }
    if e.kind != Kind::Value {
        return (Label::plain(e.kind), other_change(e));
    }
    if let Some(change) = invisible(e.ref_value, e.tgt_value) {
        return (Label::Invisible, Some(change));
    }
    if let Some(change) = rendering(e) {
        return (Label::Rendering, Some(change));
    }
    if let Some(change) = hash_only(e) {
        return (Label::HashOnly, Some(change));
    }
    if let Some(family) = data_family(e) {
        return (Label::DataVersion, Some(family.to_string()));
    }
    // Otherwise the changed text, when distinctive, is the change (as for `same_change_as`).
    let change = crate::report::text::change(e.ref_value, e.tgt_value);
    (Label::ValueDiffers, change)
}

/// The stable id of a cause: `c-` and six hex digits of a 64-bit FNV-1a hash of the label's
/// name, a NUL and the normalised change.
pub fn cause_id(label: Label, change: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = label.name().bytes().chain([0u8]).chain(change.bytes());
    for b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("c-{:06x}", hash >> 40)
}

/// The tool's own reflective call failed with `IllegalArgumentException` on one side only
/// (JDK 18+ reflection reports an argument mismatch inside a bridge method itself, where
/// older JDKs let the callee throw): the `missing invalid call: …` text, without
/// per-call detail.
fn tool_artefact(e: &Evidence) -> Option<String> {
    let reflective = |o: Option<&Observed>| match o {
        Some(Observed::Missing { what }) => {
            let rest = what.strip_prefix("invalid call: ")?;
            let known = [
                "argument type mismatch",
                "not an instance of declaring class",
            ];
            (rest.starts_with("java.lang.IllegalArgumentException")
                && known.iter().any(|k| rest.contains(k)))
            .then(|| rest.to_string())
        }
        _ => None,
    };
    let other_called = |o: Option<&Observed>| !matches!(o, Some(Observed::Missing { .. }));
    match (reflective(e.expected), reflective(e.actual)) {
        (Some(w), None) if other_called(e.actual) => Some(w),
        (None, Some(w)) if other_called(e.expected) => Some(w),
        _ => None,
    }
}

/// The change of a plain exception or missing-API group that other groups can share: the
/// same exception classes on both sides, or a normal return on one side and the same
/// exception and message on the other (`returns → java.lang.SecurityException: checking …`,
/// digits masked), or a whole class missing. Message-only differences stay groups of their own.
fn other_change(e: &Evidence) -> Option<String> {
    let side = |o: Option<&Observed>| match o {
        Some(Observed::Threw { class, message }) => {
            let m = message.as_deref().map(mask_digits).unwrap_or_default();
            format!("{class}: {m}")
        }
        Some(Observed::Missing { what }) => format!("missing {what}"),
        _ => "returns".to_string(),
    };
    let class = |o: Option<&Observed>| match o {
        Some(Observed::Threw { class, .. }) => class.clone(),
        _ => "?".to_string(),
    };
    match e.kind {
        // Both threw: the class pair is the change (messages name per-call details).
        Kind::ExceptionClass => Some(format!("{} → {}", class(e.expected), class(e.actual))),
        Kind::NormalVsException => Some(format!("{} → {}", side(e.expected), side(e.actual))),
        Kind::Missing => [e.expected, e.actual].into_iter().find_map(|o| match o {
            Some(Observed::Missing { what }) if what.starts_with("class ") => {
                Some(format!("missing {what}"))
            }
            _ => None,
        }),
        _ => None,
    }
}

/// Runs of digits as `#`.
fn mask_digits(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Standard exception pairs (subclass, superclass) whose swap API contracts allow: the
/// Javadoc's `@throws` names the superclass, and implementations throw either.
const EXCEPTION_PAIRS: &[(&str, &str)] = &[
    (
        "java.lang.ArrayIndexOutOfBoundsException",
        "java.lang.IndexOutOfBoundsException",
    ),
    (
        "java.lang.StringIndexOutOfBoundsException",
        "java.lang.IndexOutOfBoundsException",
    ),
    (
        "java.lang.NumberFormatException",
        "java.lang.IllegalArgumentException",
    ),
    (
        "java.util.regex.PatternSyntaxException",
        "java.lang.IllegalArgumentException",
    ),
    (
        "java.util.IllegalFormatException",
        "java.lang.IllegalArgumentException",
    ),
    (
        "java.nio.charset.IllegalCharsetNameException",
        "java.lang.IllegalArgumentException",
    ),
    (
        "java.nio.charset.UnsupportedCharsetException",
        "java.lang.IllegalArgumentException",
    ),
    (
        "java.time.format.DateTimeParseException",
        "java.time.DateTimeException",
    ),
    (
        "java.time.temporal.UnsupportedTemporalTypeException",
        "java.time.DateTimeException",
    ),
    (
        "java.util.InputMismatchException",
        "java.util.NoSuchElementException",
    ),
    (
        "java.nio.ReadOnlyBufferException",
        "java.lang.UnsupportedOperationException",
    ),
];

/// Both threw, and the classes are a subclass/superclass pair of [`EXCEPTION_PAIRS`], in
/// either direction: `REF → TGT`.
fn permitted_narrowing(e: &Evidence) -> Option<String> {
    if e.kind != Kind::ExceptionClass {
        return None;
    }
    let (Some(Observed::Threw { class: a, .. }), Some(Observed::Threw { class: b, .. })) =
        (e.expected, e.actual)
    else {
        return None;
    };
    EXCEPTION_PAIRS
        .iter()
        .any(|&(sub, sup)| (a == sub && b == sup) || (a == sup && b == sub))
        .then(|| format!("{a} → {b}"))
}

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
/// change is the set of characters removed and added (`' ' → \u202F`).
fn invisible(old: &str, new: &str) -> Option<String> {
    let (a, b) = (unescape(old), unescape(new));
    let strip = |s: &str| s.chars().filter(|&c| !is_invisible(c)).collect::<String>();
    if a == b || strip(&a) != strip(&b) {
        return None;
    }
    let hunks = crate::report::text::hunks(old, new);
    let mut parts: Vec<String> = hunks
        .iter()
        .map(|(gone, added)| format!("{} → {}", shown_chars(gone), shown_chars(added)))
        .collect();
    parts.sort();
    parts.dedup();
    Some(parts.join(", "))
}

/// Invisible characters named so they can be read: `' '`, `\u202F`, `(none)`.
fn shown_chars(s: &str) -> String {
    if s.is_empty() {
        return "(none)".into();
    }
    format!("'{s}'")
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

/// Both sides print the same number: the texts differ only in numbers, and each changed
/// pair is the same decimal value (`1E+3`/`1000`: "decimal notation"), the same double, or
/// — when the callee returns a float, or both have at most 9 significant digits as floats
/// print — the same float ("float/double digits").
fn rendering(e: &Evidence) -> Option<String> {
    let is_float = matches!(
        e.actual,
        Some(Observed::Value { class, .. }) if class == "float" || class == "java.lang.Float"
    );
    let (sa, na) = numbers(e.ref_value);
    let (sb, nb) = numbers(e.tgt_value);
    if sa != sb || na.len() != nb.len() {
        return None;
    }
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

/// Only a hash differs: the callee is a `hashCode()` (or `Objects.hash…`/`Arrays.hashCode`)
/// and both are integers — one change for every class, as hash codes are unspecified beyond
/// their consistency with `equals` — or every changed word is a
/// hex hash-like word (`0x1401ad8b`, `@1b6d3586`) — the change is the changed text.
fn hash_only(e: &Evidence) -> Option<String> {
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
        hunks
            .iter()
            .map(|(g, a)| format!("-{g}+{a}"))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// Families of implementation data, and the classes that read them.
const DATA_FAMILIES: &[(&str, &[&str])] = &[
    ("currency data", &["java.util.Currency"]),
    (
        "time-zone data",
        &[
            "java.util.TimeZone",
            "java.util.SimpleTimeZone",
            "java.time.ZoneId",
            "java.time.ZoneOffset",
            "java.time.zone.",
        ],
    ),
    (
        "Unicode data",
        &[
            "java.lang.Character",
            "java.text.BreakIterator",
            "java.text.Normalizer",
            "java.text.Bidi",
        ],
    ),
    (
        "locale data (CLDR)",
        &[
            "java.text.DateFormatSymbols",
            "java.text.DecimalFormatSymbols",
            "java.util.Locale",
            "java.text.Collator",
            "java.text.RuleBasedCollator",
        ],
    ),
];

/// The data family of a value difference: the callee's class first (a `Locale` parameter
/// means locale data), else the first family whose class the example uses.
fn data_family(e: &Evidence) -> Option<&'static str> {
    let family_of = |text: &str| {
        DATA_FAMILIES
            .iter()
            .find(|(_, classes)| classes.iter().any(|c| mentions(text, c)))
            .map(|(f, _)| *f)
    };
    let (head, params) = e.callee.split_once('(').unwrap_or((e.callee, ""));
    if params.contains("java.util.Locale") && head.starts_with("java.") {
        return Some("locale data (CLDR)");
    }
    let class = head.rsplit_once('.').map_or(head, |(c, _)| c);
    if let Some(f) = family_of(class) {
        return Some(f);
    }
    let lines = e.java.join("\n");
    let by_method = DATA_METHODS
        .iter()
        .filter_map(|(m, f)| Some((lines.find(&format!(".{m}("))?, *f)));
    let by_class = DATA_FAMILIES.iter().filter_map(|(f, classes)| {
        let at = classes.iter().filter_map(|c| find_use(&lines, c)).min()?;
        Some((at, *f))
    });
    by_method.chain(by_class).min().map(|(_, f)| f)
}

/// Methods of any class that list implementation data, and its family.
const DATA_METHODS: &[(&str, &str)] = &[
    ("getAvailableLocales", "locale data (CLDR)"),
    ("getAvailableCurrencies", "currency data"),
    ("getAvailableZoneIds", "time-zone data"),
    ("getAvailableIDs", "time-zone data"),
];

/// Where `text` first *uses* `class`: calls a static method or constructor of it (or of a
/// nested class), or calls a method on a value cast to it — not merely reads a constant of
/// it or declares a variable of its type.
fn find_use(text: &str, class: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(class) {
        let at = from + i;
        let end = at + class.len();
        from = end;
        let before = &text[..at];
        if before.ends_with("new ") || (before.ends_with("((") && text[end..].starts_with(") v")) {
            if !class.ends_with('.') && text[end..].starts_with(|c: char| c.is_ascii_alphanumeric())
            {
                continue;
            }
            return Some(at);
        }
        // Skip nested class names, then expect `.method(`.
        let mut rest = if class.ends_with('.') {
            &text[end - 1..]
        } else {
            &text[end..]
        };
        while let Some(after) = rest.strip_prefix('.') {
            let ident: &str = after
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .next()
                .unwrap_or("");
            if ident.is_empty() {
                break;
            }
            let tail = &after[ident.len()..];
            if ident.starts_with(|c: char| c.is_ascii_lowercase()) && tail.starts_with('(') {
                return Some(at);
            }
            if !ident.starts_with(|c: char| c.is_ascii_uppercase()) {
                break;
            }
            rest = tail;
        }
    }
    None
}

/// Whether `text` names `class` (or a nested class of it, or a class in the package when
/// `class` ends with a dot).
fn mentions(text: &str, class: &str) -> bool {
    find_class(text, class).is_some()
}

/// Where `text` first names `class` as a whole name.
fn find_class(text: &str, class: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(class) {
        let at = from + i;
        let end = at + class.len();
        let after = text[end..].chars().next();
        let whole =
            class.ends_with('.') || !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let before_ok = at == 0 || !text[..at].ends_with(|c: char| c.is_ascii_alphanumeric());
        if whole && before_ok {
            return Some(at);
        }
        from = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(class: &str, text: &str) -> Observed {
        Observed::Value {
            class: class.into(),
            text: text.into(),
        }
    }

    fn label(
        callee: &str,
        class: &str,
        a: &str,
        b: &str,
        java: &[&str],
    ) -> (Label, Option<String>) {
        let (x, y) = (value(class, a), value(class, b));
        let show = |o: &Observed| crate::report::text::visible(&o.render());
        let java: Vec<String> = java.iter().map(|s| s.to_string()).collect();
        classify(&Evidence {
            callee,
            kind: Kind::Value,
            expected: Some(&x),
            actual: Some(&y),
            ref_value: &show(&x),
            tgt_value: &show(&y),
            java: &java,
        })
    }

    #[test]
    fn the_same_number_printed_otherwise_is_a_rendering() {
        let f = "java.lang.Float.MIN_NORMAL";
        let got = label(f, "float", "1.17549435E-38", "1.1754944E-38", &[]);
        assert_eq!(got.0, Label::Rendering);
        let d = label(
            "Math.x(double)",
            "double",
            "1.9999999999999998E23",
            "2.0E23",
            &[],
        );
        assert_eq!(d, got, "one rule, one change");
        let s = label(
            "S.f()",
            "java.lang.String",
            "[6.8719477E10]",
            "[6.871948E10]",
            &[],
        );
        assert_eq!(s.0, Label::Rendering, "floats inside text");
        let bd = label("B.f()", "java.math.BigDecimal", "1E+3", "1000", &[]);
        assert_eq!(bd, (Label::Rendering, Some("decimal notation".into())));
        let ulp = label(
            "Math.tan(double)",
            "double",
            "0.4355603999447874",
            "0.43556039994478735",
            &[],
        );
        assert_eq!(ulp.0, Label::ValueDiffers, "one ulp apart is another value");
        assert_eq!(
            label("S.size()", "int", "230", "233", &[]).0,
            Label::ValueDiffers
        );
    }

    #[test]
    fn invisible_characters_and_spaces_are_one_change() {
        let a = label(
            "D.f()",
            "java.lang.String",
            "12:00 AM",
            "12:00\u{202F}AM",
            &[],
        );
        let b = label(
            "E.g(int)",
            "java.lang.String",
            "May 1, 4:02 PM",
            "May 1, 4:02\u{202F}PM",
            &[],
        );
        assert_eq!(a.0, Label::Invisible);
        assert_eq!(a, b);
        let other = label(
            "N.f()",
            "java.lang.String",
            "1\u{202F}000",
            "1\u{A0}000",
            &[],
        );
        assert_eq!(other.0, Label::Invisible);
        assert_ne!(other.1, a.1);
    }

    #[test]
    fn hashes_and_hash_like_words() {
        let h = label(
            "java.text.DateFormatSymbols.hashCode()",
            "int",
            "274641252",
            "-1511157762",
            &[],
        );
        assert_eq!(h, (Label::HashOnly, Some("hashCode() values".into())));
        let t = label(
            "X.toString()",
            "java.lang.String",
            "[checksum=0x1401ad8b]",
            "[checksum=0x4e3f7184]",
            &[],
        );
        assert_eq!(t.0, Label::HashOnly);
        assert_eq!(
            label("X.size()", "int", "12", "13", &[]).0,
            Label::ValueDiffers
        );
    }

    #[test]
    fn data_classes_make_a_data_version() {
        let java = [
            "java.util.Set v0 = java.util.Currency.getAvailableCurrencies();",
            "v0.size();",
        ];
        let constant = [
            "var v0 = java.lang.Character.UnicodeScript.JAVANESE;",
            "var v1 = v0.ordinal();",
        ];
        let s = label(
            "java.util.Spliterator.getExactSizeIfKnown()",
            "long",
            "2",
            "-1",
            &constant,
        );
        assert_eq!(
            s.0,
            Label::ValueDiffers,
            "a constant used for its number is not data"
        );
        let nested = ["var v0 = java.lang.Character.UnicodeScript.forName(\"x\");"];
        let n = label("java.util.Set.size()", "int", "155", "162", &nested);
        assert_eq!(n.1.as_deref(), Some("Unicode data"));
        let c = label("java.util.Set.size()", "int", "230", "233", &java);
        assert_eq!(c, (Label::DataVersion, Some("currency data".into())));
        let l = label(
            "java.util.Currency.getDisplayName(java.util.Locale)",
            "java.lang.String",
            "Won",
            "Wn",
            &[],
        );
        assert_eq!(l.1.as_deref(), Some("locale data (CLDR)"));
        let u = label(
            "java.lang.Character.getName(int)",
            "java.lang.String",
            "A",
            "B",
            &[],
        );
        assert_eq!(u.1.as_deref(), Some("Unicode data"));
        assert!(!mentions("java.lang.CharacterData", "java.lang.Character"));
        assert!(mentions(
            "java.lang.Character$UnicodeScript",
            "java.lang.Character"
        ));
    }

    #[test]
    fn exceptions_and_artefacts() {
        let threw = |c: &str| Observed::Threw {
            class: c.into(),
            message: None,
        };
        let (a, b) = (
            threw("java.lang.ArrayIndexOutOfBoundsException"),
            threw("java.lang.IndexOutOfBoundsException"),
        );
        let ev = |k, x: &Observed, y: &Observed| {
            classify(&Evidence {
                callee: "C.f()",
                kind: k,
                expected: Some(x),
                actual: Some(y),
                ref_value: "",
                tgt_value: "",
                java: &[],
            })
        };
        assert_eq!(
            ev(Kind::ExceptionClass, &a, &b).0,
            Label::PermittedNarrowing
        );
        assert_eq!(
            ev(Kind::ExceptionClass, &b, &a).0,
            Label::PermittedNarrowing
        );
        let cce = threw("java.lang.ClassCastException");
        assert_eq!(ev(Kind::ExceptionClass, &a, &cce).0, Label::Exception);
        let bridge = Observed::Missing {
            what: "invalid call: java.lang.IllegalArgumentException: argument type mismatch".into(),
        };
        assert_eq!(ev(Kind::Missing, &cce, &bridge).0, Label::ToolArtefact);
        let gone = Observed::Missing {
            what: "method C.f()".into(),
        };
        assert_eq!(ev(Kind::Missing, &cce, &gone).0, Label::ApiMissing);
    }

    #[test]
    fn cause_ids_are_stable() {
        assert_eq!(
            cause_id(Label::Invisible, "x"),
            cause_id(Label::Invisible, "x")
        );
        assert_ne!(
            cause_id(Label::Invisible, "x"),
            cause_id(Label::Rendering, "x")
        );
        assert!(cause_id(Label::HashOnly, "x").starts_with("c-"));
    }
}
