//! Encodes a sequence into the line format the Java agent (`java/difftest/Agent.java`)
//! reads: one line per statement or observer, tab-separated fields, every text field
//! escaped with [`escape_str`] so the payload is plain ASCII without tabs or newlines.

use crate::message::SeqRequest;
use crate::sequence::{ObserverCall, Statement, escape_str};
use std::fmt::Write as _;

/// How a sequence is run, beyond its statements.
#[derive(Clone, Copy, Debug, Default)]
pub struct Encoding {
    /// Check the contracts after the sequence (`K` line).
    pub contracts: bool,
    /// Values whose escaped text is longer come back as `large` (`M` line; none: whole).
    pub max_value_bytes: Option<u64>,
    /// A call repeated on the same values right after it returned a `large` value ends the
    /// sequence instead of running (`R` line): each repeat would only build another such
    /// value, and a hundred of them outlast any timeout. Generation's runs only: a replay
    /// runs every recorded statement.
    pub end_large_repeats: bool,
    /// The `toString()` observer of an object whose class keeps `Object.toString()` answers
    /// `Class@0` without calling the class's `hashCode()` (`I` line): its text is
    /// never checked, and a content hash behind it can cost milliseconds.
    pub plain_class_text: bool,
}

/// The agent's input for one sequence.
pub fn encode(req: &SeqRequest, encoding: Encoding) -> String {
    let mut out = String::with_capacity(64 * req.statements.len());
    if let Some(max) = encoding.max_value_bytes {
        let _ = writeln!(out, "M\t{max}");
    }
    if encoding.end_large_repeats {
        out.push_str("R\n");
    }
    if encoding.plain_class_text {
        out.push_str("I\n");
    }
    for s in &req.statements {
        encode_statement(&mut out, s);
        out.push('\n');
    }
    for o in &req.observers {
        encode_observer(&mut out, o);
        out.push('\n');
    }
    if encoding.contracts {
        out.push_str("K\n");
    }
    out
}

fn encode_statement(out: &mut String, s: &Statement) {
    let e = escape_str;
    let _ = match s {
        Statement::Literal { ty, value } => write!(out, "L\t{}\t{value}", e(ty)),
        Statement::Null { ty } => write!(out, "Z\t{}", e(ty)),
        Statement::Enum { ty, constant } => write!(out, "E\t{}\t{}", e(ty), e(constant)),
        Statement::New {
            class,
            params,
            args,
        } => write!(out, "N\t{}\t{}\t{}", e(class), list(params), indices(args)),
        Statement::Call {
            class,
            method,
            params,
            receiver,
            args,
        } => write!(
            out,
            "C\t{}\t{}\t{}\t{}\t{}",
            e(class),
            e(method),
            list(params),
            receiver.map_or("-".to_string(), |r| r.to_string()),
            indices(args)
        ),
        Statement::Field {
            class,
            field,
            receiver,
        } => write!(
            out,
            "F\t{}\t{}\t{}",
            e(class),
            e(field),
            receiver.map_or("-".to_string(), |r| r.to_string())
        ),
        Statement::Array { elem, elems } => write!(out, "A\t{}\t{}", e(elem), indices(elems)),
    };
}

fn encode_observer(out: &mut String, o: &ObserverCall) {
    let _ = write!(
        out,
        "O\t{}\t{}\t{}",
        o.stmt,
        escape_str(&o.class),
        escape_str(&o.method)
    );
}

fn list(items: &[std::sync::Arc<str>]) -> String {
    items
        .iter()
        .map(|s| escape_str(s))
        .collect::<Vec<_>>()
        .join(",")
}

fn indices(items: &[usize]) -> String {
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_statements_observers_and_contract_flag() {
        let req = SeqRequest {
            statements: vec![
                Statement::New {
                    class: "java.util.ArrayList".into(),
                    params: vec![],
                    args: vec![],
                },
                Statement::Literal {
                    ty: "java.lang.String".into(),
                    value: "a\\tb".into(),
                },
                Statement::Call {
                    class: "java.util.ArrayList".into(),
                    method: "add".into(),
                    params: vec!["int".into(), "java.lang.Object".into()],
                    receiver: Some(0),
                    args: vec![2, 1],
                },
            ],
            observers: vec![ObserverCall {
                stmt: 0,
                class: "java.util.ArrayList".into(),
                method: "size".into(),
            }],
        };
        let encoding = Encoding {
            contracts: true,
            max_value_bytes: Some(65536),
            end_large_repeats: true,
            plain_class_text: true,
        };
        let text = encode(&req, encoding);
        assert_eq!(
            text,
            "M\t65536\nR\nI\nN\tjava.util.ArrayList\t\t\nL\tjava.lang.String\ta\\tb\n\
             C\tjava.util.ArrayList\tadd\tint,java.lang.Object\t0\t2,1\n\
             O\t0\tjava.util.ArrayList\tsize\nK\n"
        );
    }
}
