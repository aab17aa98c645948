//! Exception rules: the tool's own reflective-call artefact, permitted narrowing of an
//! exception to one the API contract allows, and the shared change of a plain exception or
//! missing-API group.

use super::Evidence;
use crate::compare::Kind;
use crate::sequence::Observed;

/// The tool's own reflective call failed with `IllegalArgumentException` on one side only
/// (JDK 18+ reflection reports an argument mismatch inside a bridge method itself, where
/// older JDKs let the callee throw): the `missing invalid call: …` text, without
/// per-call detail.
pub(super) fn tool_artefact(e: &Evidence) -> Option<String> {
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
pub(super) fn other_change(e: &Evidence) -> Option<String> {
    let side = |o: Option<&Observed>| match o {
        Some(Observed::Threw { class, message, .. }) => {
            let m = message
                .as_deref()
                .map(|m| mask_digits(&mask_named_detail(m)))
                .unwrap_or_default();
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

/// A message that ends by naming the call's argument (`Unsupported field: QuarterOfYear`)
/// with that name as `#`: a one-word detail (a name, qualified or not) after the last `: `.
/// Other messages stay as they are.
fn mask_named_detail(message: &str) -> String {
    let Some((head, tail)) = message.rsplit_once(": ") else {
        return message.to_string();
    };
    let word = !tail.is_empty()
        && tail
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
    if word {
        format!("{head}: #")
    } else {
        message.to_string()
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
pub(super) fn permitted_narrowing(e: &Evidence) -> Option<String> {
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
