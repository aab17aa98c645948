//! Sorted copies of unordered sets and maps. The text of a `HashSet`, a `HashMap` or one of
//! the JDK's immutable sets and maps follows its iteration order, which the specification
//! leaves open: it moves with hash seeds and identity hashes (`Set.of`, `Map.of` randomize it
//! per JVM; a set of names built from a provider's table follows its identity hashes), so
//! reruns drop it, and what the set holds goes unchecked. Each new such value a call returns
//! is therefore copied once into `new java.util.TreeSet(set)` or `new java.util.TreeMap(map)`,
//! whose text is in natural order and so stable: `ZoneId.SHORT_IDS` or
//! `Security.getAlgorithms("KDF")` are checked by content. Elements that are not comparable
//! make the copy throw, which is checked like any other outcome.

use super::{Lookup, MAX_QUEUED, Source};
use crate::generate::Generator;
use crate::generate::store::SeqId;
use crate::generate::type_names::NameId;
use crate::sequence::{Observed, Statement};

/// The copies: for sets and for maps, the constructor operation and its parameter type,
/// and the type a value must have to be copied as a set.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::generate) struct SortedOps {
    set: Option<(usize, NameId)>,
    map: Option<(usize, NameId)>,
    set_type: Option<NameId>,
}

/// Runtime classes whose iteration order is defined (insertion, natural or enum order, or
/// at most one element): their text is stable as it is. (`Set.of(a, b)` is not: its two
/// elements come in an order drawn per JVM.)
const ORDERED: [&str; 7] = [
    "java.util.Tree",
    "java.util.Linked",
    "java.util.concurrent.ConcurrentSkipList",
    "java.util.RegularEnumSet",
    "java.util.JumboEnumSet",
    "java.util.EnumMap",
    "java.util.Collections$Singleton",
];

/// Whether a runtime class's order is defined, so that a sorted copy would add nothing.
fn ordered(class: &str) -> bool {
    ORDERED.iter().any(|p| class.starts_with(p)) || class.starts_with("java.util.Collections$Empty")
}

impl Generator<'_> {
    /// Finds the copy constructors once, when `java.util.TreeSet` and `TreeMap` are in
    /// scope.
    pub(in crate::generate) fn find_sorted_ops(&mut self) {
        let mut found = SortedOps::default();
        for op in 0..self.random_ops {
            let Statement::New { class, params, .. } =
                &self.store.templates.get(self.ops[op].tmpl).stmt
            else {
                continue;
            };
            let slot = match (&**class, params.as_slice()) {
                ("java.util.TreeSet", [p]) if &**p == "java.util.Collection" => &mut found.set,
                ("java.util.TreeMap", [p]) if &**p == "java.util.Map" => &mut found.map,
                _ => continue,
            };
            *slot = Some((op, self.ops[op].inputs[0]));
        }
        found.set_type = Some(self.names.intern("java.util.Set"));
        self.sweeps.sorted_ops = found;
    }

    /// After the value at statement `pos` of sequence `seq` joined the pool as a new value:
    /// when it is an unordered set or map, its sorted copy is queued.
    pub(in crate::generate) fn queue_sorted_copy(
        &mut self,
        seq: SeqId,
        pos: u32,
        declared: Option<NameId>,
        shown: &Observed,
    ) {
        let (Some(declared), Observed::Object { class }) = (declared, shown) else {
            return;
        };
        if ordered(class) || self.sweeps.sorted.len() >= MAX_QUEUED {
            return;
        }
        let ops = self.sweeps.sorted_ops;
        let fits =
            |param: Option<NameId>| param.is_some_and(|p| self.names.assignable(declared, p));
        // A map, or a set (a list or queue has an order of its own).
        let copy = if fits(ops.map.map(|m| m.1)) {
            ops.map
        } else if fits(ops.set_type) {
            ops.set
        } else {
            None
        };
        let Some((op, _)) = copy else {
            return;
        };
        // The value goes on as what it was declared: an installed provider copied as a
        // `Map` must not come back into the pool as a `Map` (see `Lookup::ty`).
        let value = Source::Object(seq, pos);
        self.sweeps.sorted.push_back(Lookup {
            op,
            value,
            ty: declared,
            pos: 0,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::ordered;
    use crate::generate::harvest::Then;
    use crate::generate::store::Builder;
    use crate::generate::{GenConfig, Generator, Role};
    use crate::model::{ApiClass, ApiModel, Callable};
    use crate::sequence::Observed;

    #[test]
    fn a_sorted_copy_passes_a_provider_on_as_a_provider_never_as_a_map() {
        // `t.Maps.installed()` stands for `Security.getProvider("SunJCE")`: a Map the whole
        // JVM shares. Copied into `new TreeMap(map)` as a `Map`, it came back into the pool
        // as one, and a later `Map.put` wrote to the JVM's provider.
        let (provider, map) = ("java.security.Provider", "java.util.Map");
        let class = |name: &str, supertypes: &[&str], methods| ApiClass {
            constructors: match name {
                "java.util.TreeMap" => vec![Callable::new("<init>", &[map], name, false)],
                _ => vec![],
            },
            ..ApiClass::with_methods(name, supertypes, methods)
        };
        let installed = Callable::new("installed", &[], provider, true);
        let model = ApiModel {
            classes: [
                class(provider, &[map, "java.lang.Object"], vec![]),
                class("java.util.TreeMap", &[map, "java.lang.Object"], vec![]),
                class("t.Maps", &[], vec![installed]),
            ]
            .into_iter()
            .map(|c| (c.name.clone(), c))
            .collect(),
        };
        let cfg = GenConfig {
            sorted_copies: true,
            ..GenConfig::default()
        };
        let mut g = Generator::new(&model, cfg).expect("scope");
        let op = (0..g.random_ops)
            .find(|&o| g.member_name(o) == "installed")
            .expect("op");
        let mut b = Builder::default();
        b.push_stmt(g.ops[op].tmpl, &[]);
        let seq = g.push_node(b, Role::Component);
        let declared = g.names.intern(provider);
        let shown = Observed::Object {
            class: provider.into(),
        };
        g.queue_sorted_copy(seq, 0, Some(declared), &shown);
        let lookup = g.sweeps.sorted.pop_front().expect("a sorted copy queued");
        let copy = g
            .lookup_candidate(lookup, Then::NOTHING)
            .expect("a candidate");
        let passed = copy
            .inputs
            .iter()
            .map(|i| g.names.name(i.1))
            .collect::<Vec<_>>();
        assert_eq!(
            passed,
            [provider],
            "the provider as it joins the pool again"
        );
    }

    #[test]
    fn only_classes_without_a_defined_order_are_copied() {
        for class in [
            "java.util.HashSet",
            "java.util.HashMap",
            "java.util.ImmutableCollections$SetN",
            "java.util.ImmutableCollections$MapN",
            "java.util.Collections$UnmodifiableSet",
            "java.util.ImmutableCollections$Set12",
        ] {
            assert!(!ordered(class), "{class}");
        }
        for class in [
            "java.util.TreeSet",
            "java.util.LinkedHashMap",
            "java.util.RegularEnumSet",
            "java.util.Collections$EmptySet",
            "java.util.Collections$SingletonMap",
        ] {
            assert!(ordered(class), "{class}");
        }
    }
}
