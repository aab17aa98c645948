//! The operations the generator picks from (line 5 of Fig. 3): every public constructor of a
//! concrete class, every public method and every public field of the (already filtered)
//! API model, each with the types of its inputs (receiver first) and of its value, and how
//! often random generation draws it.

use super::components::Components;
use super::store::Templates;
use super::type_names::{NameId, Names};
use crate::model::{ApiClass, ApiModel, ClassKind};
use crate::sequence::{Statement, names};

/// One operation.
#[derive(Clone, Debug)]
pub(crate) struct Op {
    pub tmpl: u32,
    /// Declared input types, receiver first.
    pub inputs: Vec<NameId>,
    /// The component slot of each input.
    pub slots: Vec<u32>,
    /// Whether `inputs[0]` is a receiver (never null).
    pub receiver: bool,
    /// Declared type of the value; `None` for `void`.
    pub result: Option<NameId>,
    /// `method(params)` shared by the same method on every class (a constructor or field is
    /// its own family): after a hang, the whole family is avoided.
    pub family: NameId,
}

/// All operations of `model`, in the model's order; registers their parameter types (and
/// array element types) as component slots.
pub(crate) fn operations(
    model: &ApiModel,
    names: &mut Names,
    templates: &mut Templates,
    comps: &mut Components,
) -> Vec<Op> {
    let mut ops = Vec::new();
    for class in model.classes.values() {
        for (stmt, inputs, receiver, result) in class_ops(class) {
            let inputs: Vec<NameId> = inputs.iter().map(|t| names.intern(t)).collect();
            let slots = inputs
                .iter()
                .map(|&t| {
                    let elem = names.name(t).strip_suffix("[]").map(str::to_string);
                    if let Some(elem) = elem {
                        comps.register(names.intern(&elem));
                    }
                    comps.register(t)
                })
                .collect();
            let result = (result != "void").then(|| names.intern(&result));
            let family = names.intern(&family(&stmt));
            let tmpl = templates.intern(stmt);
            ops.push(Op {
                tmpl,
                inputs,
                slots,
                receiver,
                result,
                family,
            });
        }
    }
    ops
}

/// Which operations take an index: an `int` beside a sized input (an array, a
/// `CharSequence` or a `Collection`, the receiver included), such as
/// `StringBuilder.insert(int, CharSequence, int, int)` or `Arrays.fill(long[], int, int, long)`.
pub(crate) fn index_ops(ops: &[Op], names: &mut Names) -> Vec<bool> {
    let sized = [
        names.intern("java.lang.CharSequence"),
        names.intern("java.util.Collection"),
    ];
    let int = names.intern("int");
    ops.iter()
        .map(|op| {
            op.inputs.contains(&int)
                && op.inputs.iter().any(|&t| {
                    names.name(t).ends_with("[]") || sized.iter().any(|&s| names.assignable(t, s))
                })
        })
        .collect()
}

fn family(stmt: &Statement) -> String {
    match stmt {
        Statement::Call { method, params, .. } => format!("{method}({})", params.join(",")),
        other => other.callee(),
    }
}

type RawOp = (Statement, Vec<String>, bool, String);

fn class_ops(c: &ApiClass) -> Vec<RawOp> {
    let mut out = Vec::new();
    if c.kind == ClassKind::Class {
        for k in &c.constructors {
            let stmt = Statement::New {
                class: c.name.as_str().into(),
                params: names(&k.params),
                args: vec![],
            };
            out.push((stmt, k.params.clone(), false, c.name.clone()));
        }
    }
    for m in &c.methods {
        let stmt = Statement::Call {
            class: c.name.as_str().into(),
            method: m.name.as_str().into(),
            params: names(&m.params),
            receiver: (!m.is_static).then_some(0),
            args: vec![],
        };
        let mut inputs = m.params.clone();
        if !m.is_static {
            inputs.insert(0, c.name.clone());
        }
        out.push((stmt, inputs, !m.is_static, m.returns.clone()));
    }
    for f in &c.fields {
        let stmt = Statement::Field {
            class: c.name.as_str().into(),
            field: f.name.as_str().into(),
            receiver: (!f.is_static).then_some(0),
        };
        let inputs = if f.is_static {
            vec![]
        } else {
            vec![c.name.clone()]
        };
        out.push((stmt, inputs, !f.is_static, f.ty.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Callable;

    fn callable(name: &str, params: &[&str], returns: &str, is_static: bool) -> Callable {
        Callable::new(name, params, returns, is_static)
    }

    #[test]
    fn constructors_methods_and_fields_become_operations() {
        let mut class = ApiClass {
            name: "p.A".into(),
            kind: ClassKind::Class,
            supertypes: vec![],
            constructors: vec![callable("<init>", &["int[]"], "p.A", false)],
            methods: vec![
                callable("m", &["java.lang.String"], "void", false),
                callable("of", &[], "p.A", true),
            ],
            fields: vec![],
            enum_constants: vec![],
            deprecated_for_removal: false,
        };
        class.methods.push(Callable {
            deprecated_for_removal: true,
            ..callable("old", &[], "int", true)
        });
        let model = ApiModel {
            classes: [(class.name.clone(), class)].into_iter().collect(),
        };
        let mut names = Names::new(&model);
        let (mut t, mut c) = (Templates::default(), Components::default());
        let ops = operations(&model, &mut names, &mut t, &mut c);
        // API deprecated for removal is called too (its removal is a difference); the
        // record's model filter leaves it out with --skip-deprecated-for-removal.
        assert_eq!(ops.len(), 4);
        assert!(ops[1].receiver && ops[1].result.is_none() && ops[1].inputs.len() == 2);
        assert!(!ops[2].receiver && ops[2].inputs.is_empty());
        assert!(
            c.slot(names.intern("int")).is_some(),
            "array elements get a slot"
        );
    }
    #[test]
    fn an_int_beside_an_array_a_char_sequence_or_a_collection_is_an_index() {
        let buffer = ApiClass::with_methods(
            "p.Buffer",
            &["java.lang.CharSequence"],
            vec![
                callable("insert", &["int", "java.lang.String"], "p.Buffer", false),
                callable("fill", &["long[]", "int", "int"], "void", true),
                callable("scale", &["long", "int"], "int", true),
                callable("length", &[], "int", false),
            ],
        );
        let model = ApiModel {
            classes: [(buffer.name.clone(), buffer)].into_iter().collect(),
        };
        let mut names = Names::new(&model);
        let (mut t, mut c) = (Templates::default(), Components::default());
        let ops = operations(&model, &mut names, &mut t, &mut c);
        let index = index_ops(&ops, &mut names);
        let of = |name: &str| {
            let at = ops
                .iter()
                .position(|op| t.get(op.tmpl).stmt.callee().contains(name));
            index[at.unwrap()]
        };
        assert!(of("insert"), "the receiver is a CharSequence");
        assert!(of("fill"), "an array");
        assert!(!of("scale"), "no sized input");
        assert!(!of("length"), "no int input");
    }
}
