//! The API model: the public classes, constructors, methods and fields an implementation
//! exposes, as the worker describes them by reflection. Types are erased Java type names
//! (`int`, `java.lang.String`, `java.util.Map$Entry`, `int[]`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What kind of type a class is.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum ClassKind {
    Class,
    AbstractClass,
    Interface,
    Enum,
}

/// A constructor or a method. Constructors have the name `<init>` and return their class.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Callable {
    pub name: String,
    pub params: Vec<String>,
    pub returns: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_static: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated_for_removal: bool,
    /// For a static method inherited from a superclass, the class that declares it: the
    /// same method is reached through every subclass (`CachedZone.setProvider` is
    /// `Zone.setProvider`), so what names it on its declaring class names it everywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_in: Option<String>,
}

impl Callable {
    /// A callable of the unit tests' models, not deprecated for removal.
    #[cfg(any(test, feature = "test-support"))]
    pub fn new(name: &str, params: &[&str], returns: &str, is_static: bool) -> Callable {
        Callable {
            name: name.into(),
            params: params.iter().map(|p| p.to_string()).collect(),
            returns: returns.into(),
            is_static,
            deprecated_for_removal: false,
            declared_in: None,
        }
    }

    /// `name(p1,p2)`: the signature used to match a callable across implementations.
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.params.join(","))
    }
}

/// A public field.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub name: String,
    pub ty: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_static: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_final: bool,
}

/// One public class as an implementation exposes it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ApiClass {
    pub name: String,
    pub kind: ClassKind,
    /// Every supertype (superclasses and interfaces, transitively), nearest first.
    #[serde(default)]
    pub supertypes: Vec<String>,
    #[serde(default)]
    pub constructors: Vec<Callable>,
    /// Public methods, inherited ones included, whose declaring class is public.
    #[serde(default)]
    pub methods: Vec<Callable>,
    #[serde(default)]
    pub fields: Vec<Field>,
    #[serde(default)]
    pub enum_constants: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated_for_removal: bool,
}

impl ApiClass {
    /// Whether a value of this class can be passed where `ty` is expected.
    pub fn is_assignable_to(&self, ty: &str) -> bool {
        self.name == ty || ty == "java.lang.Object" || self.supertypes.iter().any(|s| s == ty)
    }

    /// A concrete class of `methods`, without constructors or fields: hand-built models of
    /// unit tests.
    #[cfg(any(test, feature = "test-support"))]
    pub fn with_methods(name: &str, supertypes: &[&str], methods: Vec<Callable>) -> ApiClass {
        ApiClass {
            name: name.into(),
            kind: ClassKind::Class,
            supertypes: supertypes.iter().map(|s| s.to_string()).collect(),
            constructors: vec![],
            methods,
            fields: vec![],
            enum_constants: vec![],
            deprecated_for_removal: false,
        }
    }
}

/// The API of one implementation for a scope of classes, keyed by class name.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct ApiModel {
    pub classes: BTreeMap<String, ApiClass>,
}

impl ApiModel {
    pub fn class(&self, name: &str) -> Option<&ApiClass> {
        self.classes.get(name)
    }

    /// Number of public methods (constructors included) across all classes.
    pub fn callable_count(&self) -> usize {
        self.classes
            .values()
            .map(|c| c.methods.len() + c.constructors.len())
            .sum()
    }
}

/// Java's primitive type names.
pub const PRIMITIVES: [&str; 8] = [
    "boolean", "byte", "short", "int", "long", "float", "double", "char",
];

/// Whether `ty` is a primitive type name.
pub fn is_primitive(ty: &str) -> bool {
    PRIMITIVES.contains(&ty)
}

/// The boxed class of a primitive type, or the type itself.
pub fn boxed(ty: &str) -> &str {
    match ty {
        "boolean" => "java.lang.Boolean",
        "byte" => "java.lang.Byte",
        "short" => "java.lang.Short",
        "int" => "java.lang.Integer",
        "long" => "java.lang.Long",
        "float" => "java.lang.Float",
        "double" => "java.lang.Double",
        "char" => "java.lang.Character",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_joins_params() {
        let c = Callable {
            name: "add".into(),
            params: vec!["int".into(), "java.lang.Object".into()],
            returns: "void".into(),
            is_static: false,
            deprecated_for_removal: false,
            declared_in: None,
        };
        assert_eq!(c.signature(), "add(int,java.lang.Object)");
    }

    #[test]
    fn boxes_primitives_only() {
        assert_eq!(boxed("char"), "java.lang.Character");
        assert_eq!(boxed("java.util.List"), "java.util.List");
        assert!(is_primitive("double") && !is_primitive("java.lang.Double"));
    }
}
