//! Constant mining (GRT's "constant mining"): the String, int, long, float and double
//! constants of the class files in scope, read by the Java agent from the reference's own
//! runtime image or jars (`Agent.constants`). Their int constants are swept into the static
//! lookups of their own API unit (`sweep::at_start`); the header counts them all. Beside
//! them, the keys of the reference JDK's configuration files ([`super::config_keys`]).
//!
//! Mining keeps at most [`MAX_PER_CLASS`] values of each class and [`MAX_TOTAL`] in all,
//! drops Strings longer than [`MAX_STRING_UNITS`] UTF-16 units and values that are already
//! Randoop's default literals, and dedupes; classes are taken in name order and values in
//! constant-pool order, so the same reference gives the same set.

use super::literals::Literal;
use crate::sequence::unescape;
use std::collections::{BTreeMap, HashSet};

/// Most values kept from one class.
pub(crate) const MAX_PER_CLASS: usize = 200;
/// Most values kept in all.
pub(crate) const MAX_TOTAL: usize = 50_000;
/// Longest String kept, in UTF-16 units.
pub(crate) const MAX_STRING_UNITS: usize = 64;

/// What kind of literal a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    Boolean,
    Byte,
    Short,
    Char,
    Int,
    Long,
    Float,
    Double,
    Str,
}

/// Every kind, in [`Kind::index`] order.
#[cfg(test)]
pub(crate) const KINDS: [Kind; 9] = [
    Kind::Boolean,
    Kind::Byte,
    Kind::Short,
    Kind::Char,
    Kind::Int,
    Kind::Long,
    Kind::Float,
    Kind::Double,
    Kind::Str,
];

impl Kind {
    /// The kind of a parameter type: primitives, their boxes, `String` and `CharSequence`.
    pub(crate) fn of(param: &str) -> Option<Kind> {
        Some(match param {
            "boolean" | "java.lang.Boolean" => Kind::Boolean,
            "byte" | "java.lang.Byte" => Kind::Byte,
            "short" | "java.lang.Short" => Kind::Short,
            "char" | "java.lang.Character" => Kind::Char,
            "int" | "java.lang.Integer" => Kind::Int,
            "long" | "java.lang.Long" => Kind::Long,
            "float" | "java.lang.Float" => Kind::Float,
            "double" | "java.lang.Double" => Kind::Double,
            "java.lang.String" | "java.lang.CharSequence" => Kind::Str,
            _ => return None,
        })
    }

    /// The type of a literal of this kind.
    pub(crate) fn literal_type(self) -> &'static str {
        match self {
            Kind::Boolean => "boolean",
            Kind::Byte => "byte",
            Kind::Short => "short",
            Kind::Char => "char",
            Kind::Int => "int",
            Kind::Long => "long",
            Kind::Float => "float",
            Kind::Double => "double",
            Kind::Str => "java.lang.String",
        }
    }

    /// The kind's position in [`ByKind`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Values by kind: index with [`Kind::index`].
pub(crate) type ByKind = [Vec<String>; 9];

/// The mined constants: each class's, and all of them.
#[derive(Clone, Debug, Default)]
pub struct Mined {
    /// Class name → its values by the kind of parameter they can fill.
    pub by_class: BTreeMap<String, ByKind>,
    /// Every kept value once, by kind.
    pub all: ByKind,
    /// Distinct values kept.
    pub values: usize,
    /// Classes that gave at least one value.
    pub classes: usize,
    /// The keys of the reference JDK's configuration files ([`super::config_keys`]), for
    /// the key lookups' sweep; none for a library target.
    pub config_keys: Vec<String>,
}

/// One raw constant (`S…`, `I…`, `J…`, `F…`, `D…`) as a literal; `None` for what is not kept.
fn literal(raw: &str) -> Option<Literal> {
    let mut chars = raw.chars();
    let tag = chars.next()?;
    let value = chars.as_str().to_string();
    let ty = match tag {
        'S' => {
            let units = unescape(&value)?;
            if units.len() > MAX_STRING_UNITS {
                return None;
            }
            "java.lang.String"
        }
        'I' => "int",
        'J' => "long",
        'F' => "float",
        'D' => "double",
        _ => return None,
    };
    Some(Literal {
        ty: ty.to_string(),
        value,
    })
}

/// The kinds of parameter a literal can fill, with the text to write for each: an `int`
/// also fills `long` and, when it fits, `short` and `byte`; a `float` also fills `double`.
fn fills(l: &Literal) -> Vec<(Kind, String)> {
    let v = l.value.clone();
    match l.ty.as_str() {
        "java.lang.String" => vec![(Kind::Str, v)],
        "int" => {
            let n: i64 = v.parse().unwrap_or(0);
            let mut out = vec![(Kind::Int, v.clone()), (Kind::Long, v.clone())];
            if i16::try_from(n).is_ok() {
                out.push((Kind::Short, v.clone()));
            }
            if i8::try_from(n).is_ok() {
                out.push((Kind::Byte, v));
            }
            out
        }
        "long" => vec![(Kind::Long, v)],
        "float" => vec![(Kind::Float, v.clone()), (Kind::Double, v)],
        "double" => vec![(Kind::Double, v)],
        _ => Vec::new(),
    }
}

/// Keeps, caps and dedupes the raw constants of each class (`Agent.constants`); values in
/// `skip` (the default literals) are left out.
pub(crate) fn mine(raw: &BTreeMap<String, Vec<String>>, skip: &[Literal]) -> Mined {
    let skip: HashSet<(Kind, &str)> = skip
        .iter()
        .flat_map(|l| Kind::of(&l.ty).map(|k| (k, l.value.as_str())))
        .collect();
    let mut out = Mined::default();
    let mut seen: HashSet<(Kind, String)> = HashSet::new();
    let mut total = 0;
    for (class, constants) in raw {
        let mut own: ByKind = Default::default();
        let mut own_seen: HashSet<(Kind, String)> = HashSet::new();
        let mut kept = 0;
        for l in constants.iter().filter_map(|r| literal(r)) {
            if kept >= MAX_PER_CLASS || total >= MAX_TOTAL {
                break;
            }
            let mut new_here = false;
            for (kind, text) in fills(&l) {
                if skip.contains(&(kind, text.as_str())) {
                    continue;
                }
                if own_seen.insert((kind, text.clone())) {
                    own[kind.index()].push(text.clone());
                    new_here = true;
                }
                if seen.insert((kind, text.clone())) {
                    out.all[kind.index()].push(text);
                    if kind.literal_type() == l.ty {
                        out.values += 1;
                        total += 1;
                    }
                }
            }
            kept += usize::from(new_here);
        }
        if own.iter().any(|v| !v.is_empty()) {
            out.classes += 1;
            out.by_class.insert(class.clone(), own);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::literals::defaults;

    fn raw(entries: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
        entries
            .iter()
            .map(|(c, v)| (c.to_string(), v.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    #[test]
    fn constants_are_kept_by_kind_deduped_and_capped() {
        let long = format!("S{}", "x".repeat(MAX_STRING_UNITS + 1));
        let r = raw(&[
            (
                "a.A",
                &[
                    "SEurope/Paris",
                    "I100000",
                    "I-5",
                    "J9000000000",
                    "F1.5",
                    "D2.0E-300",
                    "S",
                    "I1",
                ],
            ),
            (
                "a.B",
                &["SEurope/Paris", "S\\u00E9t\\u00E9", long.as_str(), "Q?"],
            ),
            ("a.C", &[]),
        ]);
        let m = mine(&r, &defaults());
        assert_eq!(m.classes, 2);
        // "" and 1 are default literals; the long string and the unknown tag are dropped.
        assert_eq!(m.values, 7);
        let own = |class: &str, kind: Kind| {
            let values = m.by_class.get(class).map(|v| v[kind.index()].clone());
            values.unwrap_or_default()
        };
        assert_eq!(own("a.A", Kind::Str), ["Europe/Paris"]);
        assert_eq!(
            m.all[Kind::Str.index()],
            ["Europe/Paris", "\\u00E9t\\u00E9"]
        );
        assert_eq!(own("a.A", Kind::Long), ["100000", "-5", "9000000000"]);
        assert_eq!(own("a.A", Kind::Short), ["-5"]);
        assert_eq!(own("a.A", Kind::Double), ["1.5", "2.0E-300"]);
        assert!(own("a.C", Kind::Int).is_empty());
        assert_eq!(m.all[Kind::Int.index()], ["100000", "-5"]);
    }

    #[test]
    fn a_class_gives_at_most_its_share() {
        let many: Vec<String> = (0..MAX_PER_CLASS + 50).map(|i| format!("S{i}")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        let m = mine(&raw(&[("a.A", &refs)]), &[]);
        assert_eq!(m.values, MAX_PER_CLASS);
        assert_eq!(m.all[Kind::Str.index()].len(), MAX_PER_CLASS);
    }

    #[test]
    fn parameter_types_have_kinds() {
        assert_eq!(Kind::of("java.lang.Integer"), Some(Kind::Int));
        assert_eq!(Kind::of("java.lang.CharSequence"), Some(Kind::Str));
        assert_eq!(Kind::of("java.lang.Object"), None);
        for k in KINDS {
            assert_eq!(KINDS[k.index()], k);
            assert_eq!(Kind::of(k.literal_type()), Some(k));
        }
    }
}
