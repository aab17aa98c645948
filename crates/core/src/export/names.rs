//! Names in the generated source: references to classes, resolved to imports or fully
//! qualified names once a whole file is known, and local variable names.
//!
//! While a class is rendered, every class name is written as a marker
//! (`\u{1}java.util.Map$Entry\u{2}`). [`resolve`] then looks at all of them: a top-level
//! class whose simple name no other class in the file shares, and that clashes with no name
//! the file declares or imports itself (JUnit's, the test classes'), is imported — even from
//! `java.lang`, so that a class of the same name in the test's own package cannot shadow
//! it — and written by its simple name; every other class is written fully qualified.
//! Nested classes are written through their top-level class (`Character.UnicodeBlock`).
//!
//! That is the compilable style. The reports' reproducers are for people and stand alone,
//! without imports: [`for_people`] writes a class of `java.lang` by its simple name and any
//! other fully qualified ([`source_name`]).

use std::collections::{BTreeMap, BTreeSet, HashSet};

const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';

/// A reference to the class with binary name `binary` (`java.util.Map$Entry`).
pub(crate) fn type_ref(binary: &str) -> String {
    format!("{OPEN}{binary}{CLOSE}")
}

/// The source form of any type name from a suite: primitives as they are, arrays as
/// their element type and `[]`, classes as references.
pub(crate) fn type_source(ty: &str) -> String {
    if let Some(elem) = ty.strip_suffix("[]") {
        return type_source(elem) + "[]";
    }
    if crate::model::is_primitive(ty) || ty == "void" {
        return ty.to_string();
    }
    type_ref(ty)
}

/// `(package, top-level simple name, nested part with dots)` of a binary class name.
fn split(binary: &str) -> (&str, &str, String) {
    let (package, class) = match binary.rfind('.') {
        Some(dot) => (&binary[..dot], &binary[dot + 1..]),
        None => ("", binary),
    };
    match class.find('$').filter(|&i| i > 0) {
        Some(i) => (package, &class[..i], class[i..].replace('$', ".")),
        None => (package, class, String::new()),
    }
}

/// Replaces the class references in `text`; returns the text and the classes to import
/// (sorted). `reserved` are simple names the file already uses for something else.
pub(crate) fn resolve(text: &str, reserved: &[&str]) -> (String, Vec<String>) {
    let mut by_simple: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for binary in references(text) {
        let (package, simple, _) = split(binary);
        let top = if package.is_empty() {
            simple.to_string()
        } else {
            format!("{package}.{simple}")
        };
        by_simple.entry(simple).or_default().insert(top);
    }
    let imported: HashSet<String> = by_simple
        .iter()
        .filter(|(simple, tops)| tops.len() == 1 && !reserved.contains(simple))
        .flat_map(|(_, tops)| tops.iter().cloned())
        .filter(|top| top.contains('.'))
        .collect();
    let out = replace_refs(text, |binary| {
        let (package, simple, nested) = split(binary);
        let top = format!("{package}.{simple}");
        if package.is_empty() || imported.contains(&top) {
            format!("{simple}{nested}")
        } else {
            format!("{top}{nested}")
        }
    });
    let mut imports: Vec<String> = imported.into_iter().collect();
    imports.sort();
    (out, imports)
}

/// The source form of a binary class name, fully qualified: `java.util.Map$Entry` →
/// `java.util.Map.Entry`.
pub(crate) fn source_name(binary: &str) -> String {
    binary.replace('$', ".")
}

/// Replaces the class references in `text` in the style for people: a top-level class of
/// `java.lang` (and its nested classes) by its simple name, every other class fully
/// qualified (`Double.NaN`, `java.util.Locale.US`).
pub(crate) fn for_people(text: &str) -> String {
    replace_refs(text, |binary| match split(binary) {
        ("java.lang", simple, nested) => format!("{simple}{nested}"),
        _ => source_name(binary),
    })
}

/// `text` with each class reference replaced by `name(binary name)`.
fn replace_refs(text: &str, name: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after.find(CLOSE).unwrap_or(after.len());
        out.push_str(&name(&after[..end]));
        rest = after.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

fn references(text: &str) -> impl Iterator<Item = &str> {
    text.split(OPEN)
        .skip(1)
        .filter_map(|part| part.split_once(CLOSE).map(|(name, _)| name))
}

/// Local variable names of one test method, each used once.
#[derive(Default)]
pub(crate) struct Locals {
    used: HashSet<String>,
}

impl Locals {
    /// `base` followed by `index` (`arrayList0`), or, should that be taken, with `_`
    /// appended until it is free.
    pub(crate) fn numbered(&mut self, base: &str, index: usize) -> String {
        self.fresh(format!("{base}{index}"))
    }

    /// `name`, or `name2`, `name3`, … if taken.
    pub(crate) fn plain(&mut self, name: &str) -> String {
        let mut candidate = name.to_string();
        let mut n = 1;
        while self.used.contains(&candidate) {
            n += 1;
            candidate = format!("{name}{n}");
        }
        self.fresh(candidate)
    }

    fn fresh(&mut self, mut name: String) -> String {
        while self.used.contains(&name) {
            name.push('_');
        }
        self.used.insert(name.clone());
        name
    }
}
