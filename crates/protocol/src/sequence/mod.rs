//! Method-call sequences and what running one gave: statements, their outcomes, observer
//! calls, contract checks, and the canonical text used to recognise equal sequences.
//!
//! A statement refers to earlier statements' values by index. Values shown to people and
//! stored in suites are Java-rendered text, escaped so that every character a human cannot
//! see is written as `\uXXXX` (see [`escape`]).

pub mod wire;

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::Arc;

/// A name or literal text in a statement or observer call. Shared, not owned: a sequence's
/// statements are instantiated from interned templates for every request, and a clone of a
/// shared name is a count, not a copy, so the requests of a round in flight hold each class,
/// method and parameter type once.
pub type Name = Arc<str>;

/// The type of a class literal (`Literal { ty: CLASS, value: "java.util.Map$Entry" }`,
/// `Map.Entry.class` in Java): its value is a binary class name, a primitive or an array.
pub const CLASS: &str = "java.lang.Class";

/// One statement of a sequence. `args` and `receiver` index earlier statements.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(
    tag = "op",
    rename_all = "snake_case",
    try_from = "wire::StatementWire"
)]
pub enum Statement {
    /// A primitive or String literal; `value` is the escaped Java rendering (`3`, `-0.5`, `a\n`).
    Literal { ty: Name, value: Name },
    /// `(ty) null`.
    Null { ty: Name },
    /// An enum constant `ty.constant`.
    Enum { ty: Name, constant: Name },
    /// `new class(args)` with the constructor of the given parameter types.
    New {
        class: Name,
        params: Vec<Name>,
        args: Vec<usize>,
    },
    /// `receiver.method(args)`, or `class.method(args)` when `receiver` is `None`.
    Call {
        class: Name,
        method: Name,
        params: Vec<Name>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        receiver: Option<usize>,
        args: Vec<usize>,
    },
    /// A public field read: `receiver.field` or `class.field`.
    Field {
        class: Name,
        field: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        receiver: Option<usize>,
    },
    /// `new elem[] { elems }`.
    Array { elem: Name, elems: Vec<usize> },
}

impl Statement {
    /// A literal of primitive or String type `ty`; `value` is its escaped Java rendering.
    pub fn literal(ty: &str, value: &str) -> Statement {
        Statement::Literal {
            ty: ty.into(),
            value: value.into(),
        }
    }

    /// `new class(args)` with the constructor taking `params`.
    pub fn new(class: &str, params: &[&str], args: &[usize]) -> Statement {
        Statement::New {
            class: class.into(),
            params: names(params),
            args: args.to_vec(),
        }
    }

    /// `receiver.method(args)`, or the static `class.method(args)` when `receiver` is `None`.
    pub fn call(
        class: &str,
        method: &str,
        params: &[&str],
        receiver: Option<usize>,
        args: &[usize],
    ) -> Statement {
        Statement::Call {
            class: class.into(),
            method: method.into(),
            params: names(params),
            receiver,
            args: args.to_vec(),
        }
    }

    /// `receiver.field`, or the static `class.field` when `receiver` is `None`.
    pub fn field(class: &str, field: &str, receiver: Option<usize>) -> Statement {
        Statement::Field {
            class: class.into(),
            field: field.into(),
            receiver,
        }
    }

    /// Indices of earlier statements this one reads.
    pub fn inputs(&self) -> Vec<usize> {
        match self {
            Statement::New { args, .. } => args.clone(),
            Statement::Call { receiver, args, .. } => {
                receiver.iter().chain(args).copied().collect()
            }
            Statement::Field { receiver, .. } => receiver.iter().copied().collect(),
            Statement::Array { elems, .. } => elems.clone(),
            _ => Vec::new(),
        }
    }

    /// The same statement with its input indices mapped through `f`.
    pub fn remap(&self, f: impl Fn(usize) -> usize) -> Statement {
        let map = |v: &Vec<usize>| v.iter().map(|&i| f(i)).collect();
        let mut s = self.clone();
        match &mut s {
            Statement::New { args, .. } => *args = map(args),
            Statement::Call { receiver, args, .. } => {
                *receiver = receiver.map(&f);
                *args = map(args);
            }
            Statement::Field { receiver, .. } => *receiver = receiver.map(&f),
            Statement::Array { elems, .. } => *elems = map(elems),
            _ => {}
        }
        s
    }

    /// The class a constructor, call or field belongs to; the type of anything else.
    pub fn class_name(&self) -> &str {
        match self {
            Statement::New { class, .. }
            | Statement::Call { class, .. }
            | Statement::Field { class, .. } => class,
            Statement::Literal { ty, .. } | Statement::Null { ty } | Statement::Enum { ty, .. } => {
                ty
            }
            Statement::Array { elem, .. } => elem,
        }
    }

    /// `Class.method(params)` for calls and constructors, the field or literal otherwise:
    /// the key that groups differences by the call that diverged.
    pub fn callee(&self) -> String {
        match self {
            Statement::New { class, params, .. } => format!("{class}.<init>({})", params.join(",")),
            Statement::Call {
                class,
                method,
                params,
                ..
            } => format!("{class}.{method}({})", params.join(",")),
            Statement::Field { class, field, .. } => format!("{class}.{field}"),
            // A class literal is keyed by its class: a class one side lacks is its own group.
            Statement::Literal { ty, value } if &**ty == CLASS => {
                format!("{value}.class")
            }
            Statement::Literal { ty, .. } | Statement::Null { ty } => format!("literal {ty}"),
            Statement::Enum { ty, constant } => format!("{ty}.{constant}"),
            Statement::Array { elem, .. } => format!("{elem}[]"),
        }
    }
}

/// Which values depend on the stack of whoever runs the sequence — difftest's reflective
/// worker, whose frames differ between JDKs (JEP 416 reimplemented reflection on method
/// handles) and even within one JVM (JDK 17 swaps native accessors for generated ones after
/// 15 calls), or JUnit: a stack read (`getStackTrace()`, `StackWalker`, `getAllStackTraces`),
/// what `printStackTrace` writes into, anything computed from one, and every input of a call
/// that reads one (it may store it, as `list.addAll(Arrays.asList(stack))` does).
pub fn caller_stack(statements: &[Statement]) -> Vec<bool> {
    let mut tainted = vec![false; statements.len()];
    if !statements.iter().any(|s| stack_source(s) != (false, false)) {
        return tainted; // the common case, on every kept test while generating
    }
    for (i, s) in statements.iter().enumerate() {
        let (source, fills) = stack_source(s);
        let inputs = s.inputs();
        let reads = inputs.iter().any(|&j| tainted.get(j) == Some(&true));
        if reads || fills {
            let receiver = match s {
                Statement::Call { receiver, .. } => *receiver,
                _ => None,
            };
            for j in inputs.into_iter().filter(|&j| reads || Some(j) != receiver) {
                if let Some(t) = tainted.get_mut(j) {
                    *t = true;
                }
            }
        }
        tainted[i] = source || reads;
    }
    tainted
}

/// Whether `s` reads the stack (`getStackTrace()`, …), and whether it writes it into its
/// arguments (`printStackTrace(writer)`).
fn stack_source(s: &Statement) -> (bool, bool) {
    match s {
        Statement::Call { class, method, .. } => (
            matches!(&**method, "getStackTrace" | "getAllStackTraces")
                || &**class == "java.lang.StackWalker",
            &**method == "printStackTrace",
        ),
        _ => (false, false),
    }
}

/// Shared names of `list` (parameter types, for a statement).
pub fn names(list: &[impl AsRef<str>]) -> Vec<Name> {
    list.iter().map(|n| n.as_ref().into()).collect()
}

/// A nullary method called on the value of statement `stmt` after the sequence ran,
/// looked up on the public type `class`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObserverCall {
    pub stmt: usize,
    pub class: Name,
    pub method: Name,
}

impl ObserverCall {
    /// `class.method()` called on the value of statement `stmt`.
    pub fn new(stmt: usize, class: &str, method: &str) -> ObserverCall {
        ObserverCall {
            stmt,
            class: class.into(),
            method: method.into(),
        }
    }
}

/// What a statement or an observer call gave.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    try_from = "wire::ObservedWire"
)]
pub enum Observed {
    /// A `void` method returned.
    Void,
    /// The value is `null`.
    Null,
    /// A primitive, boxed primitive, String or enum constant, with its escaped Java rendering.
    Value { class: String, text: String },
    /// Any other object: only its runtime class is recorded.
    Object { class: String },
    /// A `Value` whose escaped text is longer than the record's `max_value_bytes`: its first
    /// characters (escaped), its length in UTF-16 units and a 64-bit digest of its text (hex:
    /// CRC-32C and CRC-32 of its UTF-16 units, `crates/worker/java/difftest/Digest.java`), so it is stored and
    /// compared without the text itself.
    Large {
        class: Box<str>,
        prefix: Box<str>,
        length: u64,
        /// Written as 16 hex digits, as the Java agent sends it.
        #[serde(serialize_with = "wire::serialize_digest")]
        digest: u64,
    },
    /// The call threw (after unwrapping `InvocationTargetException`).
    Threw {
        class: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        /// Set when the class path is at fault, not the code: never an oracle.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        classpath: Option<Box<ClasspathFault>>,
    },
    /// The class, method, constructor or field does not exist on this implementation.
    Missing { what: String },
}

/// What the class path lacked when a call threw a linkage error: the environment's fault,
/// not the library's behaviour. The agent decides (`crates/worker/java/difftest/Linkage.java`):
/// a `NoClassDefFoundError` naming a class that does not load, an
/// `IncompatibleClassChangeError` (`NoSuchMethodError`, `AbstractMethodError`, …), a native
/// method that failed to link, or a static initializer that failed with one of these or a
/// `ClassNotFoundException`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClasspathFault {
    /// The missing class (binary name), or the linkage error's message for a member.
    pub missing: String,
    /// `Class.method` of the class path code that needed it; empty when none was on the
    /// stack (the callee's own signature named the missing class).
    pub needed_by: String,
}

impl ClasspathFault {
    /// `needed_by`, or `callee` when the stack named no class path code.
    pub fn needer<'a>(&'a self, callee: &'a str) -> &'a str {
        if self.needed_by.is_empty() {
            callee
        } else {
            &self.needed_by
        }
    }
}

impl Observed {
    /// `Threw` with `class` and `message`, the code (not the class path) at fault.
    pub fn threw(class: &str, message: Option<&str>) -> Observed {
        Observed::Threw {
            class: class.into(),
            message: message.map(str::to_string),
            classpath: None,
        }
    }

    /// What the class path lacked, when it (not the code) made this call throw.
    pub fn classpath(&self) -> Option<&ClasspathFault> {
        match self {
            Observed::Threw { classpath, .. } => classpath.as_deref(),
            _ => None,
        }
    }

    /// Whether the statement ended the sequence abnormally.
    pub fn is_abnormal(&self) -> bool {
        matches!(self, Observed::Threw { .. } | Observed::Missing { .. })
    }

    /// A short one-line rendering for tables and logs.
    pub fn render(&self) -> String {
        match self {
            Observed::Void => "void".into(),
            Observed::Null => "null".into(),
            Observed::Value { class, text } if class == "java.lang.String" => format!("\"{text}\""),
            Observed::Value { text, .. } => text.clone(),
            Observed::Object { class } => format!("<{class}>"),
            Observed::Large {
                prefix,
                length,
                digest,
                ..
            } => format!("\"{prefix}\"... ({length} chars, digest {digest:016x})"),
            Observed::Threw {
                class,
                message: Some(m),
                ..
            } => format!("throws {class}: {m}"),
            Observed::Threw { class, .. } => format!("throws {class}"),
            Observed::Missing { what } => format!("missing {what}"),
        }
    }
}

/// Whether `text` is the [`Observed::render`] of a large value: it ends in
/// `... (N chars, digest HEX)`, whose hex word is the digest, not a value's hash.
pub fn is_large_rendering(text: &str) -> bool {
    let Some(rest) = text.strip_suffix(')') else {
        return false;
    };
    let Some((head, digest)) = rest.rsplit_once(" chars, digest ") else {
        return false;
    };
    let length = head.rsplit_once("... (").map_or("", |(_, n)| n);
    !length.is_empty()
        && length.bytes().all(|b| b.is_ascii_digit())
        && digest.len() == 16
        && digest.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A contract the value of a statement broke (Randoop's default contracts).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Violation {
    pub stmt: usize,
    /// `equals-reflexive`, `equals-throws`, `hashCode-throws` or `toString-throws`.
    pub contract: String,
    pub detail: String,
}

/// What running one sequence on one worker gave.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(
    tag = "outcome",
    rename_all = "snake_case",
    try_from = "wire::SeqResultWire"
)]
pub enum SeqResult {
    /// It ran to the end, or to the first statement that threw.
    Done {
        /// One outcome per statement executed; the last may be abnormal.
        steps: Vec<Observed>,
        /// One per requested observer, in request order; empty when a statement threw.
        #[serde(default)]
        observations: Vec<Observed>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        violations: Vec<Violation>,
        /// `(step, digest)` of each step whose value is an array: a hash of what it holds,
        /// equal in every run for equal content (flake removal learns from it that an
        /// array is random; nothing checks it).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        contents: Vec<(u32, i32)>,
    },
    /// No answer within the per-call timeout; the worker was killed.
    Timeout { millis: u64 },
    /// The worker died while running it.
    Crash { exit: String, stderr_tail: String },
}

/// Escapes a Java string for display and storage: printable ASCII stays, `\` becomes `\\`,
/// and every other UTF-16 unit becomes `\uXXXX` (`\n`, `\t`, `\r` keep their short forms).
pub fn escape(units: impl IntoIterator<Item = u16>) -> String {
    let mut out = String::new();
    for u in units {
        match u {
            0x5c => out.push_str("\\\\"),
            0x0a => out.push_str("\\n"),
            0x09 => out.push_str("\\t"),
            0x0d => out.push_str("\\r"),
            0x20..=0x7e => out.push(u as u8 as char),
            _ => {
                let _ = write!(out, "\\u{u:04X}");
            }
        }
    }
    out
}

/// Escapes a Rust string (see [`escape`]).
pub fn escape_str(s: &str) -> String {
    escape(s.encode_utf16())
}

/// Reverses [`escape`] into UTF-16 units; `None` for a malformed escape.
pub fn unescape(text: &str) -> Option<Vec<u16>> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        match chars.next()? {
            '\\' => out.push(0x5c),
            'n' => out.push(0x0a),
            't' => out.push(0x09),
            'r' => out.push(0x0d),
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(
                    u16::from_str_radix(&hex, 16)
                        .ok()
                        .filter(|_| hex.len() == 4)?,
                );
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_makes_invisible_characters_visible() {
        assert_eq!(escape_str("12:00\u{202F}AM"), "12:00\\u202FAM");
        assert_eq!(escape_str("a\\b\n\u{1F600}"), "a\\\\b\\n\\uD83D\\uDE00");
    }

    #[test]
    fn unescape_reverses_escape_including_lone_surrogates() {
        let units = vec![0x61, 0xD800, 0x5c, 0x0a, 0x202F];
        assert_eq!(unescape(&escape(units.clone())), Some(units));
        assert_eq!(unescape("\\u12"), None);
        assert_eq!(unescape("\\q"), None);
    }

    fn stack_call(method: &str, receiver: Option<usize>, args: &[usize]) -> Statement {
        Statement::call("t.C", method, &vec!["int"; args.len()], receiver, args)
    }

    #[test]
    fn a_stack_read_taints_what_is_computed_from_it_and_what_print_stack_trace_fills() {
        // v0 = new E(); v1 = v0.getStackTrace(); v2 = length(v1); v3 = new StringWriter;
        // v4 = v0.printStackTrace(v3); v5 = v0.getMessage()
        let stmts = [
            stack_call("newE", None, &[]),
            stack_call("getStackTrace", Some(0), &[]),
            stack_call("length", None, &[1]),
            stack_call("newWriter", None, &[]),
            stack_call("printStackTrace", Some(0), &[3]),
            stack_call("getMessage", Some(0), &[]),
        ];
        let t = caller_stack(&stmts);
        assert_eq!(t, [false, true, true, true, false, false]);
    }

    #[test]
    fn remap_moves_inputs() {
        let s = Statement::call(
            "java.util.List",
            "add",
            &["java.lang.Object"],
            Some(0),
            &[1],
        );
        assert_eq!(s.remap(|i| i + 2).inputs(), vec![2, 3]);
        assert_eq!(s.callee(), "java.util.List.add(java.lang.Object)");
    }
}
