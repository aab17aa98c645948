//! Regression oracles for objects: which observer methods are called on a value after its
//! sequence ran (section III-D of the regression-suite paper), and which observed text is
//! unstable by construction.
//!
//! An observer is public, non-static, nullary, returns a primitive or `String`, and is named
//! `size`, `count`, `length` or `toString` or starts with `get` or `is` — or is on the user's
//! `--observers` list — and is not on the shipped list of known-unstable observers
//! (`oracles/unstable-observers.txt`). Observers are looked up on the declared type of the
//! value (the class the statement's return type names), in the model's order; a value
//! declared as an interface is first observed through `toString()`, which every object has.

use crate::model::{ApiModel, Callable, ClassKind, is_primitive};
use crate::scope::glob;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The shipped list of observers whose values change from run to run.
pub(crate) const UNSTABLE_OBSERVERS: &str = include_str!("../../../oracles/unstable-observers.txt");

/// Observers at most per value, by default.
pub(crate) const DEFAULT_MAX_OBSERVERS: usize = 20;

/// An `--observers` file that cannot be read, or a line of it that is not a pattern.
#[derive(Debug, thiserror::Error)]
pub enum ObserversError {
    /// The file cannot be read.
    #[error(transparent)]
    Read(#[from] crate::atomic::bounded::ReadError),
    /// A line is not a valid pattern.
    #[error("{}:{line}: {message}", path.display())]
    Pattern {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Parses a pattern list: one `Class.method` glob a line, `#` comments.
pub(crate) fn parse_patterns(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads a user observer list: every line must be a `Class.method` glob (Java name
/// characters, `*` and `?`).
pub fn read_patterns(path: &Path) -> Result<Vec<String>, ObserversError> {
    use crate::atomic::bounded::{MAX_TEXT_BYTES, read_text};
    let text = read_text(path, MAX_TEXT_BYTES, "observer list")?;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() || is_pattern(line) {
            continue;
        }
        return Err(ObserversError::Pattern {
            path: path.to_path_buf(),
            line: n + 1,
            message: format!("not a `Class.method` pattern: {}", crate::text::clip(line)),
        });
    }
    Ok(parse_patterns(&text))
}

/// Whether `p` is `CLASS.METHOD`, both globs over Java name characters.
fn is_pattern(p: &str) -> bool {
    let ok = |s: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && !s.ends_with('.')
            && !s.contains("..")
            && s.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '*' | '?'))
    };
    match p.rsplit_once('.') {
        Some((class, method)) => ok(class) && ok(method) && !method.contains('.'),
        None => false,
    }
}

/// The first pattern whose class (without wildcards) is not in `model`, with that class.
pub(crate) fn unknown_class<'a>(
    patterns: &'a [String],
    model: &ApiModel,
) -> Option<(&'a str, &'a str)> {
    patterns.iter().find_map(|p| {
        let (class, _) = p.rsplit_once('.')?;
        let literal = !class.contains(['*', '?']);
        (literal && model.class(class).is_none()).then_some((p.as_str(), class))
    })
}

/// Chooses observers and remembers its choice per class.
pub(crate) struct Observers {
    unstable: Vec<String>,
    user: Vec<String>,
    max: usize,
    /// Also nullary conversions (`to*`, `*Value`, `name`): see [`conversion_name`].
    conversions: bool,
    cache: HashMap<String, Vec<String>>,
}

impl Observers {
    /// The shipped rules plus the user's `patterns`, at most `max` observers per value.
    pub(crate) fn new(user: Vec<String>, max: usize) -> Observers {
        Observers {
            unstable: parse_patterns(UNSTABLE_OBSERVERS),
            user,
            max,
            conversions: false,
            cache: HashMap::new(),
        }
    }

    /// Whether nullary conversions are observers too.
    pub(crate) fn with_conversions(mut self, on: bool) -> Observers {
        self.conversions = on;
        self
    }

    /// Whether `class.method` is on the list of unstable observers.
    pub(crate) fn is_unstable(&self, class: &str, method: &str) -> bool {
        let full = format!("{class}.{method}");
        self.unstable.iter().any(|p| glob(p, &full))
    }

    /// Observer method names for values declared as `class` (none if it is not modelled).
    pub(crate) fn for_class(&mut self, model: &ApiModel, class: &str) -> &[String] {
        if !self.cache.contains_key(class) {
            let chosen = self.choose(model, class);
            self.cache.insert(class.to_string(), chosen);
        }
        &self.cache[class]
    }

    fn choose(&self, model: &ApiModel, class: &str) -> Vec<String> {
        let Some(c) = model.class(class) else {
            return Vec::new();
        };
        let mut out: Vec<String> = Vec::new();
        for m in &c.methods {
            if out.len() >= self.max {
                break;
            }
            let wanted = observer_name(&m.name)
                || (self.conversions && conversion_name(&m.name))
                || self.user_listed(class, m);
            if wanted && shape_ok(m) && !self.is_unstable(class, &m.name) && !out.contains(&m.name)
            {
                out.push(m.name.clone());
            }
        }
        // An interface's methods leave out Object's, yet every value has a `toString()`: of
        // a List, Set, Map or CharSequence it shows the content, which `size()` does not, so
        // it comes first (a replay reports a test's first differing value).
        let to_string = "toString".to_string();
        if c.kind == ClassKind::Interface
            && !out.contains(&to_string)
            && !self.is_unstable(class, &to_string)
        {
            out.insert(0, to_string);
            out.truncate(self.max);
        }
        out
    }

    fn user_listed(&self, class: &str, m: &Callable) -> bool {
        let full = format!("{class}.{}", m.name);
        self.user.iter().any(|p| glob(p, &full))
    }
}

/// Public (the model holds only public members), non-static, nullary, primitive or String.
fn shape_ok(m: &Callable) -> bool {
    !m.is_static
        && m.params.is_empty()
        && m.name != "<init>"
        && m.returns != "void"
        && (is_primitive(&m.returns) || m.returns == "java.lang.String")
}

/// The naming rule: `size`, `count`, `length`, `toString`, `getX`, `isX`.
pub(crate) fn observer_name(name: &str) -> bool {
    matches!(name, "size" | "count" | "length" | "toString")
        || (name.len() > 3 && name.starts_with("get") && name != "getClass")
        || (name.len() > 2 && name.starts_with("is"))
}

/// A nullary conversion to a primitive or a String: `toPattern()`, `toLanguageTag()`,
/// `toEpochDay()`, `intValue()`, `name()` — what a value *is* in another form, which often
/// shows data the getters do not (a format's pattern, a locale's tag).
pub(crate) fn conversion_name(name: &str) -> bool {
    let after_to = name.strip_prefix("to").and_then(|r| r.chars().next());
    after_to.is_some_and(char::is_uppercase)
        || (name.len() > 5 && name.ends_with("Value"))
        || matches!(name, "name" | "ordinal")
}

/// Whether observed text contains an identity hash like `java.lang.Object@1b6d3586` or
/// `[I@4e25154f`: such text changes from run to run.
pub(crate) fn looks_identity_based(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        if b != b'@' || i == 0 {
            return false;
        }
        let before = bytes[i - 1];
        if !(before.is_ascii_alphanumeric() || b"_$;]".contains(&before)) {
            return false;
        }
        let hex = bytes[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
            .count();
        let after = bytes.get(i + 1 + hex);
        (1..=8).contains(&hex) && after.is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ApiClass;

    fn method(name: &str, returns: &str, params: &[&str], is_static: bool) -> Callable {
        Callable::new(name, params, returns, is_static)
    }

    fn model() -> ApiModel {
        let c = ApiClass {
            name: "p.Bag".into(),
            kind: ClassKind::Class,
            supertypes: vec![],
            constructors: vec![],
            methods: vec![
                method("size", "int", &[], false),
                method("isEmpty", "boolean", &[], false),
                method("getName", "java.lang.String", &[], false),
                method("getItems", "java.util.List", &[], false),
                method("getAt", "int", &["int"], false),
                method("getDefault", "int", &[], true),
                method("hashCode", "int", &[], false),
                method("capacity", "int", &[], false),
                method("weight", "double", &[], false),
                method("toString", "java.lang.String", &[], false),
            ],
            fields: vec![],
            enum_constants: vec![],
            deprecated_for_removal: false,
        };
        ApiModel {
            classes: [(c.name.clone(), c)].into_iter().collect(),
        }
    }

    #[test]
    fn observers_follow_the_naming_rule_and_lists() {
        let m = model();
        let mut o = Observers::new(vec![], 20);
        assert_eq!(
            o.for_class(&m, "p.Bag"),
            ["size", "isEmpty", "getName", "toString"]
        );
        let mut o = Observers::new(vec!["p.Bag.weight".into(), "*.capacity".into()], 20);
        assert_eq!(
            o.for_class(&m, "p.Bag"),
            ["size", "isEmpty", "getName", "weight", "toString"]
        );
        assert!(o.for_class(&m, "p.Other").is_empty());
        let mut o = Observers::new(vec![], 2);
        assert_eq!(o.for_class(&m, "p.Bag").len(), 2);
        assert!(o.is_unstable("java.lang.Object", "toString"));
        assert!(!o.is_unstable("java.util.ArrayList", "toString"));
    }

    #[test]
    fn an_interface_is_observed_through_to_string_too() {
        let mut m = model();
        let mut bag = m.classes["p.Bag"].clone();
        bag.name = "p.Items".into();
        bag.kind = ClassKind::Interface;
        bag.methods.retain(|c| c.name != "toString");
        m.classes.insert(bag.name.clone(), bag);
        let mut o = Observers::new(vec![], 20);
        assert_eq!(
            o.for_class(&m, "p.Items"),
            ["toString", "size", "isEmpty", "getName"]
        );
        let mut o = Observers::new(vec![], 3);
        assert_eq!(o.for_class(&m, "p.Items"), ["toString", "size", "isEmpty"]);
    }

    #[test]
    fn identity_hashes_are_recognised() {
        assert!(looks_identity_based("java.lang.Object@1b6d3586"));
        assert!(looks_identity_based("[I@4e25154f"));
        assert!(looks_identity_based("[p.Bag@7a81197d, 3]"));
        assert!(!looks_identity_based("user@example.org"));
        assert!(!looks_identity_based("@abc"));
        assert!(!looks_identity_based("a @ b"));
        assert!(!looks_identity_based("x@123456789"));
    }
}
