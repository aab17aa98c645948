//! Java source syntax, the one set of rules for the exported JUnit sources and the reports'
//! reproducers: literals of every primitive type and of Strings (with escapes javac reads
//! back exactly), identifiers, package names, variable names made from type names, and the
//! Java release a suite's fingerprint names. Class names in literals (`Double.NaN`) are
//! references that [`super::names`] writes in either style (compilable, or for people).
//!
//! Literals come from the suite's escaped text ([`crate::sequence::escape`]): it is
//! unescaped to UTF-16 units and written again as Java source, where only printable ASCII
//! stays as is and everything else becomes `\n`-style or `\uXXXX` escapes — never `\u000A`
//! or `\u000D`, which javac would turn into line breaks before it reads the literal.

use super::names::type_ref;
use crate::model::is_primitive;
use crate::sequence::{CLASS, unescape};
use std::fmt::Write as _;

/// Java's reserved words and the literals `true`, `false`, `null`.
const KEYWORDS: [&str; 53] = [
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
];

/// Longest String literal written in one piece, in UTF-16 units: a class file constant
/// holds at most 65,535 bytes of modified UTF-8 (up to 3 bytes a unit).
const MAX_LITERAL_UNITS: usize = 20_000;

/// Whether `s` is a Java identifier (ASCII letters, digits, `_`, `$`) and no keyword.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$');
    first_ok
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && s != "_"
        && !KEYWORDS.contains(&s)
}

/// Checks a package name given by the user: dot-separated identifiers.
pub(crate) fn check_package(p: &str) -> Result<(), String> {
    match p.split('.').find(|part| !is_identifier(part)) {
        None => Ok(()),
        Some("") => Err(format!("invalid package name `{p}`: an empty part")),
        Some(part) => Err(format!(
            "invalid package name `{p}`: `{part}` is not a Java identifier"
        )),
    }
}

/// The feature release of a `java.version` (`17.0.9` → 17, `1.8.0_292` → 8, `21` → 21).
pub(crate) fn major_release(java_version: &str) -> Option<u32> {
    let mut parts = java_version.split(['.', '_', '-', '+']);
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 {
        return parts.next()?.parse().ok();
    }
    Some(first)
}

/// The simple name of a binary class name: `java.util.Map$Entry` → `Entry`.
pub(crate) fn simple_name(binary: &str) -> &str {
    let tail = binary.rsplit('.').next().unwrap_or(binary);
    tail.rsplit('$').next().unwrap_or(tail)
}

/// The base of a variable name for a value of type `ty`: `arrayList`, `int`, `stringArray`,
/// `urlConnection` (a leading run of capitals is lowered as one word).
pub(crate) fn variable_base(ty: &str) -> String {
    if let Some(elem) = ty.strip_suffix("[]") {
        return variable_base(elem) + "Array";
    }
    let simple: String = simple_name(ty)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let simple = simple.trim_start_matches(|c: char| c.is_ascii_digit());
    if simple.is_empty() {
        return "value".into();
    }
    let chars: Vec<char> = simple.chars().collect();
    let upper = chars.iter().take_while(|c| c.is_ascii_uppercase()).count();
    // `URLConnection`: lower `UR`, keep `L` as the start of the next word.
    let lower = match upper {
        0 => 0,
        n if n == chars.len() => n,
        1 => 1,
        n if chars[n].is_ascii_lowercase() => n - 1,
        n => n,
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i < lower {
                c.to_ascii_lowercase()
            } else {
                *c
            }
        })
        .collect()
}

fn push_unit(out: &mut String, u: u16, quote: u8) {
    match u {
        0x08 => out.push_str("\\b"),
        0x09 => out.push_str("\\t"),
        0x0a => out.push_str("\\n"),
        0x0c => out.push_str("\\f"),
        0x0d => out.push_str("\\r"),
        0x5c => out.push_str("\\\\"),
        _ if u == u16::from(quote) => {
            out.push('\\');
            out.push(quote as char);
        }
        0x20..=0x7e => out.push(u as u8 as char),
        _ => {
            let _ = write!(out, "\\u{u:04X}");
        }
    }
}

fn quoted(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for &u in units {
        push_unit(&mut out, u, b'"');
    }
    out.push('"');
    out
}

/// A String literal of UTF-16 units; a very long one is joined at run time from pieces,
/// since one constant cannot hold it (javac folds `"a" + "b"`, so `String.join`), and
/// interned, as a literal is and as the worker interns every String literal: equal
/// literals of a test are one object.
pub(crate) fn string_literal(units: &[u16]) -> String {
    if units.len() <= MAX_LITERAL_UNITS {
        return quoted(units);
    }
    let pieces: Vec<String> = units.chunks(MAX_LITERAL_UNITS).map(quoted).collect();
    format!(
        "{}.join(\"\", {}).intern()",
        type_ref("java.lang.String"),
        pieces.join(", ")
    )
}

/// A String literal from the suite's escaped text; `None` if the escapes are malformed.
pub(crate) fn string_from_suite(text: &str) -> Option<String> {
    unescape(text).map(|units| string_literal(&units))
}

/// A String literal of a Rust string (class and constant names).
pub(crate) fn str_literal(s: &str) -> String {
    string_literal(&s.encode_utf16().collect::<Vec<u16>>())
}

/// Text safe inside a `//` comment: the same escapes as a literal, without quotes.
pub(crate) fn comment_text(text: &str) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut out = String::new();
    for u in units {
        push_unit(&mut out, u, 0);
    }
    out
}

/// Suite text (escaped as [`crate::sequence::escape`] does) safe inside a `//` comment.
pub(crate) fn comment_from_suite(text: &str) -> String {
    match unescape(text) {
        Some(units) => {
            let mut out = String::new();
            for u in units {
                push_unit(&mut out, u, 0);
            }
            out
        }
        None => comment_text(text),
    }
}

/// A `char` literal from the suite's escaped text of one UTF-16 unit.
pub(crate) fn char_from_suite(text: &str) -> Option<String> {
    let units = unescape(text)?;
    let [u] = units[..] else { return None };
    let mut out = String::from("'");
    push_unit(&mut out, u, b'\'');
    out.push('\'');
    Some(out)
}

/// A literal of type `ty` (a primitive, its box, `java.lang.String` or `java.lang.Class`)
/// from the suite's escaped text; `None` if the text is no value of that type.
pub(crate) fn literal(ty: &str, text: &str) -> Option<String> {
    match ty {
        "java.lang.String" => string_from_suite(text),
        CLASS => class_literal(text),
        _ => primitive_literal(unboxed(ty).unwrap_or(ty), text),
    }
}

/// `X.class` for a class literal's text: a primitive, a binary class name
/// (`java.util.Map$Entry`) or either with `[]` suffixes.
fn class_literal(text: &str) -> Option<String> {
    let elem = text.trim_end_matches("[]");
    let dims = &text[elem.len()..];
    if is_primitive(elem) {
        return Some(format!("{elem}{dims}.class"));
    }
    let parts_ok = elem
        .split(['.', '$'])
        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    (parts_ok && !elem.starts_with(|c: char| c.is_ascii_digit()))
        .then(|| format!("{}{dims}.class", type_ref(elem)))
}

/// The primitive type whose boxed class is `class` (`java.lang.Integer` → `int`).
pub(crate) fn unboxed(class: &str) -> Option<&'static str> {
    Some(match class {
        "java.lang.Boolean" => "boolean",
        "java.lang.Byte" => "byte",
        "java.lang.Short" => "short",
        "java.lang.Integer" => "int",
        "java.lang.Long" => "long",
        "java.lang.Float" => "float",
        "java.lang.Double" => "double",
        "java.lang.Character" => "char",
        _ => return None,
    })
}

/// A literal of primitive type `ty` (`int`, `long`, …, `char`, `boolean`) from the suite's
/// text (what Java's `valueOf` read or `String.valueOf` wrote). Text javac cannot take as a
/// literal (non-ASCII digits, hex floats, a float that rounds to zero) is parsed at run
/// time with the same method the recorder used.
pub(crate) fn primitive_literal(ty: &str, text: &str) -> Option<String> {
    let parsed = match ty {
        "boolean" => matches!(text, "true" | "false").then(|| text.to_string()),
        "char" => char_from_suite(text),
        "int" => int_literal(text),
        "long" => long_literal(text),
        "short" => text.parse::<i16>().ok().map(|v| format!("(short) {v}")),
        "byte" => text.parse::<i8>().ok().map(|v| format!("(byte) {v}")),
        "double" => floating_literal(text, false),
        "float" => floating_literal(text, true),
        _ => return None,
    };
    parsed.or_else(|| parse_at_run_time(ty, text))
}

fn int_literal(text: &str) -> Option<String> {
    let v: i32 = text.parse().ok()?;
    let integer = type_ref("java.lang.Integer");
    Some(match v {
        i32::MIN => format!("{integer}.MIN_VALUE"),
        i32::MAX => format!("{integer}.MAX_VALUE"),
        _ => v.to_string(),
    })
}

fn long_literal(text: &str) -> Option<String> {
    let v: i64 = text.parse().ok()?;
    let long = type_ref("java.lang.Long");
    Some(match v {
        i64::MIN => format!("{long}.MIN_VALUE"),
        i64::MAX => format!("{long}.MAX_VALUE"),
        _ => format!("{v}L"),
    })
}

/// `Integer.parseInt("…")` and friends: the primitive parsed by Java itself.
fn parse_at_run_time(ty: &str, text: &str) -> Option<String> {
    let (class, method) = match ty {
        "int" => ("java.lang.Integer", "parseInt"),
        "long" => ("java.lang.Long", "parseLong"),
        "short" => ("java.lang.Short", "parseShort"),
        "byte" => ("java.lang.Byte", "parseByte"),
        "double" => ("java.lang.Double", "parseDouble"),
        "float" => ("java.lang.Float", "parseFloat"),
        _ => return None,
    };
    let arg = string_from_suite(text)?;
    Some(format!("{}.{method}({arg})", type_ref(class)))
}

/// A `double` or `float` literal: Java's own rendering (`2.0E23`, `-0.0`, `4.9E-324`)
/// kept, `NaN` and infinities as constants, anything javac would refuse left to
/// [`parse_at_run_time`].
fn floating_literal(text: &str, float: bool) -> Option<String> {
    let class = type_ref(if float {
        "java.lang.Float"
    } else {
        "java.lang.Double"
    });
    match text {
        "NaN" => return Some(format!("{class}.NaN")),
        "Infinity" => return Some(format!("{class}.POSITIVE_INFINITY")),
        "-Infinity" => return Some(format!("{class}.NEGATIVE_INFINITY")),
        _ => {}
    }
    let body = text.strip_prefix('+').unwrap_or(text);
    if !is_decimal_literal(body) {
        return None;
    }
    let (zero, finite) = if float {
        let v: f32 = body.parse().ok()?;
        (v == 0.0, v.is_finite())
    } else {
        let v: f64 = body.parse().ok()?;
        (v == 0.0, v.is_finite())
    };
    let all_zero_digits = !mantissa(body).chars().any(|c| ('1'..='9').contains(&c));
    if !finite || (zero && !all_zero_digits) {
        return None;
    }
    let mut out = body.to_string();
    if !out.contains(['.', 'e', 'E']) {
        out.push_str(".0");
    }
    if float {
        out.push('f');
    }
    Some(out)
}

fn mantissa(text: &str) -> &str {
    text.split(['e', 'E']).next().unwrap_or(text)
}

/// `-?(digits.digits?|.digits|digits)([eE][+-]?digits)?`
fn is_decimal_literal(text: &str) -> bool {
    let text = text.strip_prefix('-').unwrap_or(text);
    let (m, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match m.split_once('.') {
        Some((a, b)) => (digits(a) || a.is_empty()) && (digits(b) || b.is_empty()) && m.len() > 1,
        None => digits(m),
    };
    let exp_ok = exp.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exp_ok
}

/// Whether a `double`/`float` text is a zero (`0.0`, `-0.0`): JUnit 4's delta comparison
/// cannot tell its sign.
pub(crate) fn is_zero(text: &str) -> bool {
    text.parse::<f64>().is_ok_and(|v| v == 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_literals_take_class_names_only() {
        assert_eq!(literal(CLASS, "int[][]").as_deref(), Some("int[][].class"));
        for bad in [
            "../../etc/passwd",
            "java.lang.String;",
            "",
            "9lives.X",
            "a..B",
            "x y",
        ] {
            assert_eq!(literal(CLASS, bad), None, "{bad}");
        }
    }
}
