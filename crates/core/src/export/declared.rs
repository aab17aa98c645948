//! What the export knows about Java types: which classes it may name in source, the
//! declared return type of a call or field read, and subtyping.
//!
//! A suite does not record return types, so they come from the reference's API model when
//! the command could describe the suite's classes on the reference target (same Java
//! version as the suite); without a model, call results are declared with `var` and cast
//! where they are used. A class may be named when the suite itself writes it as a type
//! (every cast, receiver and constructed class is public API) or the model knows it as
//! public; classes of JDK-internal packages never are.

use crate::model::{ApiModel, is_primitive};
use crate::sequence::{Name, Observed, ObserverCall, Statement};
use crate::suite::Suite;
use std::collections::{BTreeSet, HashSet};

/// Packages javac does not let code compiled with `--release` see.
const INTERNAL: [&str; 3] = ["sun.", "jdk.internal.", "com.sun.proxy."];

/// Type knowledge for one suite.
#[derive(Default)]
pub struct Types {
    model: ApiModel,
    /// Classes the suite writes as types.
    written: HashSet<String>,
}

/// The element type of an array type name, however deep (`int[][]` → `int`).
pub(crate) fn element(ty: &str) -> &str {
    ty.trim_end_matches("[]")
}

impl Types {
    /// Types for `suite`, with the reference's model when there is one.
    pub fn new(suite: &Suite, model: Option<ApiModel>) -> Types {
        let mut written = HashSet::new();
        let statements = suite.statements();
        for s in statements {
            written.extend(written_types(s).into_iter().map(|t| element(t).to_string()));
        }
        for o in suite.tests.iter().flat_map(|t| &t.observers) {
            written.insert(o.class.to_string());
        }
        Types {
            model: model.unwrap_or_default(),
            written,
        }
    }

    /// Adds classes described later (return types) to the model.
    pub fn add_model(&mut self, more: ApiModel) {
        self.model.classes.extend(more.classes);
    }

    /// Whether the export has a model (return types known).
    pub fn has_model(&self) -> bool {
        !self.model.classes.is_empty()
    }

    /// Whether source may name `ty` (primitives, arrays of nameable types, public classes
    /// outside internal packages).
    pub fn nameable(&self, ty: &str) -> bool {
        let ty = element(ty);
        if is_primitive(ty) {
            return true;
        }
        let public = self.written.contains(ty) || self.model.class(ty).is_some();
        public && !INTERNAL.iter().any(|p| ty.starts_with(p)) && !ty.contains("$$")
    }

    /// The declared type of what statement `s` gives (`void` for a void method), when the
    /// statement itself says (a literal, a constructor …) or the model does.
    pub fn static_type(&self, s: &Statement) -> Option<String> {
        match s {
            Statement::Literal { ty, .. } | Statement::Null { ty } | Statement::Enum { ty, .. } => {
                Some(ty.to_string())
            }
            Statement::New { class, .. } => Some(class.to_string()),
            Statement::Array { elem, .. } => Some(format!("{elem}[]")),
            Statement::Call {
                class,
                method,
                params,
                ..
            } => self.returns(class, method, params),
            Statement::Field { class, field, .. } => {
                let c = self.model.class(class)?;
                let f = c.fields.iter().find(|f| *f.name == **field)?;
                Some(f.ty.clone())
            }
        }
    }

    /// The declared return type of an observer call, if the model knows it.
    pub fn observer_type(&self, o: &ObserverCall) -> Option<String> {
        self.returns(&o.class, &o.method, &[])
    }

    fn returns(&self, class: &str, method: &str, params: &[Name]) -> Option<String> {
        let c = self.model.class(class)?;
        let m = c
            .methods
            .iter()
            .find(|m| m.name == method && same_params(&m.params, params))?;
        Some(m.returns.clone())
    }

    /// The class to cast a receiver to for instance method `method(params)` looked up on
    /// `class`. Usually `class`. But reflection lists methods by their erased signature,
    /// which source cannot always call on `class`: a bridge (`Byte.compareTo(Object)` next
    /// to `compareTo(Byte)`), or a generic method whose type argument is the class itself
    /// (`Locale.IsoCountryCode.compareTo(Enum)` is `compareTo(IsoCountryCode)` in source).
    /// When the call looks like one of those, the receiver is cast to the farthest
    /// supertype declaring the same signature with the same return type (raw, so erased
    /// like reflection's); the call dispatches to the same code.
    pub fn receiver_class<'s>(&'s self, class: &'s str, method: &str, params: &[Name]) -> &'s str {
        let Some(c) = self.model.class(class) else {
            return bridge_guess(class, method, params);
        };
        let find = |name: &str| {
            let k = self.model.class(name)?;
            k.methods
                .iter()
                .find(|m| m.name == method && same_params(&m.params, params) && !m.is_static)
        };
        let Some(own) = find(class) else {
            return class;
        };
        if !self.may_be_erased(class, method, params) {
            return class;
        }
        let same = |s: &&String| find(s).is_some_and(|m| m.returns == own.returns);
        c.supertypes
            .iter()
            .rev()
            .find(same)
            .map_or(class, String::as_str)
    }

    /// Whether `class.method(params)` may be a bridge or a generic method instantiated
    /// with `class`: a parameter is a proper supertype of `class` (other than `Object`), or
    /// `class` has a sibling of the same arity taking narrower types.
    fn may_be_erased(&self, class: &str, method: &str, params: &[Name]) -> bool {
        let supertype_param = params
            .iter()
            .any(|p| &**p != "java.lang.Object" && &**p != class && self.is_subtype(class, p));
        let narrower = |q: &[String]| {
            !same_params(q, params) && q.iter().zip(params).all(|(q, p)| self.is_subtype(q, p))
        };
        let sibling = self.model.class(class).is_some_and(|c| {
            c.methods.iter().any(|m| {
                m.name == method
                    && !m.is_static
                    && m.params.len() == params.len()
                    && narrower(&m.params)
            })
        });
        supertype_param || sibling
    }

    /// Instance methods of `class` named `method` with `arity` parameters (0 if unknown).
    fn peers(&self, class: &str, method: &str, arity: usize) -> usize {
        self.model.class(class).map_or(0, |c| {
            c.methods
                .iter()
                .filter(|m| m.name == method && m.params.len() == arity && !m.is_static)
                .count()
        })
    }

    /// Whether a receiver declared as `declared` can call `method` (with `arity`
    /// parameters, looked up on `class`) without a cast: the same class, or a subtype with
    /// a single such method (so no overload or bridge of its own can be picked instead).
    pub fn receiver_fits(&self, declared: &str, class: &str, method: &str, arity: usize) -> bool {
        declared == class
            || (self.is_subtype(declared, class) && self.peers(declared, method, arity) == 1)
    }

    /// Whether a value declared as `sub` may stand where `sup` is expected without a cast
    /// changing which method runs: the same type, or a known subtype.
    pub fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        if sub == sup {
            return true;
        }
        if is_primitive(sub) || is_primitive(sup) {
            return false;
        }
        if sup == "java.lang.Object" {
            return true;
        }
        self.model
            .class(sub)
            .is_some_and(|c| c.supertypes.iter().any(|s| s == sup))
    }
}

/// Whether a described method's parameter types are a statement's.
fn same_params(described: &[String], params: &[Name]) -> bool {
    described.len() == params.len() && described.iter().zip(params).all(|(d, p)| **d == **p)
}

/// Without a model: the generic supertypes of the JDK's usual bridge methods.
fn bridge_guess<'s>(class: &'s str, method: &str, params: &[Name]) -> &'s str {
    let p: Vec<&str> = params.iter().map(|p| &**p).collect();
    match (method, p.as_slice()) {
        ("compareTo", ["java.lang.Object"]) if class != "java.lang.Object" => {
            "java.lang.Comparable"
        }
        ("compareTo", ["java.lang.Enum"]) => "java.lang.Enum",
        ("compare", ["java.lang.Object", "java.lang.Object"]) => "java.util.Comparator",
        _ => class,
    }
}

/// Types a statement writes in source: casts, qualifiers, constructed classes.
fn written_types(s: &Statement) -> Vec<&str> {
    match s {
        Statement::Literal { ty, value } if &**ty == crate::sequence::CLASS => {
            vec![ty, value]
        }
        Statement::Literal { ty, .. } | Statement::Null { ty } | Statement::Enum { ty, .. } => {
            vec![ty]
        }
        Statement::New { class, params, .. } | Statement::Call { class, params, .. } => {
            let mut v = vec![&**class];
            v.extend(params.iter().map(|p| &**p));
            v
        }
        Statement::Field { class, .. } => vec![class],
        Statement::Array { elem, .. } => vec![elem],
    }
}

/// The classes whose model the export needs first: every class the suite names.
pub(crate) fn classes_to_describe(suite: &Suite) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |ty: &str| {
        let ty = element(ty);
        if !is_primitive(ty) && !ty.is_empty() {
            out.insert(ty.to_string());
        }
    };
    let statements = suite.statements();
    for s in statements {
        written_types(s).into_iter().for_each(&mut add);
    }
    for t in &suite.tests {
        t.observers.iter().for_each(|o| add(&o.class));
        let expected = t.expected_steps.iter().flatten();
        for o in expected.chain(t.expected_observations.iter().flatten()) {
            match o {
                Observed::Threw { class, .. } | Observed::Object { class } => add(class),
                Observed::Value { class, .. } => add(class),
                Observed::Large { class, .. } => add(class.as_ref()),
                _ => {}
            }
        }
    }
    out
}

/// The declared types of the suite's call results, field reads and observers that `types`
/// does not describe yet: asked for next, so that the export knows whether they are public.
pub(crate) fn more_to_describe(suite: &Suite, types: &Types) -> BTreeSet<String> {
    let statements = suite
        .statements()
        .filter(|s| matches!(s, Statement::Call { .. } | Statement::Field { .. }))
        .filter_map(|s| types.static_type(s));
    let observers = suite
        .tests
        .iter()
        .flat_map(|t| &t.observers)
        .filter_map(|o| types.observer_type(o));
    let supertypes: Vec<String> = types
        .model
        .classes
        .values()
        .flat_map(|c| c.supertypes.iter().cloned())
        .collect();
    statements
        .chain(observers)
        .map(|ty| element(&ty).to_string())
        .filter(|ty| !is_primitive(ty) && ty != "void" && !types.nameable(ty))
        .chain(supertypes)
        .filter(|ty| types.model.class(ty).is_none())
        .collect()
}
