//! One test method per suite test: `test<id>` for a regression test (its steps, step checks
//! and observer checks), and for an error-revealing test the sequence followed by the
//! contract it broke, which fails on the reference by design.

use super::assert::{Style, Unwritable};
use super::body::Body;
use super::declared::Types;
use super::java::{comment_from_suite, comment_text};
use super::names::type_ref;
use crate::contracts::{ASSERTION_ERROR, NPE_ON_NON_NULL};
use crate::sequence::{Observed, Statement};
use crate::suite::{ErrorTest, Test};

/// Indents body lines into a method with the test annotation.
fn method(annotation: &str, name: &str, comments: &[String], lines: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        out.push_str("    // ");
        out.push_str(c);
        out.push('\n');
    }
    out.push_str(&format!(
        "    @{annotation}\n    public void {name}() throws Throwable {{\n"
    ));
    for line in lines {
        out.push_str("        ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("    }\n");
    out
}

/// `t` without the checks of values that depend on the caller's stack; `None` when such
/// a value is expected to throw, or no check is left.
fn without_stack_checks(t: &Test) -> Result<Option<Test>, Unwritable> {
    let tainted = crate::sequence::caller_stack(&t.statements);
    if !tainted.contains(&true) {
        return Ok(None);
    }
    let mut kept = t.clone();
    for (i, e) in kept.expected_steps.iter_mut().enumerate() {
        if tainted[i] && matches!(e, Some(Observed::Threw { .. })) {
            return Err(STACK.into());
        }
        if tainted[i] {
            *e = None;
        }
    }
    // Unchecked, not removed: an observer may change what a later one reads.
    for (o, e) in t.observers.iter().zip(&mut kept.expected_observations) {
        if tainted[o.stmt] {
            *e = None;
        }
    }
    if kept.check_count() == 0 {
        return Err(STACK.into());
    }
    Ok(Some(kept))
}

const STACK: &str = "its checks depend on the caller's stack, which differs between \
                     difftest's worker and JUnit";

/// The method of regression test `t`.
pub(super) fn regression(
    t: &Test,
    types: &Types,
    style: Style,
    annotation: &str,
) -> Result<String, Unwritable> {
    match without_stack_checks(t)? {
        Some(kept) => render_regression(&kept, types, style, annotation),
        None => render_regression(t, types, style, annotation),
    }
}

fn render_regression(
    t: &Test,
    types: &Types,
    style: Style,
    annotation: &str,
) -> Result<String, Unwritable> {
    let observed: Vec<(usize, &str)> = t.observers.iter().map(|o| (o.stmt, &*o.class)).collect();
    let mut body = Body::new(types, style, &t.statements, &t.expected_steps, &observed);
    let known_null = |i: usize| {
        matches!(t.expected_steps.get(i), Some(Some(Observed::Null)))
            || matches!(t.statements[i], Statement::Null { .. })
    };
    for i in 0..t.statements.len() {
        let expected = t.expected_steps.get(i).and_then(Option::as_ref);
        body.statement(i, expected)?;
    }
    for (o, expected) in t.observers.iter().zip(&t.expected_observations) {
        // The recorder does not call observers on null; the step check covers the value.
        if known_null(o.stmt) {
            continue;
        }
        let declared = types.observer_type(o);
        body.observer(
            o.stmt,
            &o.class,
            &o.method,
            declared.as_deref(),
            expected.as_ref(),
        )?;
    }
    Ok(method(
        annotation,
        &format!("test{}", t.id),
        &[],
        &body.lines,
    ))
}

/// The method of error-revealing test `e`, recorded on `reference`.
pub(super) fn error_revealing(
    e: &ErrorTest,
    types: &Types,
    style: Style,
    annotation: &str,
    reference: &str,
) -> Result<String, Unwritable> {
    let v = &e.violation;
    let object_contract = !matches!(v.contract.as_str(), NPE_ON_NON_NULL | ASSERTION_ERROR);
    let subject = [(v.stmt, "java.lang.Object")];
    let extra: &[(usize, &str)] = if object_contract { &subject } else { &[] };
    let mut body = Body::new(types, style, &e.statements, &[], extra);
    for i in 0..e.statements.len() {
        body.statement(i, None)?;
    }
    if object_contract && v.stmt < e.statements.len() {
        let (x, _) = body.var(v.stmt);
        let x = x.to_string();
        let check = match v.contract.as_str() {
            "hashCode-throws" => format!("{x}.hashCode();"),
            "toString-throws" => format!("{x}.toString();"),
            _ => format!("assertTrue({x}.equals({x}));"),
        };
        body.lines.push(check);
    }
    let comments = vec![
        format!(
            "Fails by design: on {} this breaks the contract {} ({}).",
            comment_text(reference),
            comment_text(&v.contract),
            comment_from_suite(&v.detail)
        ),
        contract_words(&v.contract).to_string(),
    ];
    Ok(method(
        annotation,
        &format!("test{}", e.id),
        &comments,
        &body.lines,
    ))
}

fn contract_words(contract: &str) -> &'static str {
    match contract {
        "equals-reflexive" => "Contract: x.equals(x) is true.",
        "equals-throws" => "Contract: x.equals(x) throws no exception.",
        "hashCode-throws" => "Contract: x.hashCode() throws no exception.",
        "toString-throws" => "Contract: x.toString() throws no exception.",
        NPE_ON_NON_NULL => {
            "Contract: no NullPointerException when no input is null (the last call throws one)."
        }
        ASSERTION_ERROR => "Contract: no AssertionError (the last call throws one).",
        _ => "Contract: see docs/export.md.",
    }
}

/// `@Test` for the flavour's annotation class.
pub(super) fn test_annotation(class: &str) -> String {
    type_ref(class)
}
