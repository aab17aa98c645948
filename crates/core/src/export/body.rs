//! The body of one generated test method: a local variable per statement, named after its
//! type and declared with its type (`var` when the export does not know a call's return
//! type), an assertion after each checked step, one per observer at the end, and
//! `assertThrows` around the statement expected to throw.
//!
//! Overloads: an argument whose declared type is exactly the parameter type is passed as it
//! is (the method is then the most specific one javac can pick); any other argument is cast
//! to the parameter type, so javac picks the overload the suite names. A receiver is cast
//! to the class the method is looked up on unless its declared type is that class or a
//! known subtype.

use super::assert::{Style, Unwritable, throws, value};
use super::declared::Types;
use super::java::{literal, variable_base};
use super::names::{Locals, type_ref, type_source};
use crate::sequence::{Name, Observed, Statement};

/// How a statement's value is kept.
#[derive(Clone, Debug, PartialEq)]
enum Decl {
    /// `T name = …;`
    Typed(String),
    /// `var name = …;`
    Inferred,
    /// `…;` with no variable (a void call, or a value nothing reads).
    Discarded,
    /// Inside `assertThrows`.
    Thrown,
}

/// A statement's variable: its declaration and name.
struct Slot {
    decl: Decl,
    name: String,
}

/// The lines of one method body while it is rendered.
pub(super) struct Body<'a> {
    types: &'a Types,
    style: Style,
    statements: &'a [Statement],
    slots: Vec<Slot>,
    locals: Locals,
    pub lines: Vec<String>,
}

/// For each statement: whether a later statement, an observer or a contract reads it, and
/// the first type it is read as (for naming a value whose type is unknown).
fn uses(statements: &[Statement], extra: &[(usize, &str)]) -> Vec<(bool, Option<String>)> {
    let mut out: Vec<(bool, Option<String>)> = vec![(false, None); statements.len()];
    let mut mark = |i: usize, ty: Option<&str>| {
        if let Some(slot) = out.get_mut(i) {
            slot.0 = true;
            if slot.1.is_none() {
                slot.1 = ty.map(str::to_string);
            }
        }
    };
    for s in statements {
        match s {
            Statement::New { params, args, .. } => {
                args.iter().zip(params).for_each(|(&a, p)| mark(a, Some(p)));
            }
            Statement::Call {
                class,
                params,
                receiver,
                args,
                ..
            } => {
                receiver.iter().for_each(|&r| mark(r, Some(class)));
                args.iter().zip(params).for_each(|(&a, p)| mark(a, Some(p)));
            }
            Statement::Field {
                class, receiver, ..
            } => receiver.iter().for_each(|&r| mark(r, Some(class))),
            Statement::Array { elem, elems } => elems.iter().for_each(|&e| mark(e, Some(elem))),
            _ => {}
        }
    }
    for &(i, ty) in extra {
        mark(i, Some(ty));
    }
    out
}

impl<'a> Body<'a> {
    /// Plans the variables of `statements`; `expected[i]` is what step `i` must give,
    /// `extra` the values observers or contracts read (statement, type read as).
    pub(super) fn new(
        types: &'a Types,
        style: Style,
        statements: &'a [Statement],
        expected: &[Option<Observed>],
        extra: &[(usize, &str)],
    ) -> Body<'a> {
        let uses = uses(statements, extra);
        let mut locals = Locals::default();
        let mut slots = Vec::with_capacity(statements.len());
        for (i, s) in statements.iter().enumerate() {
            let exp = expected.get(i).and_then(Option::as_ref);
            let (used, read_as) = &uses[i];
            let decl = decl(types, s, exp, *used);
            let base = match &decl {
                Decl::Typed(t) => variable_base(t),
                _ => unknown_base(s, exp, read_as.as_deref()),
            };
            let name = match decl {
                Decl::Typed(_) | Decl::Inferred => locals.numbered(&base, i),
                _ => String::new(),
            };
            slots.push(Slot { decl, name });
        }
        Body {
            types,
            style,
            statements,
            slots,
            locals,
            lines: Vec::new(),
        }
    }

    /// The variable of statement `i` and its declared type, if known.
    pub(super) fn var(&self, i: usize) -> (&str, Option<&str>) {
        let slot = &self.slots[i];
        let declared = match &slot.decl {
            Decl::Typed(t) => Some(t.as_str()),
            _ => None,
        };
        (&slot.name, declared)
    }

    /// Writes statement `i` and the assertion on what it gave.
    pub(super) fn statement(
        &mut self,
        i: usize,
        expected: Option<&Observed>,
    ) -> Result<(), Unwritable> {
        let expr = self.expr(&self.statements[i])?;
        match (&self.slots[i].decl, expected) {
            (Decl::Thrown, Some(Observed::Threw { class, message, .. })) => {
                let body = self.lambda_body(i, expr);
                let lines = throws(
                    self.style,
                    self.types,
                    &mut self.locals,
                    &body,
                    class,
                    message.as_deref(),
                )?;
                self.lines.extend(lines);
                return Ok(());
            }
            (Decl::Typed(t), _) => {
                let line = format!("{} {} = {expr};", type_source(t), self.slots[i].name);
                self.lines.push(line);
            }
            (Decl::Inferred, _) => {
                self.lines
                    .push(format!("var {} = {expr};", self.slots[i].name));
            }
            (_, _) => self.lines.push(format!("{expr};")),
        }
        match expected {
            Some(Observed::Void) | None => Ok(()),
            Some(exp) => {
                let (name, declared) = self.var(i);
                let lines = value(self.style, self.types, name, declared, exp)?;
                self.lines.extend(lines);
                Ok(())
            }
        }
    }

    /// Writes the check of an observer call `method()` on statement `stmt`'s value, looked up
    /// on `class`; `declared` is the method's return type if known.
    pub(super) fn observer(
        &mut self,
        stmt: usize,
        class: &str,
        method: &str,
        declared: Option<&str>,
        expected: Option<&Observed>,
    ) -> Result<(), Unwritable> {
        let call = format!("{}.{method}()", self.receiver(stmt, class, method, &[]));
        let Some(expected) = expected else {
            let e = self.locals.plain("varies");
            self.lines.push(format!(
                "try {{ {call}; }} catch (Throwable {e}) {{ /* varies on the reference: runs unchecked */ }}"
            ));
            return Ok(());
        };
        let lines = match expected {
            Observed::Threw { class, message, .. } => throws(
                self.style,
                self.types,
                &mut self.locals,
                &call,
                class,
                message.as_deref(),
            )?,
            _ => value(self.style, self.types, &call, declared, expected)?,
        };
        self.lines.extend(lines);
        Ok(())
    }

    /// A lambda body for statement `i`: the expression, or a block for a field read, which
    /// is no statement on its own.
    fn lambda_body(&mut self, i: usize, expr: String) -> String {
        if matches!(self.statements[i], Statement::Field { .. }) {
            let ignored = self.locals.plain("ignored");
            return format!("{{ var {ignored} = {expr}; }}");
        }
        expr
    }

    /// The Java expression of a statement.
    fn expr(&self, s: &Statement) -> Result<String, Unwritable> {
        let bad = |v: &str| format!("malformed literal `{v}`");
        Ok(match s {
            Statement::Literal { ty, value } => literal(ty, value).ok_or_else(|| bad(value))?,
            Statement::Null { .. } => "null".into(),
            Statement::Enum { ty, constant } => format!("{}.{constant}", type_ref(ty)),
            Statement::New {
                class,
                params,
                args,
            } => format!("new {}({})", type_source(class), self.args(params, args)),
            Statement::Call {
                class,
                method,
                params,
                receiver,
                args,
            } => {
                let target = match receiver {
                    Some(r) => self.receiver(*r, class, method, params),
                    None => type_source(class),
                };
                format!("{target}.{method}({})", self.args(params, args))
            }
            Statement::Field {
                class,
                field,
                receiver,
            } => match receiver {
                Some(r) => format!("{}.{field}", self.field_owner(*r, class)),
                None => format!("{}.{field}", type_source(class)),
            },
            Statement::Array { elem, elems } => self.array(elem, elems),
        })
    }

    fn args(&self, params: &[Name], args: &[usize]) -> String {
        let list: Vec<String> = params
            .iter()
            .zip(args)
            .map(|(p, &a)| {
                let (name, declared) = self.var(a);
                if declared == Some(&**p) {
                    name.to_string()
                } else {
                    format!("({}) {name}", type_source(p))
                }
            })
            .collect();
        list.join(", ")
    }

    /// The receiver `r` of `method(params)` looked up on `class`, cast where needed.
    fn receiver(&self, r: usize, class: &str, method: &str, params: &[Name]) -> String {
        let (name, declared) = self.var(r);
        let class = self.types.receiver_class(class, method, params);
        match declared {
            Some(d) if self.types.receiver_fits(d, class, method, params.len()) => name.to_string(),
            _ => format!("(({}) {name})", type_source(class)),
        }
    }

    /// The receiver `r` of a field read on `class`: cast unless declared as `class` itself
    /// (a subclass may hide the field with one of the same name).
    fn field_owner(&self, r: usize, class: &str) -> String {
        let (name, declared) = self.var(r);
        match declared {
            Some(d) if d == class => name.to_string(),
            _ => format!("(({}) {name})", type_source(class)),
        }
    }

    fn array(&self, elem: &str, elems: &[usize]) -> String {
        let list: Vec<String> = elems
            .iter()
            .map(|&e| {
                let (name, declared) = self.var(e);
                match declared {
                    Some(d) if self.types.is_subtype(d, elem) => name.to_string(),
                    _ => format!("({}) {name}", type_source(elem)),
                }
            })
            .collect();
        if list.is_empty() {
            return format!("new {}[0]", type_source(elem));
        }
        format!("new {}[] {{ {} }}", type_source(elem), list.join(", "))
    }
}

/// How statement `s` is kept, given what it must give and whether anything reads it.
fn decl(types: &Types, s: &Statement, expected: Option<&Observed>, used: bool) -> Decl {
    match expected {
        Some(Observed::Threw { .. }) => return Decl::Thrown,
        Some(Observed::Void) if !used => return Decl::Discarded,
        _ => {}
    }
    let call = matches!(s, Statement::Call { .. });
    match types.static_type(s) {
        Some(t) if t == "void" && !used => Decl::Discarded,
        Some(t) if t != "void" && types.nameable(&t) => Decl::Typed(t),
        _ if call && !used && expected.is_none() => Decl::Discarded,
        _ => Decl::Inferred,
    }
}

/// A variable name base for a value whose type the export does not know: the type of the
/// value it gave, else the first type it is read as, else the member that gave it.
fn unknown_base(s: &Statement, expected: Option<&Observed>, read_as: Option<&str>) -> String {
    let class = match expected {
        Some(Observed::Value { class, .. }) => Some(class.as_str()),
        Some(Observed::Large { class, .. }) => Some(&**class),
        _ => None,
    };
    if let Some(class) = class {
        let ty = super::java::unboxed(class).unwrap_or(class);
        return variable_base(ty);
    }
    if let Some(ty) = read_as {
        return variable_base(ty);
    }
    match s {
        Statement::Call { method, .. } => {
            // `getMessage()` gives a `message`.
            let name = method
                .strip_prefix("get")
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
                .unwrap_or(method);
            variable_base(name)
        }
        Statement::Field { field, .. } => variable_base(field),
        _ => "value".into(),
    }
}
