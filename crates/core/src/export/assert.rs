//! One JUnit assertion per recorded observation, written so that it compiles whatever the
//! declared type of the checked expression is (a `var` whose type the export does not know
//! gets a cast to the primitive the value was) and checks exactly what replay compares:
//! Strings exactly, numbers exactly (doubles and floats including the sign of zero), enum
//! constants by identity, runtime classes by name, exceptions by exact class.

use super::Junit;
use super::declared::Types;
use super::java::{
    is_identifier, is_zero, primitive_literal, str_literal, string_from_suite, unboxed,
};
use super::names::{Locals, type_ref, type_source};
use crate::sequence::Observed;

/// How assertions are written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Style {
    pub junit: Junit,
    /// Also check the messages of expected exceptions (replay's `--strict-messages`).
    pub strict_messages: bool,
}

/// Why an observation cannot be written as an assertion.
pub(super) type Unwritable = String;

fn malformed(text: &str) -> Unwritable {
    format!("malformed value text `{text}`")
}

/// `actual` as a `prim` expression: as it is when its declared type is `prim`, else cast
/// (which unboxes a boxed or `Object`-typed value and fails if it is of another class).
fn coerce(actual: &str, declared: Option<&str>, prim: &str) -> String {
    if declared == Some(prim) {
        actual.to_string()
    } else {
        format!("({prim}) {actual}")
    }
}

/// The assertion lines checking that `actual` (declared as `declared`, if known) is
/// `expected`. Not for exceptions: see [`throws`].
pub(super) fn value(
    style: Style,
    types: &Types,
    actual: &str,
    declared: Option<&str>,
    expected: &Observed,
) -> Result<Vec<String>, Unwritable> {
    let line = match expected {
        Observed::Null => format!("assertNull({actual});"),
        Observed::Void => format!("{actual};"),
        Observed::Value { class, text } if class == "java.lang.String" => {
            let lit = string_from_suite(text).ok_or_else(|| malformed(text))?;
            format!("assertEquals({lit}, {actual});")
        }
        Observed::Value { class, text } => match unboxed(class) {
            Some("boolean") => boolean(actual, declared, text)?,
            Some(prim @ ("float" | "double")) => floating(style, actual, declared, prim, text)?,
            Some(prim) => {
                let lit = primitive_literal(prim, text).ok_or_else(|| malformed(text))?;
                format!("assertEquals({lit}, {});", coerce(actual, declared, prim))
            }
            None => enum_constant(types, actual, class, text),
        },
        Observed::Object { class } => object_class(types, actual, class),
        Observed::Large { length, .. } => {
            return Err(format!(
                "a value of {length} chars, stored only as its digest"
            ));
        }
        Observed::Threw { .. } => return Err("an exception is not a value".into()),
        Observed::Missing { what } => return Err(format!("expects a missing API: {what}")),
    };
    Ok(vec![line])
}

fn boolean(actual: &str, declared: Option<&str>, text: &str) -> Result<String, Unwritable> {
    let name = match text {
        "true" => "assertTrue",
        "false" => "assertFalse",
        _ => return Err(malformed(text)),
    };
    let actual = match declared {
        Some("boolean" | "java.lang.Boolean") => actual.to_string(),
        _ => format!("(boolean) {actual}"),
    };
    Ok(format!("{name}({actual});"))
}

/// Doubles and floats compared exactly: JUnit 5's `assertEquals(double, double)` compares
/// bits; JUnit 4's needs a delta (0.0 is exact, NaN equals NaN) except that it cannot tell
/// `-0.0` from `0.0`, so zeros are compared boxed (`Double.equals` compares bits).
fn floating(
    style: Style,
    actual: &str,
    declared: Option<&str>,
    prim: &str,
    text: &str,
) -> Result<String, Unwritable> {
    let lit = primitive_literal(prim, text).ok_or_else(|| malformed(text))?;
    let actual = coerce(actual, declared, prim);
    Ok(match style.junit {
        Junit::Five => format!("assertEquals({lit}, {actual});"),
        Junit::Four if is_zero(text) => {
            let boxed = type_ref(if prim == "float" {
                "java.lang.Float"
            } else {
                "java.lang.Double"
            });
            format!("assertEquals({boxed}.valueOf({lit}), {boxed}.valueOf({actual}));")
        }
        Junit::Four => {
            let delta = if prim == "float" { "0.0f" } else { "0.0" };
            format!("assertEquals({lit}, {actual}, {delta});")
        }
    })
}

fn enum_constant(types: &Types, actual: &str, class: &str, name: &str) -> String {
    if types.nameable(class) && is_identifier(name) {
        return format!("assertEquals({}.{name}, {actual});", type_ref(class));
    }
    let lit = str_literal(name);
    format!(
        "assertEquals({lit}, (({}) {actual}).name());",
        type_ref("java.lang.Enum")
    )
}

/// The runtime class, as replay sees it: lambdas by the class that made them, proxies as
/// proxies, other classes by name (a class literal when the class is public).
fn object_class(types: &Types, actual: &str, class: &str) -> String {
    if let Some(at) = class.find("$$Lambda") {
        let prefix = &class[..at + "$$Lambda".len()];
        let prefix = str_literal(prefix);
        return format!("assertTrue({actual}.getClass().getName().startsWith({prefix}));");
    }
    if class.contains("$Proxy") {
        let proxy = type_ref("java.lang.reflect.Proxy");
        return format!("assertTrue({proxy}.isProxyClass({actual}.getClass()));");
    }
    if types.nameable(class) {
        return format!(
            "assertEquals({}.class, {actual}.getClass());",
            type_source(class)
        );
    }
    let name = str_literal(class);
    format!("assertEquals({name}, {actual}.getClass().getTypeName());")
}

/// Lines checking that `body` (a lambda body) throws exactly `class` (and, with strict
/// messages, `message`).
pub(super) fn throws(
    style: Style,
    types: &Types,
    locals: &mut Locals,
    body: &str,
    class: &str,
    message: Option<&str>,
) -> Result<Vec<String>, Unwritable> {
    let message = match message.filter(|_| style.strict_messages) {
        Some(m) => Some(string_from_suite(m).ok_or_else(|| malformed(m))?),
        None => None,
    };
    let nameable = types.nameable(class) && !class.contains('[');
    if style.junit == Junit::Five && nameable && message.is_none() {
        let x = type_source(class);
        return Ok(vec![format!(
            "assertThrowsExactly({x}.class, () -> {body});"
        )]);
    }
    let thrown = locals.plain("thrown");
    let mut lines = if nameable {
        let x = type_source(class);
        let call = match style.junit {
            Junit::Four => "assertThrows",
            Junit::Five => "assertThrowsExactly",
        };
        let mut v = vec![format!("{x} {thrown} = {call}({x}.class, () -> {body});")];
        if style.junit == Junit::Four {
            v.push(format!("assertEquals({x}.class, {thrown}.getClass());"));
        }
        v
    } else {
        let t = type_ref("java.lang.Throwable");
        let name = str_literal(class);
        vec![
            format!("{t} {thrown} = assertThrows({t}.class, () -> {body});"),
            format!("assertEquals({name}, {thrown}.getClass().getName());"),
        ]
    };
    if let Some(m) = message {
        lines.push(format!("assertEquals({m}, {thrown}.getMessage());"));
    }
    Ok(lines)
}
