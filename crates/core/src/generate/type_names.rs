//! Names interned to small ids, and the subtyping relation the generator uses to decide
//! which values may fill a parameter: the declared (erased) types of the API model, with
//! boxing and unboxing as `Method.invoke` does them, array covariance, and the supertypes of
//! boxed primitives and `String` built in for scopes that do not describe `java.lang`.

use crate::model::{ApiModel, boxed, is_primitive};
use crate::sequence::Name;
use std::collections::HashMap;

/// An interned name: a type, or a method name.
pub(crate) type NameId = u32;

/// Supertypes of the value classes when the model does not describe them.
const VALUE_SUPERS: [(&str, &[&str]); 9] = [
    (
        "java.lang.String",
        &[
            "java.lang.CharSequence",
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
            "java.lang.constant.ConstantDesc",
        ],
    ),
    (
        "java.lang.Integer",
        &[
            "java.lang.Number",
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
            "java.lang.constant.ConstantDesc",
        ],
    ),
    (
        "java.lang.Long",
        &[
            "java.lang.Number",
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
            "java.lang.constant.ConstantDesc",
        ],
    ),
    (
        "java.lang.Double",
        &[
            "java.lang.Number",
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
            "java.lang.constant.ConstantDesc",
        ],
    ),
    (
        "java.lang.Float",
        &[
            "java.lang.Number",
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
            "java.lang.constant.ConstantDesc",
        ],
    ),
    (
        "java.lang.Short",
        &[
            "java.lang.Number",
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
        ],
    ),
    (
        "java.lang.Byte",
        &[
            "java.lang.Number",
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
        ],
    ),
    (
        "java.lang.Boolean",
        &[
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
        ],
    ),
    (
        "java.lang.Character",
        &[
            "java.lang.Comparable",
            "java.io.Serializable",
            "java.lang.constant.Constable",
        ],
    ),
];

/// Interned names and the supertypes of every class the model describes.
#[derive(Default)]
pub(crate) struct Names {
    names: Vec<Name>,
    ids: HashMap<Name, NameId>,
    supers: HashMap<String, Vec<String>>,
}

impl Names {
    /// Names that know the supertypes of `model`'s classes.
    pub(crate) fn new(model: &ApiModel) -> Names {
        let mut supers: HashMap<String, Vec<String>> = VALUE_SUPERS
            .iter()
            .map(|(c, s)| (c.to_string(), s.iter().map(|t| t.to_string()).collect()))
            .collect();
        for c in model.classes.values() {
            supers.insert(c.name.clone(), c.supertypes.clone());
        }
        Names {
            supers,
            ..Names::default()
        }
    }

    /// The id of `name`, added if new.
    pub(crate) fn intern(&mut self, name: &str) -> NameId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as NameId;
        let name: Name = name.into();
        self.names.push(name.clone());
        self.ids.insert(name, id);
        id
    }

    /// The id of `name`, if interned.
    pub(crate) fn get(&self, name: &str) -> Option<NameId> {
        self.ids.get(name).copied()
    }

    /// The name of `id`, shared (a request's observer calls hold it without a copy).
    pub(crate) fn shared(&self, id: NameId) -> Name {
        self.names[id as usize].clone()
    }

    /// The name of `id`.
    pub(crate) fn name(&self, id: NameId) -> &str {
        &self.names[id as usize]
    }

    /// Whether a non-null value declared as `value` can be passed for a parameter `param`.
    pub(crate) fn assignable(&self, value: NameId, param: NameId) -> bool {
        value == param || self.assignable_names(self.name(value), self.name(param))
    }

    fn assignable_names(&self, value: &str, param: &str) -> bool {
        if value == param {
            return true;
        }
        if is_primitive(param) {
            return boxed(param) == value;
        }
        let value = boxed(value);
        if value == param || param == "java.lang.Object" {
            return value != "void";
        }
        if let Some(elem) = value.strip_suffix("[]") {
            return match param.strip_suffix("[]") {
                Some(p) if is_primitive(elem) || is_primitive(p) => elem == p,
                Some(p) => self.assignable_names(elem, p),
                None => param == "java.lang.Cloneable" || param == "java.io.Serializable",
            };
        }
        self.supers
            .get(value)
            .is_some_and(|s| s.iter().any(|t| t == param))
    }
}

/// Whether values of `ty` are shown by their text (primitives, boxes, `String`): such values
/// need no observers and are never receivers of interesting state.
pub(crate) fn is_value_type(ty: &str) -> bool {
    is_primitive(ty) || ty == "java.lang.String" || boxed_names().contains(&ty)
}

fn boxed_names() -> [&'static str; 8] {
    crate::model::PRIMITIVES.map(boxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ApiClass, ClassKind};

    fn model() -> ApiModel {
        let class = ApiClass {
            name: "java.util.ArrayList".into(),
            kind: ClassKind::Class,
            supertypes: vec!["java.util.List".into(), "java.util.Collection".into()],
            constructors: vec![],
            methods: vec![],
            fields: vec![],
            enum_constants: vec![],
            deprecated_for_removal: false,
        };
        ApiModel {
            classes: [(class.name.clone(), class)].into_iter().collect(),
        }
    }

    #[test]
    fn subtyping_boxing_and_arrays() {
        let mut n = Names::new(&model());
        let mut ok = |v: &str, p: &str| {
            let (v, p) = (n.intern(v), n.intern(p));
            n.assignable(v, p)
        };
        assert!(ok("java.util.ArrayList", "java.util.Collection"));
        assert!(!ok("java.util.List", "java.util.ArrayList"));
        assert!(ok("int", "java.lang.Integer") && ok("java.lang.Integer", "int"));
        assert!(!ok("long", "int"));
        assert!(ok("int", "java.lang.Number") && ok("java.lang.String", "java.lang.CharSequence"));
        assert!(ok("java.util.ArrayList[]", "java.util.List[]"));
        assert!(!ok("int[]", "java.lang.Object[]") && ok("int[]", "java.lang.Object"));
        assert!(ok("int[]", "java.io.Serializable"));
        assert!(!ok("void", "java.lang.Object"));
    }

    #[test]
    fn value_types() {
        assert!(is_value_type("int") && is_value_type("java.lang.Character"));
        assert!(is_value_type("java.lang.String") && !is_value_type("java.lang.Object"));
    }
}
