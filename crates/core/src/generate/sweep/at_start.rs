//! What the sweep queues before the first round: the catalogues (static calls without
//! inputs that return an array or a collection), the catalogues keyed by a name with the
//! scope's simple class names, and the mined int constants for their unit's lookups.

use super::{Lookup, MAX_CONSTANTS, MAX_QUEUED, Source, Then};
use crate::generate::Generator;
use crate::generate::harvest::COLLECTIONS;
use crate::generate::mined::Kind;
use crate::generate::type_names::NameId;
use std::collections::BTreeMap;

impl Generator<'_> {
    /// Queues every static call without inputs that returns an array or a collection.
    pub(in crate::generate) fn queue_catalogues(&mut self) {
        let collection = self.names.intern("java.util.Collection");
        for op in 0..self.random_ops {
            let o = &self.ops[op];
            if !o.receiver && o.inputs.is_empty() && self.returns_many(op, collection) {
                self.sweeps.catalogues.push_back(op);
            }
        }
    }

    /// Whether an operation returns an array or a `collection`.
    fn returns_many(&self, op: usize, collection: NameId) -> bool {
        let Some(result) = self.ops[op].result else {
            return false;
        };
        let name = self.names.name(result);
        name.ends_with("[]")
            || COLLECTIONS.contains(&name)
            || self.names.assignable(result, collection)
    }

    /// Queues each static call that takes one String and returns an array or a collection
    /// (a catalogue keyed by a name: `Security.getAlgorithms(serviceName)`) with the simple
    /// name of each class in scope: registries name their kinds after the API's own types
    /// (`"Signature"`, `"Cipher"`), and what such a catalogue lists differs between
    /// implementations as their registries do. What it lists for a name is swept for the
    /// lookups of the class so named (see `sweep_owner`): the registry's names are made for
    /// that class's factories (`KeyGenerator.getInstance("AES")`).
    pub(in crate::generate) fn queue_keyed_catalogues(&mut self) {
        let string = self.names.intern("java.lang.String");
        let collection = self.names.intern("java.util.Collection");
        let keyed: Vec<usize> = (0..self.random_ops)
            .filter(|&op| {
                let o = &self.ops[op];
                !o.receiver && o.inputs == [string] && self.returns_many(op, collection)
            })
            .collect();
        if keyed.is_empty() {
            return;
        }

        let simple = |class: &String| class.rsplit(['.', '$']).next().unwrap_or(class).to_string();
        let mut names: BTreeMap<String, &String> = BTreeMap::new();
        for class in self.model.classes.keys() {
            names.entry(simple(class)).or_insert(class);
        }
        for (name, class) in names {
            let tmpl = self.literal_template(string, &name);
            let class = self.names.intern(class);
            self.sweeps.named.insert(tmpl, class);
            for &op in &keyed {
                let value = Source::Literal(tmpl);
                let lookup = Lookup {
                    op,
                    value,
                    ty: string,
                    pos: 0,
                };
                self.sweeps.keyed.push_back(lookup);
            }
        }
    }

    /// Mined integer constants of an API unit (a top-level class with its nested classes:
    /// `Character`, `Character.UnicodeBlock`, `Character.UnicodeScript`), each passed once to
    /// every static lookup of the unit taking a single `int` or `long`. Tables in class
    /// files (block and script starts, limits, codes) so reach the functions that read them
    /// (`UnicodeBlock.of`, `Character.getName`, `isLetter`), which random numbers almost
    /// never do; each lookup takes its constants in turn with the others.
    pub(in crate::generate) fn queue_constant_lookups(&mut self) {
        let Some(mined) = self.cfg.mined.clone() else {
            return;
        };
        let mut by_unit: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (class, values) in &mined.by_class {
            let unit = class.split('$').next().unwrap_or(class);
            by_unit
                .entry(unit)
                .or_default()
                .extend(values[Kind::Int.index()].iter().map(String::as_str));
        }
        for (unit, mut values) in by_unit {
            let ops = self.unary_lookups(unit);
            values.sort_unstable();
            values.dedup();
            for value in values.into_iter().take(MAX_CONSTANTS) {
                if self.sweeps.constants.len >= MAX_QUEUED {
                    return;
                }
                for &(op, ty) in &ops {
                    let tmpl = self.literal_template(ty, value);
                    let (value, pos) = (Source::Literal(tmpl), 0);
                    let lookup = Lookup { op, value, ty, pos };
                    self.sweeps.constants.push(lookup, Then::NOTHING);
                }
            }
        }
    }

    /// Each key of the reference's configuration files ([`crate::generate::config_keys`])
    /// passed once to every static call taking one String and returning a String (a key →
    /// value lookup: `Security.getProperty`), taken in turn with the mined constants.
    pub(in crate::generate) fn queue_config_key_lookups(&mut self) {
        let Some(mined) = self.cfg.mined.clone() else {
            return;
        };
        let string = self.names.intern("java.lang.String");
        let ops: Vec<usize> = (0..self.random_ops)
            .filter(|&op| {
                let o = &self.ops[op];
                !o.receiver && o.inputs == [string] && o.result == Some(string)
            })
            .collect();
        for key in &mined.config_keys {
            let tmpl = self.literal_template(string, key);
            for &op in &ops {
                if self.sweeps.constants.len >= MAX_QUEUED {
                    return;
                }
                let (value, pos) = (Source::Literal(tmpl), 0);
                let lookup = Lookup {
                    op,
                    value,
                    ty: string,
                    pos,
                };
                self.sweeps.constants.push(lookup, Then::NOTHING);
            }
        }
    }

    /// The static operations of `unit` and its nested classes taking one `int` or `long`.
    fn unary_lookups(&mut self, unit: &str) -> Vec<(usize, NameId)> {
        let nested = format!("{unit}$");
        let mut out = Vec::new();
        for op in 0..self.random_ops {
            let class = &self.op_class[op];
            let o = &self.ops[op];
            if o.receiver || o.inputs.len() != 1 || (class != unit && !class.starts_with(&nested)) {
                continue;
            }
            let ty = self.names.name(o.inputs[0]);
            if ty == "int" || ty == "long" {
                out.push((op, o.inputs[0]));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::generate::mined::Mined;
    use crate::generate::{GenConfig, Generator};
    use crate::model::{ApiClass, ApiModel, Callable};
    use crate::sequence::Statement;
    use std::sync::Arc;

    #[test]
    fn each_configuration_key_goes_once_to_each_static_string_to_string_call() {
        let s = "java.lang.String";
        let class = ApiClass::with_methods(
            "t.Settings",
            &[],
            vec![
                Callable::new("get", &[s], s, true),
                Callable::new("quote", &[s], s, true),
                Callable::new("length", &[s], "int", true),
                Callable::new("getOr", &[s, s], s, true),
                Callable::new("lookup", &[s], s, false),
            ],
        );
        let model = ApiModel {
            classes: [(class.name.clone(), class)].into_iter().collect(),
        };
        let keys = ["a.first", "b.second", "c.third"].map(String::from);
        let mined = Mined {
            config_keys: keys.to_vec(),
            ..Mined::default()
        };
        let cfg = GenConfig {
            mined: Some(Arc::new(mined)),
            ..GenConfig::default()
        };
        let mut g = Generator::new(&model, cfg).expect("scope");
        g.queue_config_key_lookups();
        let mut seen = Vec::new();
        while let Some((lookup, _)) = g.sweeps.constants.pop() {
            let super::Source::Literal(tmpl) = lookup.value else {
                panic!("a key is a literal");
            };
            let Statement::Literal { value, .. } = &g.store.templates.get(tmpl).stmt else {
                panic!("a key is a literal statement");
            };
            let key = value.to_string();
            seen.push((g.member_name(lookup.op).to_string(), key));
        }
        seen.sort();
        let want: Vec<(String, String)> = ["get", "quote"]
            .iter()
            .flat_map(|m| keys.iter().map(move |k| (m.to_string(), k.clone())))
            .collect();
        assert_eq!(seen, want);
    }
}
