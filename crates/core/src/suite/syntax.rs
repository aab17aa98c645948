//! The one-line, Java-like syntax of statements, observer calls and observed values in
//! suite files, its writer and its parser.
//!
//! ```text
//! v0 = new java.util.ArrayList()
//! v1 = "hi!"
//! v2 = ((java.util.ArrayList) v0).add((java.lang.Object) v1)  // true
//! ((java.util.ArrayList) v0).size()  // 1
//! ```
//!
//! Every argument carries its parameter type as a cast and every receiver the class the
//! method is looked up on, so a line says exactly which overload runs. Text from Java is
//! kept in the escaped form of [`crate::sequence::escape`] (printable ASCII only); inside
//! quotes, the quote character itself is written `\"` or `\'`, as in Java source.

use crate::sequence::{Name, Observed, ObserverCall, Statement};
use std::fmt::Write as _;

/// Separates a statement or observer from the value the reference gave.
pub(crate) const EXPECT: &str = "  // ";

/// Written instead of a value for a step whose value varies on the reference.
pub(crate) const VARIES: &str = "varies";

/// Boxed classes written as a cast before their text; `Integer` and `Boolean` are bare.
const CASTS: [(&str, &str); 5] = [
    ("long", "java.lang.Long"),
    ("short", "java.lang.Short"),
    ("byte", "java.lang.Byte"),
    ("float", "java.lang.Float"),
    ("double", "java.lang.Double"),
];

/// Appends `text` between `q` quotes, writing `q` inside as `\q`.
fn quote(out: &mut String, text: &str, q: char) {
    out.push(q);
    for c in text.chars() {
        if c == q {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(q);
}

/// Whether a literal's text can stand without quotes.
fn bare(text: &str) -> bool {
    !text.is_empty()
        && text != "null"
        && !text.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '/')
}

fn args(out: &mut String, params: &[Name], args: &[usize]) {
    out.push('(');
    for (k, (p, a)) in params.iter().zip(args).enumerate() {
        let sep = if k == 0 { "" } else { ", " };
        let _ = write!(out, "{sep}({p}) v{a}");
    }
    out.push(')');
}

/// Appends the expression of a statement (everything right of `vN = `).
pub(crate) fn write_expr(out: &mut String, s: &Statement) {
    match s {
        Statement::Literal { ty, value } if &**ty == "java.lang.String" => quote(out, value, '"'),
        Statement::Literal { ty, value } if &**ty == "char" => {
            out.push_str("(char) ");
            quote(out, value, '\'');
        }
        Statement::Literal { ty, value } => {
            let _ = write!(out, "({ty}) ");
            if bare(value) {
                out.push_str(value);
            } else {
                quote(out, value, '"');
            }
        }
        Statement::Null { ty } => {
            let _ = write!(out, "({ty}) null");
        }
        Statement::Enum { ty, constant } => {
            let _ = write!(out, "enum {ty}.{constant}");
        }
        Statement::New {
            class,
            params,
            args: a,
        } => {
            let _ = write!(out, "new {class}");
            args(out, params, a);
        }
        Statement::Call {
            class,
            method,
            params,
            receiver,
            args: a,
        } => {
            match receiver {
                Some(r) => write!(out, "(({class}) v{r}).{method}"),
                None => write!(out, "{class}.{method}"),
            }
            .ok();
            args(out, params, a);
        }
        Statement::Field {
            class,
            field,
            receiver,
        } => {
            match receiver {
                Some(r) => write!(out, "(({class}) v{r}).{field}"),
                None => write!(out, "{class}.{field}"),
            }
            .ok();
        }
        Statement::Array { elem, elems } => {
            let list: Vec<String> = elems.iter().map(|e| format!("v{e}")).collect();
            let _ = write!(out, "new {elem}[] {{{}}}", list.join(", "));
        }
    }
}

/// Appends an observed value.
pub(crate) fn write_observed(out: &mut String, o: &Observed) {
    match o {
        Observed::Void => out.push_str("void"),
        Observed::Null => out.push_str("null"),
        Observed::Value { class, text } => write_value(out, class, text),
        Observed::Object { class } => {
            let _ = write!(out, "object {class}");
        }
        Observed::Large {
            class,
            prefix,
            length,
            digest,
        } => {
            let _ = write!(out, "large {class} {length} {digest:016x} ");
            quote(out, prefix, '"');
        }
        Observed::Threw { class, message, .. } => {
            let _ = write!(out, "throws {class}");
            if let Some(m) = message {
                out.push('(');
                quote(out, m, '"');
                out.push(')');
            }
        }
        Observed::Missing { what } => {
            out.push_str("missing ");
            quote(out, what, '"');
        }
    }
}

fn write_value(out: &mut String, class: &str, text: &str) {
    let numeric = text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) && bare(text);
    match class {
        "java.lang.String" => quote(out, text, '"'),
        "java.lang.Character" => quote(out, text, '\''),
        "java.lang.Integer" if numeric => out.push_str(text),
        "java.lang.Boolean" if text == "true" || text == "false" => out.push_str(text),
        _ => match CASTS.iter().find(|(_, c)| *c == class) {
            Some((prim, _)) if bare(text) => {
                let _ = write!(out, "({prim}) {text}");
            }
            _ if bare(text) && !class.contains(char::is_whitespace) => {
                let _ = write!(out, "enum {class}.{text}");
            }
            _ => {
                let _ = write!(out, "value {class} ");
                quote(out, text, '"');
            }
        },
    }
}

/// Appends an observer call (without its expected value).
pub(crate) fn write_observer(out: &mut String, o: &ObserverCall) {
    let _ = write!(out, "(({}) v{}).{}()", o.class, o.stmt, o.method);
}

/// A parse position in one line.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

type Parsed<T> = Result<T, String>;

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn eat(&mut self, s: &str) -> bool {
        let ok = self.rest().starts_with(s);
        if ok {
            self.at += s.len();
        }
        ok
    }

    fn expect(&mut self, s: &str) -> Parsed<()> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(format!("expected `{s}` at column {}", self.at + 1))
        }
    }

    /// A name, type or bare literal: up to whitespace or punctuation.
    fn token(&mut self) -> Parsed<&'a str> {
        let rest = self.rest();
        let end = rest
            .find(|c: char| c.is_whitespace() || "(),{}\"'".contains(c))
            .unwrap_or(rest.len());
        if end == 0 {
            return Err(format!("expected a name at column {}", self.at + 1));
        }
        self.at += end;
        Ok(&rest[..end])
    }

    /// A quoted text whose first character is the quote; returns it without quotes.
    fn quoted(&mut self) -> Parsed<String> {
        let q = self.rest().chars().next().ok_or("expected a quote")?;
        let mut out = String::new();
        let mut chars = self.rest()[1..].char_indices();
        while let Some((i, c)) = chars.next() {
            if c == q {
                self.at += 1 + i + 1;
                return Ok(out);
            }
            if c == '\\' {
                let (_, next) = chars.next().ok_or("unfinished escape")?;
                if next != q {
                    out.push('\\');
                }
                out.push(next);
            } else {
                out.push(c);
            }
        }
        Err(format!("unterminated quote from column {}", self.at + 1))
    }

    fn var(&mut self) -> Parsed<usize> {
        self.expect("v")?;
        let digits = self.rest().find(|c: char| !c.is_ascii_digit());
        let end = digits.unwrap_or(self.rest().len());
        let n = self.rest()[..end]
            .parse()
            .map_err(|_| format!("expected a variable at column {}", self.at))?;
        self.at += end;
        Ok(n)
    }

    fn done(&self) -> bool {
        self.at == self.text.len()
    }
}

/// Splits `code  // expected` into its parts; the separator is searched outside quotes.
pub(crate) fn split_expected(line: &str) -> (&str, Option<&str>) {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            // Bytes, not `line[i..]`: `i` may be inside a multi-byte character (found by
            // the loader fuzz harness); EXPECT is ASCII, so a match is on a boundary.
            None if bytes[i..].starts_with(EXPECT.as_bytes()) => {
                return (&line[..i], Some(&line[i + EXPECT.len()..]));
            }
            None => {}
        }
        i += 1;
    }
    (line, None)
}

/// Parses `vN = expr` where `N` must be `index`.
pub(crate) fn parse_statement(code: &str, index: usize) -> Parsed<Statement> {
    let mut c = Cursor { text: code, at: 0 };
    let n = c.var()?;
    if n != index {
        return Err(format!("statement {index} is named v{n}"));
    }
    c.expect(" = ")?;
    let s = expr(&mut c)?;
    if !c.done() {
        return Err(format!("unexpected text at column {}", c.at + 1));
    }
    Ok(s)
}

fn expr(c: &mut Cursor) -> Parsed<Statement> {
    if c.rest().starts_with('"') {
        let value = c.quoted()?.into();
        let ty = "java.lang.String".into();
        return Ok(Statement::Literal { ty, value });
    }
    if c.eat("((") {
        let class = c.token()?.into();
        c.expect(") ")?;
        let r = c.var()?;
        c.expect(").")?;
        return member(c, class, Some(r));
    }
    if c.eat("(") {
        let ty: Name = c.token()?.into();
        c.expect(") ")?;
        if c.eat("null") {
            return Ok(Statement::Null { ty });
        }
        let value = match c.rest().chars().next() {
            Some('"' | '\'') => c.quoted()?.into(),
            _ => c.token()?.into(),
        };
        return Ok(Statement::Literal { ty, value });
    }
    if c.eat("new ") {
        let class: Name = c.token()?.into();
        if let Some(elem) = class.strip_suffix("[]") {
            c.expect(" {")?;
            let elems = var_list(c, "}")?;
            let elem = elem.into();
            return Ok(Statement::Array { elem, elems });
        }
        let (params, args) = arg_list(c)?;
        return Ok(Statement::New {
            class,
            params,
            args,
        });
    }
    if c.eat("enum ") {
        let (ty, constant) = split_member(c.token()?)?;
        return Ok(Statement::Enum { ty, constant });
    }
    let (class, name) = split_member(c.token()?)?;
    member_named(c, class, None, name)
}

fn split_member(token: &str) -> Parsed<(Name, Name)> {
    let dot = token
        .rfind('.')
        .ok_or_else(|| format!("expected Class.member: {token}"))?;
    Ok((token[..dot].into(), token[dot + 1..].into()))
}

fn member(c: &mut Cursor, class: Name, receiver: Option<usize>) -> Parsed<Statement> {
    let name = c.token()?.into();
    member_named(c, class, receiver, name)
}

fn member_named(
    c: &mut Cursor,
    class: Name,
    receiver: Option<usize>,
    name: Name,
) -> Parsed<Statement> {
    if !c.rest().starts_with('(') {
        return Ok(Statement::Field {
            class,
            field: name,
            receiver,
        });
    }
    let (params, args) = arg_list(c)?;
    Ok(Statement::Call {
        class,
        method: name,
        params,
        receiver,
        args,
    })
}

fn arg_list(c: &mut Cursor) -> Parsed<(Vec<Name>, Vec<usize>)> {
    c.expect("(")?;
    let (mut params, mut args) = (Vec::new(), Vec::new());
    if c.eat(")") {
        return Ok((params, args));
    }
    loop {
        c.expect("(")?;
        params.push(c.token()?.into());
        c.expect(") ")?;
        args.push(c.var()?);
        if c.eat(")") {
            return Ok((params, args));
        }
        c.expect(", ")?;
    }
}

fn var_list(c: &mut Cursor, close: &str) -> Parsed<Vec<usize>> {
    let mut vars = Vec::new();
    if c.eat(close) {
        return Ok(vars);
    }
    loop {
        vars.push(c.var()?);
        if c.eat(close) {
            return Ok(vars);
        }
        c.expect(", ")?;
    }
}

/// Parses `((Class) vN).method()`.
pub(crate) fn parse_observer(code: &str) -> Parsed<ObserverCall> {
    let mut c = Cursor { text: code, at: 0 };
    c.expect("((")?;
    let class = c.token()?.into();
    c.expect(") ")?;
    let stmt = c.var()?;
    c.expect(").")?;
    let method = c.token()?.into();
    c.expect("()")?;
    if !c.done() {
        return Err(format!("unexpected text at column {}", c.at + 1));
    }
    Ok(ObserverCall {
        stmt,
        class,
        method,
    })
}

/// Parses an observed value written by [`write_observed`].
pub(crate) fn parse_observed(text: &str) -> Parsed<Observed> {
    let mut c = Cursor { text, at: 0 };
    let o = observed(&mut c)?;
    if !c.done() {
        return Err(format!("unexpected text after the value: {}", c.rest()));
    }
    Ok(o)
}

fn value(class: &str, text: String) -> Observed {
    Observed::Value {
        class: class.to_string(),
        text,
    }
}

/// `large CLASS LENGTH DIGEST "prefix"`, after `large `.
fn large(c: &mut Cursor) -> Parsed<Observed> {
    let class = c.token()?.into();
    c.expect(" ")?;
    let length = c.token()?;
    let length = length
        .parse()
        .map_err(|_| format!("not a length: {length}"))?;
    c.expect(" ")?;
    let digest = crate::sequence::wire::hex_digest(c.token()?)?;
    c.expect(" ")?;
    let prefix = c.quoted()?.into();
    Ok(Observed::Large {
        class,
        prefix,
        length,
        digest,
    })
}

fn observed(c: &mut Cursor) -> Parsed<Observed> {
    match c.rest().chars().next() {
        Some('"') => return Ok(value("java.lang.String", c.quoted()?)),
        Some('\'') => return Ok(value("java.lang.Character", c.quoted()?)),
        Some('(') => {
            c.at += 1;
            let prim = c.token()?;
            let (_, class) = CASTS
                .iter()
                .find(|(p, _)| *p == prim)
                .ok_or_else(|| format!("unknown cast ({prim})"))?;
            c.expect(") ")?;
            return Ok(value(class, c.token()?.to_string()));
        }
        _ => {}
    }
    if c.eat("throws ") {
        let class = c.token()?.to_string();
        let mut message = None;
        if c.eat("(") {
            message = Some(c.quoted()?);
            c.expect(")")?;
        }
        return Ok(Observed::Threw {
            class,
            message,
            classpath: None,
        });
    }
    if c.eat("missing ") {
        return Ok(Observed::Missing { what: c.quoted()? });
    }
    if c.eat("object ") {
        let class = c.token()?.to_string();
        return Ok(Observed::Object { class });
    }
    if c.eat("large ") {
        return large(c);
    }
    if c.eat("enum ") {
        let (class, text) = split_member(c.token()?)?;
        return Ok(value(&class, text.to_string()));
    }
    if c.eat("value ") {
        let class = c.token()?.to_string();
        c.expect(" ")?;
        return Ok(value(&class, c.quoted()?));
    }
    let word = c.token()?;
    Ok(match word {
        "void" => Observed::Void,
        "null" => Observed::Null,
        "true" | "false" => value("java.lang.Boolean", word.to_string()),
        _ if word.starts_with(|ch: char| ch == '-' || ch.is_ascii_digit()) => {
            value("java.lang.Integer", word.to_string())
        }
        _ => return Err(format!("not a value: {word}")),
    })
}

#[cfg(test)]
mod tests;
