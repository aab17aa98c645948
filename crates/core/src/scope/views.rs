//! Views: the Java SE interfaces and abstract classes through which a library hands out its
//! own objects. `Flat3Map.entrySet()` is declared to return a `java.util.Set`, and the
//! object behind it is the library's; its `remove` is the library's code, but a scope of
//! the library's classes has no operation that takes a `Set`. For a target that adds a
//! library, the instance methods of such types join the scope; their static methods (which
//! make the JDK's own objects) and constructors do not.

use crate::model::{ApiModel, ClassKind};
use std::collections::BTreeSet;

/// Rounds of views of views (`Map` → `Set` → `Iterator`) at most.
pub const VIEW_DEPTH: usize = 3;

/// The Java SE types the model's methods and fields declare as values that the model does
/// not describe and `asked` does not hold yet: view candidates, to be described.
pub fn view_candidates(model: &ApiModel, asked: &BTreeSet<String>) -> Vec<String> {
    let methods = model.classes.values().flat_map(|c| c.methods.iter());
    let returned = methods.map(|m| m.returns.as_str());
    let fields = model.classes.values().flat_map(|c| c.fields.iter());
    let wanted: BTreeSet<&str> = returned
        .chain(fields.map(|f| f.ty.as_str()))
        .filter(|t| is_java_se_class(t) && model.class(t).is_none() && !asked.contains(*t))
        .collect();
    wanted.into_iter().map(str::to_string).collect()
}

/// The interfaces and abstract classes of `described`, each with its instance methods only.
pub fn as_views(described: ApiModel) -> ApiModel {
    let mut out = ApiModel::default();
    for (name, mut class) in described.classes {
        if !matches!(class.kind, ClassKind::Interface | ClassKind::AbstractClass) {
            continue;
        }
        class.constructors.clear();
        class.fields.clear();
        class.enum_constants.clear();
        class.methods.retain(|m| !m.is_static);
        if !class.methods.is_empty() {
            out.classes.insert(name, class);
        }
    }
    out
}

/// A class of the Java SE API (`java.*`, `javax.*`), not an array nor `Object`.
fn is_java_se_class(ty: &str) -> bool {
    (ty.starts_with("java.") || ty.starts_with("javax."))
        && !ty.ends_with("[]")
        && ty != "java.lang.Object"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ApiClass, Callable, Field};

    fn class(name: &str, kind: ClassKind, methods: Vec<Callable>) -> ApiClass {
        ApiClass {
            name: name.into(),
            kind,
            supertypes: Vec::new(),
            constructors: vec![Callable::new("<init>", &[], name, false)],
            methods,
            fields: Vec::new(),
            enum_constants: Vec::new(),
            deprecated_for_removal: false,
        }
    }

    fn model(classes: Vec<ApiClass>) -> ApiModel {
        ApiModel {
            classes: classes.into_iter().map(|c| (c.name.clone(), c)).collect(),
        }
    }

    #[test]
    fn candidates_are_java_se_types_the_library_returns_that_no_one_described_or_asked() {
        let mut lib = class(
            "org.example.Bag",
            ClassKind::Class,
            vec![
                Callable::new("entries", &[], "java.util.Set", false),
                Callable::new("first", &[], "java.util.Map$Entry", false),
                Callable::new("self", &[], "org.example.Bag", false),
                Callable::new("raw", &[], "java.lang.Object", false),
                Callable::new("all", &[], "java.util.List[]", false),
                Callable::new("size", &[], "int", false),
                Callable::new("helper", &[], "org.other.Helper", false),
                Callable::new("iterator", &[], "java.util.Iterator", false),
            ],
        );
        lib.fields.push(Field {
            name: "EMPTY".into(),
            ty: "java.util.Collection".into(),
            is_static: true,
            is_final: true,
        });
        let asked = BTreeSet::from(["java.util.Iterator".to_string()]);
        assert_eq!(
            view_candidates(&model(vec![lib]), &asked),
            [
                "java.util.Collection",
                "java.util.Map$Entry",
                "java.util.Set"
            ]
        );
    }

    #[test]
    fn views_keep_the_instance_methods_of_interfaces_and_abstract_classes_only() {
        let set = class(
            "java.util.Set",
            ClassKind::Interface,
            vec![
                Callable::new("remove", &["java.lang.Object"], "boolean", false),
                Callable::new("of", &[], "java.util.Set", true),
            ],
        );
        let stream = class(
            "java.io.InputStream",
            ClassKind::AbstractClass,
            vec![Callable::new(
                "nullInputStream",
                &[],
                "java.io.InputStream",
                true,
            )],
        );
        let concrete = class(
            "java.util.ArrayList",
            ClassKind::Class,
            vec![Callable::new("size", &[], "int", false)],
        );
        let views = as_views(model(vec![set, stream, concrete]));
        assert_eq!(views.classes.keys().collect::<Vec<_>>(), ["java.util.Set"]);
        let set = &views.classes["java.util.Set"];
        assert!(set.constructors.is_empty());
        assert_eq!(set.methods.len(), 1);
        assert_eq!(set.methods[0].name, "remove");
    }
}
