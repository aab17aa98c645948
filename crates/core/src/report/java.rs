//! Java source for a sequence in the style for people (the reports' reproducers; the JUnit
//! export writes the compilable style from `export::body`): one statement a line, `vN` the
//! value of statement N, classes fully qualified. Literals follow the one set of rules in
//! `export::java`, class names in literals the people style of `export::names`. Values used
//! later are declared (`java.util.ArrayList v0 = new java.util.ArrayList();`, or `var` where
//! the type is not in the statement); others are expression statements, which is valid
//! whether the method is void or not. Arguments whose static type is unknown or differs are
//! cast to the parameter type, so javac picks the overload that was recorded.

use crate::export::{java, names};
use crate::sequence::{Name, ObserverCall, Statement};

/// One line of Java per statement.
#[cfg(test)]
pub(crate) fn java_source(statements: &[Statement]) -> Vec<String> {
    java_source_observed(statements, &[])
}

/// One line of Java per statement, declaring the values `observers` call methods on.
pub(crate) fn java_source_observed(
    statements: &[Statement],
    observers: &[ObserverCall],
) -> Vec<String> {
    let mut used = used_later(statements);
    for o in observers {
        if let Some(u) = used.get_mut(o.stmt) {
            *u = true;
        }
    }
    let types: Vec<Option<String>> = statements.iter().map(static_type).collect();
    statements
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let expr = expression(s, &types);
            match (used[i], &types[i]) {
                (false, _) if matches!(s, Statement::Call { .. } | Statement::New { .. }) => {
                    format!("{expr};")
                }
                (_, Some(ty)) => format!("{ty} v{i} = {expr};"),
                (_, None) => format!("var v{i} = {expr};"),
            }
        })
        .collect()
}

/// The Java expression of an observer call, e.g. `v3.size()`.
pub(crate) fn observer_expression(observer: &ObserverCall, statements: &[Statement]) -> String {
    let types: Vec<Option<String>> = statements.iter().map(static_type).collect();
    format!(
        "{}.{}()",
        receiver(observer.stmt, &observer.class, &types),
        observer.method
    )
}

fn used_later(statements: &[Statement]) -> Vec<bool> {
    let mut used = vec![false; statements.len()];
    for s in statements {
        for i in s.inputs() {
            if let Some(u) = used.get_mut(i) {
                *u = true;
            }
        }
    }
    used
}

/// The declared type of a statement's value, when the statement says it.
fn static_type(s: &Statement) -> Option<String> {
    match s {
        Statement::Literal { ty, .. } | Statement::Null { ty } | Statement::Enum { ty, .. } => {
            Some(names::source_name(ty))
        }
        Statement::New { class, .. } => Some(names::source_name(class)),
        Statement::Array { elem, .. } => Some(format!("{}[]", names::source_name(elem))),
        Statement::Call { .. } | Statement::Field { .. } => None,
    }
}

fn expression(s: &Statement, types: &[Option<String>]) -> String {
    match s {
        Statement::Literal { ty, value } => literal(ty, value),
        Statement::Null { .. } => "null".into(),
        Statement::Enum { ty, constant } => format!("{}.{constant}", names::source_name(ty)),
        Statement::New {
            class,
            params,
            args,
        } => {
            format!(
                "new {}({})",
                names::source_name(class),
                arguments(params, args, types)
            )
        }
        Statement::Call {
            class,
            method,
            params,
            receiver: Some(r),
            args,
        } => format!(
            "{}.{method}({})",
            receiver(*r, class, types),
            arguments(params, args, types)
        ),
        Statement::Call {
            class,
            method,
            params,
            receiver: None,
            args,
        } => format!(
            "{}.{method}({})",
            names::source_name(class),
            arguments(params, args, types)
        ),
        Statement::Field {
            field,
            receiver: Some(r),
            class,
        } => format!("{}.{field}", receiver(*r, class, types)),
        Statement::Field {
            class,
            field,
            receiver: None,
        } => format!("{}.{field}", names::source_name(class)),
        Statement::Array { elem, elems } => {
            let items: Vec<String> = elems.iter().map(|e| argument(elem, *e, types)).collect();
            format!(
                "new {}[] {{ {} }}",
                names::source_name(elem),
                items.join(", ")
            )
        }
    }
}

fn receiver(index: usize, class: &str, types: &[Option<String>]) -> String {
    match types.get(index) {
        Some(Some(_)) => format!("v{index}"),
        _ => format!("(({}) v{index})", names::source_name(class)),
    }
}

fn arguments(params: &[Name], args: &[usize], types: &[Option<String>]) -> String {
    let parts: Vec<String> = params
        .iter()
        .zip(args)
        .map(|(p, &a)| argument(p, a, types))
        .collect();
    parts.join(", ")
}

fn argument(param: &str, index: usize, types: &[Option<String>]) -> String {
    let param = names::source_name(param);
    match types.get(index) {
        Some(Some(ty)) if *ty == param => format!("v{index}"),
        _ => format!("({param}) v{index}"),
    }
}

/// A Java literal of type `ty` from its escaped rendering (`sequence::escape`), by the
/// export's rules; text that is no value of that type is shown as it is.
pub(crate) fn literal(ty: &str, value: &str) -> String {
    match java::literal(ty, value) {
        Some(l) => names::for_people(&l),
        None => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::samples::time_format_statements;

    #[test]
    fn renders_the_time_format_example() {
        let lines = java_source(&time_format_statements());
        assert_eq!(
            lines,
            [
                "int v0 = 3;",
                "var v1 = java.util.Locale.US;",
                "var v2 = java.text.DateFormat.getTimeInstance(v0, (java.util.Locale) v1);",
                "long v3 = 0L;",
                "java.util.Date v4 = new java.util.Date(v3);",
                "((java.text.DateFormat) v2).format(v4);",
            ]
        );
    }

    #[test]
    fn declares_constructed_values_and_casts_unknown_receivers() {
        let s = vec![
            Statement::new("java.util.ArrayList", &[], &[]),
            Statement::literal("java.lang.String", "a\"b\\n"),
            Statement::call(
                "java.util.ArrayList",
                "add",
                &["java.lang.Object"],
                Some(0),
                &[1],
            ),
            Statement::call("java.util.ArrayList", "clone", &[], Some(0), &[]),
            Statement::call("java.util.ArrayList", "size", &[], Some(3), &[]),
            Statement::field("java.util.Map$Entry", "X", None),
        ];
        let lines = java_source(&s);
        assert_eq!(
            lines[0],
            "java.util.ArrayList v0 = new java.util.ArrayList();"
        );
        assert_eq!(lines[1], "java.lang.String v1 = \"a\\\"b\\n\";");
        assert_eq!(lines[2], "v0.add((java.lang.Object) v1);");
        assert_eq!(lines[3], "var v3 = v0.clone();");
        assert_eq!(lines[4], "((java.util.ArrayList) v3).size();");
        assert_eq!(lines[5], "var v5 = java.util.Map.Entry.X;");
    }

    #[test]
    fn values_observed_later_are_declared() {
        let s = vec![
            Statement::new("java.lang.StringBuilder", &[], &[]),
            Statement::call("java.lang.StringBuilder", "reverse", &[], Some(0), &[]),
        ];
        let o = crate::sequence::ObserverCall::new(1, "java.lang.StringBuilder", "length");
        assert_eq!(java_source(&s)[1], "v0.reverse();");
        assert_eq!(
            java_source_observed(&s, std::slice::from_ref(&o))[1],
            "var v1 = v0.reverse();"
        );
        assert_eq!(
            observer_expression(&o, &s),
            "((java.lang.StringBuilder) v1).length()"
        );
    }

    #[test]
    fn literals_are_valid_java() {
        assert_eq!(literal("double", "2.0E23"), "2.0E23");
        assert_eq!(literal("double", "NaN"), "Double.NaN");
        assert_eq!(literal("float", "1.5"), "1.5f");
        assert_eq!(literal("long", "-9223372036854775808"), "Long.MIN_VALUE");
        assert_eq!(literal("double", "1"), "1.0");
        assert_eq!(literal("float", "1e-50"), "Float.parseFloat(\"1e-50\")");
        assert_eq!(literal("char", "'"), "'\\''");
        assert_eq!(literal("byte", "-3"), "(byte) -3");
        assert_eq!(
            literal("java.lang.Class", "java.util.Map$Entry"),
            "java.util.Map.Entry.class"
        );
        assert_eq!(
            literal("java.lang.Class", "java.lang.String[]"),
            "String[].class"
        );
        assert_eq!(literal("java.lang.Class", "int"), "int.class");
    }
}
