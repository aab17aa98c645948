//! Products of looked-up objects. A registry's lookup returns an object that makes things
//! (`KeyGenerator.getInstance("AES")`, `KeyPairGenerator.getInstance("EC")`, `ZoneId.of(…)`);
//! what it makes is where the registry's entries differ (a key's size, a zone's rules), and
//! random calls reach it only when they happen to pick that one object among thousands. So
//! each new object a lookup of a catalogue value returns has its products called once —
//! what a nullary method of its class returns that is neither a primitive nor a String
//! (those are observed anyway) — and a new object among those its own products too:
//! `generateKey()`, then the key's `getEncoded()`, whose length harvesting reads. What
//! products make is often random (keys, salts, IVs); flake removal learns that from the
//! reruns (a changed observation, `toString` or array digest) and leaves unchecked what
//! reads it, a random array's length aside. `--no-products` turns them off.

use super::{Lookup, Source, Then};
use crate::generate::store::SeqId;
use crate::generate::type_names::NameId;
use crate::generate::{Candidate, Generator};

/// Share of a round's candidates that may be products, taken from random generation rather
/// than from the other lookups (with a third of the lookups' share, they delayed the lookups
/// that find most: `Currency.getInstance(new Locale("", "ZW"))` was not reached in time).
const PRODUCT_SHARE: usize = 16;
/// Most products of one method waiting: the flood of one class's (a product of each of
/// hundreds of locales) must not crowd out another's (a key's `getEncoded()`).
const MAX_QUEUED_PER_PRODUCT: usize = 1000;
/// Levels of products: what a looked-up object's nullary methods return, and what theirs
/// return (`KeyGenerator.getInstance("AES").generateKey().getEncoded()`).
const PRODUCT_DEPTH: u8 = 2;

impl Then {
    /// What a lookup of a catalogue's value returns: it names what the catalogue named.
    pub(super) const NAMED: Then = Then {
        consumers: true,
        products: PRODUCT_DEPTH,
    };
}

impl Generator<'_> {
    /// Product candidates for the start of a round: at most one in [`PRODUCT_SHARE`], one
    /// queue per method taken in turn.
    pub(super) fn product_round(&mut self, want: usize, cands: &mut Vec<Candidate>) {
        let quota = cands.len() + want / PRODUCT_SHARE;
        while cands.len() < quota
            && let Some((l, then)) = self.sweeps.products.pop()
        {
            cands.extend(self.lookup_candidate(l, then));
        }
    }

    /// Each product of the object — what a nullary method of its class returns that is
    /// neither a primitive nor a String (those are observed) — is called once: a registry's
    /// object so shows what it makes (`KeyGenerator.getInstance("AES").generateKey()`,
    /// `KeyPairGenerator.getInstance("EC").generateKeyPair()`, `ZoneId.of(…).getRules()`).
    /// What a product returns is observed, an array's length is read, and a new object's
    /// own products are called `left` levels more.
    pub(super) fn queue_products(&mut self, seq: SeqId, pos: u32, ty: NameId, left: u8) {
        if !self.sweeps.products_of.contains_key(&ty) {
            let ops = self.product_methods(self.names.name(ty));
            self.sweeps.products_of.insert(ty, ops);
        }
        let value = Source::Object(seq, pos);
        let then = Then {
            consumers: false,
            products: left,
        };
        for &op in &self.sweeps.products_of[&ty] {
            if self.sweeps.products.waiting(op) < MAX_QUEUED_PER_PRODUCT {
                let l = Lookup {
                    op,
                    value,
                    ty,
                    pos: 0,
                };
                self.sweeps.products.push(l, then);
            }
        }
    }

    /// The nullary instance methods of `class` whose result is an object or an array.
    fn product_methods(&self, class: &str) -> Vec<usize> {
        let object = |r: NameId| {
            let r = self.names.name(r);
            !crate::model::is_primitive(r) && r != "java.lang.String"
        };
        (0..self.random_ops)
            .filter(|&op| {
                let o = &self.ops[op];
                o.receiver && o.inputs.len() == 1 && self.op_class[op] == class
            })
            .filter(|&op| self.ops[op].result.is_some_and(object))
            .collect()
    }
}

#[cfg(test)]
mod product_tests {
    use super::{PRODUCT_DEPTH, Then};
    use crate::generate::store::Builder;
    use crate::generate::{GenConfig, Generator, Role};
    use crate::model::{ApiClass, ApiModel, Callable};
    use crate::sequence::Observed;

    #[test]
    fn a_looked_up_object_has_its_products_called_two_levels_deep() {
        // `t.Maker.of(name)` is a registry's lookup, as `KeyGenerator.getInstance("AES")` is;
        // `make()` its product (`generateKey()`), `bytes()` the product's (`getEncoded()`).
        let methods = |class: &str, list: Vec<Callable>| ApiClass::with_methods(class, &[], list);
        let maker = methods(
            "t.Maker",
            vec![
                Callable::new("of", &["java.lang.String"], "t.Maker", true),
                Callable::new("make", &[], "t.Part", false),
                Callable::new("name", &[], "java.lang.String", false),
                Callable::new("size", &[], "int", false),
                Callable::new("with", &["int"], "t.Part", false),
            ],
        );
        let part = methods("t.Part", vec![Callable::new("bytes", &[], "byte[]", false)]);
        let model = ApiModel {
            classes: [maker, part]
                .into_iter()
                .map(|c| (c.name.clone(), c))
                .collect(),
        };
        let cfg = GenConfig {
            harvest: true,
            products: true,
            ..GenConfig::default()
        };
        let mut g = Generator::new(&model, cfg).expect("scope");
        let op = |g: &Generator, name: &str| (0..g.random_ops).find(|&o| g.member_name(o) == name);
        let of = op(&g, "of").expect("of");
        let string = g.names.intern("java.lang.String");
        let lit = g.literal_template(string, "x");
        let mut b = Builder::default();
        let at = b.push_stmt(lit, &[]);
        b.push_stmt(g.ops[of].tmpl, &[at]);
        let seq = g.push_node(b, Role::Component);
        let object = |class: &str| Observed::Object {
            class: class.into(),
        };

        g.pass_on(seq, 1, &object("t.Maker"), None, Then::NAMED);
        let (l, then) = g.sweeps.products.pop().expect("a product");
        assert_eq!(
            g.member_name(l.op),
            "make",
            "only nullary methods returning objects"
        );
        assert_eq!((then.consumers, then.products), (false, PRODUCT_DEPTH - 1));
        assert!(g.sweeps.products.pop().is_none());

        // The product's own products, one level less; then none.
        g.pass_on(seq, 1, &object("t.Part"), None, then);
        let (l, then) = g.sweeps.products.pop().expect("the product's product");
        assert_eq!(g.member_name(l.op), "bytes");
        assert!(!then.anything());

        g.cfg.products = false;
        g.pass_on(seq, 1, &object("t.Maker"), None, Then::NAMED);
        assert!(g.sweeps.products.pop().is_none(), "products off");
        g.cfg.products = true;

        // A class the scope does not describe (a registry's private implementation) goes
        // on as the type its call declared; with neither described, nothing is queued.
        let maker = g.names.intern("t.Maker");
        g.pass_on(seq, 1, &object("t.Maker$Impl"), Some(maker), Then::NAMED);
        let (l, _) = g
            .sweeps
            .products
            .pop()
            .expect("a product through the declared type");
        assert_eq!(g.member_name(l.op), "make");
        assert_eq!(g.names.name(l.ty), "t.Maker");
        let hidden = g.names.intern("t.Hidden");
        g.pass_on(seq, 1, &object("t.Maker$Impl"), Some(hidden), Then::NAMED);
        g.pass_on(seq, 1, &object("t.Maker$Impl"), None, Then::NAMED);
        assert!(
            g.sweeps.products.pop().is_none(),
            "no described type, no products"
        );
    }
}
