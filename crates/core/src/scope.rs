//! Which part of an implementation's API difftest exercises: the default scope (the
//! packages of the Randoop paper's JDK experiment that do no I/O; for a target that adds a
//! library, the library's own jars), user scopes from flags or a class-list file (packages
//! with their subpackages, `p.` for one package alone, class globs), and the omit list of
//! methods and classes never to call.

use crate::atomic::bounded::{MAX_TEXT_BYTES, read_text};
use crate::exit::bad_input;
use crate::model::{ApiClass, ApiModel, Callable};
use std::path::Path;

/// Packages described when no scope is given (a package does not bring its subpackages):
/// the pure, in-memory parts of `java.base`, `java.xml` and `java.beans`. What in them
/// touches files, the network, processes, threads or JVM-wide state is on the omit list.
pub const DEFAULT_PACKAGES: &[&str] = &[
    "java.beans",
    "java.lang",
    "java.lang.constant",
    "java.math",
    "java.nio",
    "java.nio.charset",
    "java.security",
    "java.security.spec",
    "java.sql",
    "java.text",
    "java.time",
    "java.time.chrono",
    "java.time.format",
    "java.time.temporal",
    "java.time.zone",
    "java.util",
    "java.util.function",
    "java.util.random",
    "java.util.regex",
    "java.util.stream",
    "java.util.zip",
    "javax.crypto",
    "javax.crypto.spec",
    "javax.xml.datatype",
    "javax.xml.namespace",
    "javax.xml.parsers",
    "javax.xml.xpath",
];

/// Single classes described when no scope is given, beyond [`DEFAULT_PACKAGES`]: the parts
/// of `java.net` that neither resolve names nor connect.
pub const DEFAULT_CLASSES: &[&str] = &[
    "java.net.IDN",
    "java.net.URI",
    "java.net.URLDecoder",
    "java.net.URLEncoder",
];

/// The default scope as (classes, packages).
pub fn default_scope() -> (Vec<String>, Vec<String>) {
    let own = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
    (own(DEFAULT_CLASSES), own(DEFAULT_PACKAGES))
}

/// Classes whose instances the JDK shares across the JVM and hands out to any caller: the
/// installed security providers (`Security.getProvider`). The omit list keeps out their
/// mutators, also when reached through a supertype as the receiver (`Properties.put`); the
/// generator passes such an object only where its own class is expected, so no wrapper
/// (`Collections.synchronizedMap(provider).put(…)`) writes to it either.
pub(crate) const SHARED_INSTANCES: &[&str] = &["java.security.Provider"];

/// The omit list shipped with difftest (`targets/omit.txt`).
pub(crate) const DEFAULT_OMIT: &str = include_str!("../../../targets/omit.txt");

/// Glob patterns naming classes and members never to call.
#[derive(Clone, Debug, Default)]
pub struct OmitList {
    patterns: Vec<String>,
    /// Whether a member taking a `java.lang.Class` stays though the class is omitted: the
    /// generator then passes only class literals it made itself (`--class-values`).
    class_params: bool,
}

impl OmitList {
    /// The shipped list.
    pub fn default_list() -> OmitList {
        OmitList::parse(DEFAULT_OMIT)
    }

    /// One pattern a line; blank lines and `#` comments ignored.
    pub fn parse(text: &str) -> OmitList {
        let patterns = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        OmitList {
            patterns,
            class_params: false,
        }
    }

    /// Keeps members that take a `java.lang.Class`, for a generator that passes class
    /// literals; Class itself, its members and what returns a Class stay omitted.
    pub fn allowing_class_params(mut self) -> OmitList {
        self.class_params = true;
        self
    }

    /// Reads a list from a file; the error names the file.
    pub fn read(path: &Path) -> anyhow::Result<OmitList> {
        let text =
            read_text(path, MAX_TEXT_BYTES, "omit list").map_err(|e| bad_input(e.to_string()))?;
        Ok(OmitList::parse(&text))
    }

    /// Adds another list's patterns.
    pub fn extend(&mut self, other: OmitList) {
        self.patterns.extend(other.patterns);
    }

    /// Entries in the list.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the list has no entry.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether the class itself is omitted.
    pub fn omits_class(&self, class: &str) -> bool {
        self.decides(&[class])
    }

    /// Whether a member of `class` is omitted, by name or by full signature. A static method
    /// inherited from a superclass is the one its declaring class has, so it is also named
    /// on that class (`lib.Zone.setProvider` omits the same static reached as
    /// `lib.CachedZone.setProvider`).
    pub fn omits_member(&self, class: &str, member: &Callable) -> bool {
        let signature = member.signature();
        let owners = std::iter::once(class).chain(member.declared_in.as_deref());
        let mut names = vec![class.to_string()];
        for owner in owners {
            names.push(format!("{owner}.{}", member.name));
            names.push(format!("{owner}.{signature}"));
        }
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        self.decides(&names)
    }

    /// The last pattern matching any of `names` decides: omitted, unless it is a `!`
    /// pattern, which lets back what an earlier one omitted.
    fn decides(&self, names: &[&str]) -> bool {
        self.patterns
            .iter()
            .rev()
            .find_map(|p| {
                let (allow, p) = match p.strip_prefix('!') {
                    Some(rest) => (true, rest),
                    None => (false, p.as_str()),
                };
                names.iter().any(|n| glob(p, n)).then_some(!allow)
            })
            .unwrap_or(false)
    }

    /// The model without omitted classes and members, nor members whose signature mentions
    /// an omitted class (they could only be called with, or yield, forbidden objects).
    pub fn filter(&self, model: &ApiModel) -> ApiModel {
        let classes = model
            .classes
            .values()
            .filter(|c| !self.omits_class(&c.name))
            .map(|c| (c.name.clone(), self.filter_class(c)))
            .collect();
        ApiModel { classes }
    }

    fn omits_param(&self, ty: &str) -> bool {
        !(self.class_params && ty == crate::sequence::CLASS) && self.omits_class(ty)
    }

    fn filter_class(&self, class: &ApiClass) -> ApiClass {
        let keep = |m: &Callable| {
            !self.omits_member(&class.name, m)
                && !m.params.iter().any(|p| self.omits_param(element(p)))
                && !self.omits_class(element(&m.returns))
        };
        let mut out = class.clone();
        out.constructors.retain(keep);
        out.methods.retain(keep);
        out.fields
            .retain(|f| !self.omits_class(element(&f.ty)) && !self.omits_class(&class.name));
        out
    }
}

/// The element type of an array type name.
fn element(ty: &str) -> &str {
    ty.trim_end_matches("[]")
}

/// `*` matches any run of characters; everything else matches itself.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

/// A package as a user spells it, in the form the worker describes: `p` and `p.*` are the
/// package with its subpackages (`p.*`), `p.` the package alone (`p`).
pub fn package_scope(text: &str) -> Result<String, String> {
    let (name, form) = match (text.strip_suffix(".*"), text.strip_suffix('.')) {
        (Some(p), _) => (p, format!("{p}.*")),
        (None, Some(p)) => (p, p.to_string()),
        (None, None) => (text, format!("{text}.*")),
    };
    match is_java_name(name) {
        true => Ok(form),
        false => Err(format!("not a package name: {text:?}")),
    }
}

/// The packages (each alone) the classes named live in, sorted, each once.
pub(crate) fn packages_of<'a>(classes: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut packages: Vec<String> = classes
        .filter_map(|c| c.rsplit_once('.').map(|(p, _)| p.to_string()))
        .collect();
    packages.sort();
    packages.dedup();
    packages
}

/// Whether a class name is a glob pattern (`org.example.*Builder`).
pub(crate) fn is_class_glob(name: &str) -> bool {
    name.contains('*')
}

/// The package a class glob's matches live under (with subpackages, as `*` matches dots):
/// everything before the last `.` ahead of the first `*`.
pub(crate) fn glob_root(pattern: &str) -> Result<String, String> {
    let head = &pattern[..pattern.find('*').unwrap_or(pattern.len())];
    let root = head.rsplit_once('.').map(|(p, _)| p).unwrap_or_default();
    let rest_ok = is_java_name(&pattern.replace('*', "x"));
    match is_java_name(root) && rest_ok {
        true => Ok(format!("{root}.*")),
        false => Err(format!(
            "class pattern {pattern:?} needs a package before its first * (org.example.*Builder)"
        )),
    }
}

/// Checks a class name or glob.
pub fn check_class(name: &str) -> Result<(), String> {
    match is_class_glob(name) {
        true => glob_root(name).map(|_| ()),
        false if is_java_name(name) => Ok(()),
        false => Err(format!("not a class name: {name:?}")),
    }
}

/// Reads a class-list file: one class (or class glob), `package.*` (with subpackages) or
/// `package.` (alone) a line, `#` comments.
pub fn read_class_list(path: &Path) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let text =
        read_text(path, MAX_TEXT_BYTES, "class list").map_err(|e| bad_input(e.to_string()))?;
    let (mut classes, mut packages) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let parsed = match line.ends_with(".*") || line.ends_with('.') {
            true => package_scope(line).map(|p| packages.push(p)),
            false => check_class(line).map(|()| classes.push(line.to_string())),
        };
        if let Err(why) = parsed {
            let what = format!("{}:{}: {why}", path.display(), n + 1);
            return Err(bad_input(crate::text::clip(&what)));
        }
    }
    if classes.is_empty() && packages.is_empty() {
        return Err(bad_input(format!(
            "{}: the class list names no class or package (only blank lines or comments)",
            path.display()
        )));
    }
    Ok((classes, packages))
}

/// A dotted Java name (with `$` for nested classes).
pub(crate) fn is_java_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn callable(name: &str, params: &[&str]) -> Callable {
        Callable::new(name, params, "void", false)
    }

    #[test]
    fn a_bang_pattern_lets_back_what_an_earlier_one_omitted_and_the_last_match_decides() {
        let omit = OmitList::parse("java.net.*\n!java.net.URI\njava.net.URI.toURL\n");
        assert!(omit.omits_class("java.net.URL"));
        assert!(!omit.omits_class("java.net.URI"));
        assert!(omit.omits_member("java.net.URI", &callable("toURL", &[])));
        assert!(!omit.omits_member("java.net.URI", &callable("getHost", &[])));
        let shipped = OmitList::default_list();
        assert!(
            shipped.omits_class("java.net.InetAddress") && !shipped.omits_class("java.net.IDN")
        );
        assert!(
            shipped.omits_class("java.nio.file.Files")
                && !shipped.omits_class("java.nio.ByteBuffer")
        );
    }

    #[test]
    fn class_params_are_kept_only_when_allowed_and_class_results_never() {
        let takes = Callable::new("allOf", &["java.lang.Class"], "java.util.EnumSet", true);
        let gives = Callable::new("kind", &[], "java.lang.Class", false);
        let class = ApiClass::with_methods("java.util.EnumSet", &[], vec![takes, gives]);
        let mut model = ApiModel::default();
        model.classes.insert(class.name.clone(), class);
        let names = |omit: OmitList| -> Vec<String> {
            let out = omit.filter(&model);
            out.classes["java.util.EnumSet"]
                .methods
                .iter()
                .map(|m| m.name.clone())
                .collect()
        };
        assert!(names(OmitList::default_list()).is_empty());
        assert_eq!(
            names(OmitList::default_list().allowing_class_params()),
            ["allOf"]
        );
    }

    #[test]
    fn a_static_named_on_its_declaring_class_is_omitted_wherever_it_is_inherited() {
        let omit = OmitList::parse("lib.Zone.setProvider\njava.io.*\n");
        let mut set = Callable::new("setProvider", &["lib.Provider"], "void", true);
        assert!(!omit.omits_member("lib.CachedZone", &set));
        set.declared_in = Some("lib.Zone".into());
        assert!(omit.omits_member("lib.CachedZone", &set));
        let mut nothing = Callable::new("nullInputStream", &[], "java.io.InputStream", true);
        nothing.declared_in = Some("java.io.InputStream".into());
        assert!(omit.omits_member("lib.CountingStream", &nothing));
        let own = Callable::new("of", &["java.lang.String"], "lib.CountingStream", true);
        assert!(!omit.omits_member("lib.CountingStream", &own));
    }

    #[test]
    fn glob_matches_runs() {
        assert!(glob("java.lang.Thread*", "java.lang.ThreadLocal"));
        assert!(glob("*.wait(*", "java.lang.Object.wait(long)"));
        assert!(!glob("java.lang.System", "java.lang.SystemX"));
        assert!(glob("a*b*c", "aXbYc") && !glob("a*b*c", "aXcYb"));
    }

    #[test]
    fn default_list_omits_exit_and_set_default_but_not_arraylist() {
        let omit = OmitList::default_list();
        assert!(omit.omits_class("java.lang.System"));
        assert!(omit.omits_member(
            "java.util.Locale",
            &callable("setDefault", &["java.util.Locale"])
        ));
        assert!(omit.omits_member("java.lang.Object", &callable("wait", &["long"])));
        assert!(omit.omits_member(
            "java.util.Formatter",
            &callable("<init>", &["java.lang.String"])
        ));
        assert!(!omit.omits_member("java.util.Formatter", &callable("<init>", &[])));
        assert!(!omit.omits_class("java.util.ArrayList"));
        let inherited = callable("setDefault", &["java.util.TimeZone"]);
        assert!(omit.omits_member("java.util.SimpleTimeZone", &inherited));
        // Calls by a method's name, which would reach what the list omits.
        assert!(
            omit.omits_class("java.beans.Statement") && omit.omits_class("java.beans.Expression")
        );
        let create = callable(
            "create",
            &["java.lang.Class", "java.lang.Object", "java.lang.String"],
        );
        assert!(omit.omits_member("java.beans.EventHandler", &create));
    }

    #[test]
    fn packages_take_their_subpackages_unless_spelled_with_a_trailing_dot() {
        assert_eq!(package_scope("org.x").unwrap(), "org.x.*");
        assert_eq!(package_scope("org.x.*").unwrap(), "org.x.*");
        assert_eq!(package_scope("org.x.").unwrap(), "org.x");
        for bad in ["org..x", "org.x.**", ".", "org x"] {
            assert!(package_scope(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn class_globs_are_described_from_their_package() {
        assert_eq!(glob_root("org.x.*Utils").unwrap(), "org.x.*");
        assert_eq!(glob_root("org.x.y*").unwrap(), "org.x.*");
        assert!(glob_root("*Utils").is_err() && glob_root("org.x.*Ut ils").is_err());
        assert!(check_class("org.x.A$B").is_ok() && check_class("org.x.").is_err());
        assert!(glob("org.x.*Utils", "org.x.sub.StringUtils"));
    }

    #[test]
    fn java_names_are_checked() {
        assert!(is_java_name("java.util.Map$Entry"));
        assert!(!is_java_name("java..util") && !is_java_name("java.util List"));
    }
}
