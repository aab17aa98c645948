//! Flat read forms of the internally tagged enums the supervisor and the workers exchange
//! millions of times a replay ([`Statement`], [`Observed`], [`SeqResult`]; the requests and
//! responses around them are read the same way in `message::wire`). serde reads an internally tagged enum by first buffering the whole value,
//! nested values included, into a generic tree, since the tag may come last; a request of
//! 500 sequences was buffered three levels deep. Each form here is a plain struct of every
//! field any variant has, read in one pass, then checked into its enum by `TryFrom`
//! (`#[serde(try_from = …)]`): the JSON is the same, written by the same derived
//! `Serialize`, and a missing field is still an error naming it.

use crate::sequence::{Observed, SeqResult, Statement, Violation, names};
use serde::Deserialize;

/// A field a variant needs, or the error naming it.
pub fn need<T>(field: Option<T>, name: &str, variant: &str) -> Result<T, String> {
    field.ok_or_else(|| format!("missing field `{name}` of `{variant}`"))
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum StatementOp {
    Literal,
    Null,
    Enum,
    New,
    Call,
    Field,
    Array,
}

#[derive(Deserialize)]
pub struct StatementWire {
    op: StatementOp,
    ty: Option<String>,
    value: Option<String>,
    constant: Option<String>,
    class: Option<String>,
    method: Option<String>,
    field: Option<String>,
    params: Option<Vec<String>>,
    receiver: Option<usize>,
    args: Option<Vec<usize>>,
    elem: Option<String>,
    elems: Option<Vec<usize>>,
}

impl TryFrom<StatementWire> for Statement {
    type Error = String;

    fn try_from(w: StatementWire) -> Result<Statement, String> {
        Ok(match w.op {
            StatementOp::Literal => Statement::Literal {
                ty: need(w.ty, "ty", "literal")?.into(),
                value: need(w.value, "value", "literal")?.into(),
            },
            StatementOp::Null => Statement::Null {
                ty: need(w.ty, "ty", "null")?.into(),
            },
            StatementOp::Enum => Statement::Enum {
                ty: need(w.ty, "ty", "enum")?.into(),
                constant: need(w.constant, "constant", "enum")?.into(),
            },
            StatementOp::New => Statement::New {
                class: need(w.class, "class", "new")?.into(),
                params: names(&need(w.params, "params", "new")?),
                args: need(w.args, "args", "new")?,
            },
            StatementOp::Call => Statement::Call {
                class: need(w.class, "class", "call")?.into(),
                method: need(w.method, "method", "call")?.into(),
                params: names(&need(w.params, "params", "call")?),
                receiver: w.receiver,
                args: need(w.args, "args", "call")?,
            },
            StatementOp::Field => Statement::Field {
                class: need(w.class, "class", "field")?.into(),
                field: need(w.field, "field", "field")?.into(),
                receiver: w.receiver,
            },
            StatementOp::Array => Statement::Array {
                elem: need(w.elem, "elem", "array")?.into(),
                elems: need(w.elems, "elems", "array")?,
            },
        })
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum ObservedKind {
    Void,
    Null,
    Value,
    Object,
    Large,
    Threw,
    Missing,
}

#[derive(Deserialize)]
pub struct ObservedWire {
    kind: ObservedKind,
    class: Option<String>,
    text: Option<String>,
    prefix: Option<String>,
    length: Option<u64>,
    digest: Option<String>,
    message: Option<String>,
    what: Option<String>,
    classpath: Option<crate::sequence::ClasspathFault>,
}

/// Writes a large value's digest as [`hex_digest`] reads it.
pub fn serialize_digest<S: serde::Serializer>(digest: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{digest:016x}"))
}

/// A large value's digest: 16 hex digits.
pub fn hex_digest(text: &str) -> Result<u64, String> {
    match u64::from_str_radix(text, 16) {
        Ok(d) if text.len() == 16 => Ok(d),
        _ => Err(format!(
            "a large value's digest is not 16 hex digits: {text:?}"
        )),
    }
}

impl TryFrom<ObservedWire> for Observed {
    type Error = String;

    fn try_from(w: ObservedWire) -> Result<Observed, String> {
        Ok(match w.kind {
            ObservedKind::Void => Observed::Void,
            ObservedKind::Null => Observed::Null,
            ObservedKind::Value => Observed::Value {
                class: need(w.class, "class", "value")?,
                text: need(w.text, "text", "value")?,
            },
            ObservedKind::Object => Observed::Object {
                class: need(w.class, "class", "object")?,
            },
            ObservedKind::Large => Observed::Large {
                class: need(w.class, "class", "large")?.into(),
                prefix: need(w.prefix, "prefix", "large")?.into(),
                length: need(w.length, "length", "large")?,
                digest: hex_digest(&need(w.digest, "digest", "large")?)?,
            },
            ObservedKind::Threw => Observed::Threw {
                class: need(w.class, "class", "threw")?,
                message: w.message,
                classpath: w.classpath.map(Box::new),
            },
            ObservedKind::Missing => Observed::Missing {
                what: need(w.what, "what", "missing")?,
            },
        })
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Outcome {
    Done,
    Timeout,
    Crash,
}

#[derive(Deserialize)]
pub struct SeqResultWire {
    outcome: Outcome,
    steps: Option<Vec<Observed>>,
    #[serde(default)]
    observations: Vec<Observed>,
    #[serde(default)]
    violations: Vec<Violation>,
    #[serde(default)]
    contents: Vec<(u32, i32)>,
    millis: Option<u64>,
    exit: Option<String>,
    stderr_tail: Option<String>,
}

impl TryFrom<SeqResultWire> for SeqResult {
    type Error = String;

    fn try_from(w: SeqResultWire) -> Result<SeqResult, String> {
        Ok(match w.outcome {
            Outcome::Done => SeqResult::Done {
                steps: need(w.steps, "steps", "done")?,
                observations: w.observations,
                violations: w.violations,
                contents: w.contents,
            },
            Outcome::Timeout => SeqResult::Timeout {
                millis: need(w.millis, "millis", "timeout")?,
            },
            Outcome::Crash => SeqResult::Crash {
                exit: need(w.exit, "exit", "crash")?,
                stderr_tail: need(w.stderr_tail, "stderr_tail", "crash")?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::sequence::{Observed, SeqResult, Statement};

    fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T) -> T {
        serde_json::from_str(&serde_json::to_string(v).unwrap()).unwrap()
    }

    #[test]
    fn every_variant_reads_back_what_was_written() {
        let statements = vec![
            Statement::literal("int", "3"),
            Statement::Null { ty: "A".into() },
            Statement::Enum {
                ty: "E".into(),
                constant: "X".into(),
            },
            Statement::new("A", &["int"], &[0]),
            Statement::call("A", "m", &[], Some(3), &[]),
            Statement::call("A", "s", &["int"], None, &[0]),
            Statement::Field {
                class: "A".into(),
                field: "F".into(),
                receiver: None,
            },
            Statement::Array {
                elem: "int".into(),
                elems: vec![0, 0],
            },
        ];
        for s in &statements {
            assert_eq!(&round_trip(s), s);
        }
        let observed = vec![
            Observed::Void,
            Observed::Null,
            Observed::Value {
                class: "java.lang.String".into(),
                text: "a\\u0000".into(),
            },
            Observed::Object { class: "A".into() },
            Observed::Large {
                class: "java.lang.String".into(),
                prefix: "xx".into(),
                length: 10_000_000,
                digest: 0x09d4ee80849a66b1,
            },
            Observed::Threw {
                class: "E".into(),
                message: None,
                classpath: None,
            },
            Observed::Threw {
                class: "E".into(),
                message: Some("m".into()),
                classpath: None,
            },
            Observed::Missing {
                what: "A.m()".into(),
            },
            Observed::Threw {
                class: "java.lang.NoClassDefFoundError".into(),
                message: Some("dep/Helper".into()),
                classpath: Some(Box::new(crate::sequence::ClasspathFault {
                    missing: "dep.Helper".into(),
                    needed_by: "lib.Words.loud".into(),
                })),
            },
        ];
        for o in &observed {
            assert_eq!(&round_trip(o), o);
        }
        let results = vec![
            SeqResult::Done {
                steps: observed.clone(),
                observations: vec![Observed::Null],
                violations: vec![],
                contents: vec![],
            },
            SeqResult::Timeout { millis: 5 },
            SeqResult::Crash {
                exit: "signal 9".into(),
                stderr_tail: "x".into(),
            },
        ];
        for r in &results {
            assert_eq!(&round_trip(r), r);
        }
    }

    #[test]
    fn a_missing_field_or_an_unknown_tag_is_an_error_naming_it() {
        let e = serde_json::from_str::<Observed>(r#"{"kind":"value","class":"A"}"#).unwrap_err();
        assert!(e.to_string().contains("`text`"), "{e}");
        let e = serde_json::from_str::<Statement>(r#"{"op":"jump"}"#).unwrap_err();
        assert!(e.to_string().contains("jump"), "{e}");
        let e = serde_json::from_str::<SeqResult>(r#"{"outcome":"done"}"#).unwrap_err();
        assert!(e.to_string().contains("`steps`"), "{e}");
        // Tags may come in any place, as before.
        let o: Observed = serde_json::from_str(r#"{"class":"A","kind":"object"}"#).unwrap();
        assert_eq!(o, Observed::Object { class: "A".into() });
    }
}
