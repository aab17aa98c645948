//! The *data version* rule: which family of implementation data (Unicode, locale, time
//! zones, currencies, the security providers' catalogue, the security properties) a value
//! difference reads, from the callee and the example's classes, and — where both
//! implementations report that family's data version — which versions.

use super::Evidence;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The data versions the two implementations report (`unicode`, `tzdata`: see
/// [`crate::targets::data`]), and their feature releases under
/// [`super::RUNTIME`]; empty when not read.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Versions {
    pub reference: BTreeMap<String, String>,
    pub target: BTreeMap<String, String>,
    /// Both sides run the same JDK build (the same runtime fingerprint, as when two
    /// releases of a library are compared on one JDK): its data cannot differ, so no
    /// difference is a data-version one.
    #[serde(default)]
    pub same_runtime: bool,
}

/// The version name of each data family that has one.
const FAMILY_VERSIONS: &[(&str, &str)] = &[
    ("Unicode data", "unicode"),
    ("time-zone data", "tzdata"),
    ("locale data (CLDR)", "cldr"),
    ("currency data", "currency"),
];

/// The normalised change of a data-version difference of `family`: the family and the
/// version pair when both sides report that family's version and they differ
/// (`Unicode data 13.0 → 15.0`); `None` when both report the same version (the data are
/// not what changed); the family alone when a side does not say.
pub(super) fn versioned_change(family: &str, versions: Option<&Versions>) -> Option<String> {
    if versions.is_some_and(|v| v.same_runtime) {
        return None;
    }
    let key = FAMILY_VERSIONS
        .iter()
        .find(|(f, _)| *f == family)
        .map(|(_, k)| *k);
    let pair = versions
        .zip(key)
        .and_then(|(v, k)| Some((v.reference.get(k)?, v.target.get(k)?)));
    match pair {
        Some((a, b)) if a == b => None,
        Some((a, b)) => Some(format!("{family} {a} → {b}")),
        None => Some(family.to_string()),
    }
}

/// A data version the two implementations report, changed, that the diff itself shows: a
/// changed stretch of the values covers the reference's version in the old text and the
/// target's in the new (`{2023c=…}` → `{2025b=…}`, `Unicode 13.0` → `Unicode 15.0`). The
/// change is that family's version pair, whatever callee, container or rendering shows it.
/// Versions shorter than 3 characters or without a digit are too common to tell.
pub(super) fn version_in_diff(e: &Evidence) -> Option<String> {
    let v = e.versions?;
    let hunks = crate::text::hunk_spans(e.ref_value, e.tgt_value);
    FAMILY_VERSIONS.iter().find_map(|(family, key)| {
        let (a, b) = (v.reference.get(*key)?, v.target.get(*key)?);
        let telling = |s: &str| s.len() >= 3 && s.chars().any(|c| c.is_ascii_digit());
        if a == b || !telling(a) || !telling(b) {
            return None;
        }
        let shown = hunks.iter().any(|h| {
            let old = h.old_at..h.old_at + h.gone.len();
            let new = h.new_at..h.new_at + h.added.len();
            covers(e.ref_value, a, &old) && covers(e.tgt_value, b, &new)
        });
        shown.then(|| format!("{family} {a} → {b}"))
    })
}

/// Whether an occurrence of `word` in `text` overlaps the byte range `span` (a pure
/// insertion or removal has an empty range: it must then sit inside the word).
fn covers(text: &str, word: &str, span: &std::ops::Range<usize>) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let end = at + word.len();
        if span.is_empty() {
            at < span.start && span.start < end
        } else {
            span.start < end && at < span.end
        }
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
    (
        "security providers",
        &["java.security.Provider", "java.security.Security"],
    ),
];

/// Callees that read one family of data although their class belongs to another:
/// `Security.getProperty` reads the `java.security` settings, not the providers' catalogue.
const DATA_CALLEES: &[(&str, &str)] =
    &[("java.security.Security.getProperty", "security properties")];

/// The data families a value difference may read, most likely first: the callee itself
/// ([`DATA_CALLEES`]) or its class (a `Locale` parameter means locale data), then the
/// families whose class, listing method or callee the example uses, in the order it uses
/// them (a callee before its own class's family at the same place), then the first listing
/// of what the runtime provides that it calls (a static `available…`/`getAvailable…`
/// method: `java.nio.charset.Charset.availableCharsets()`).
pub(super) fn data_families(e: &Evidence) -> Vec<String> {
    let family_of = |text: &str| {
        DATA_FAMILIES
            .iter()
            .find(|(_, classes)| classes.iter().any(|c| mentions(text, c)))
            .map(|(f, _)| f.to_string())
    };
    let mut out = Vec::new();
    let (head, params) = e.callee.split_once('(').unwrap_or((e.callee, ""));
    if params.contains("java.util.Locale") && head.starts_with("java.") {
        out.push("locale data (CLDR)".to_string());
    }
    let callee_family = DATA_CALLEES.iter().find(|(callee, _)| *callee == head);
    out.extend(callee_family.map(|(_, f)| f.to_string()));
    let class = head.rsplit_once('.').map_or(head, |(c, _)| c);
    out.extend(family_of(class));
    let lines = e.java.join("\n");
    let by_method = DATA_METHODS
        .iter()
        .filter_map(|(m, f)| Some((lines.find(&format!(".{m}("))?, *f)));
    // Found where its class's use is found too; the sort below puts it first there only
    // because its family's name sorts first ("properties" < "providers"), which the
    // label tests check.
    let by_callee = DATA_CALLEES
        .iter()
        .filter_map(|(c, f)| Some((lines.find(&format!("{c}("))?, *f)));
    let by_class = DATA_FAMILIES.iter().filter_map(|(f, classes)| {
        let at = classes.iter().filter_map(|c| find_use(&lines, c)).min()?;
        Some((at, *f))
    });
    let mut used: Vec<(usize, &str)> = by_method.chain(by_callee).chain(by_class).collect();
    used.sort();
    out.extend(used.into_iter().map(|(_, f)| f.to_string()));
    out.extend(listing(&lines).map(|m| format!("runtime contents: {m}()")));
    out.dedup();
    out
}

/// The first static call of a method that lists what the runtime provides: a qualified name
/// (`java.nio.charset.Charset.availableCharsets`) whose method starts with `available` or
/// `getAvailable`.
fn listing(text: &str) -> Option<&str> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$');
    text.match_indices('(').find_map(|(at, _)| {
        let before = &text[..at];
        let start = before.rfind(|c: char| !is_name(c)).map_or(0, |i| i + 1);
        let name = &before[start..];
        let (class, method) = name.rsplit_once('.')?;
        let qualified = class.contains('.') && class.starts_with(|c: char| c.is_ascii_lowercase());
        let lists = method.starts_with("available") || method.starts_with("getAvailable");
        (qualified && lists).then_some(name)
    })
}

/// Methods of any class that list implementation data, and its family.
const DATA_METHODS: &[(&str, &str)] = &[
    ("getAvailableLocales", "locale data (CLDR)"),
    ("getAvailableCurrencies", "currency data"),
    ("getAvailableZoneIds", "time-zone data"),
    ("getAvailableIDs", "time-zone data"),
    ("getProvider", "security providers"),
    ("getProviders", "security providers"),
    ("getAlgorithms", "security providers"),
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
pub(super) fn mentions(text: &str, class: &str) -> bool {
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
