//! Catalogues swept in a stable order. A sweep reads a catalogue by index, and the element
//! at an index of a set whose iteration order is drawn per JVM (one of the JDK's immutable
//! sets, or a set the worker saw iterate in identity-hash order, as
//! `Currency.getAvailableCurrencies()` does: [`crate::generate::taint::unordered`]) is
//! another one in every run. Its values would so join the pool and queue their lookups in
//! another order each time, and one seed would draw another suite. They are held instead
//! until the catalogue's last chunk is folded, then taken in the order of their rendering:
//! the set of elements is the same in every run, so the order is too.

use crate::generate::Generator;
use crate::generate::store::SeqId;
use crate::generate::type_names::NameId;
use crate::sequence::Observed;

/// The swept values of one catalogue held back, and the class whose lookups they go to.
#[derive(Debug, Default)]
pub(in crate::generate) struct Held {
    owner: Option<NameId>,
    values: Vec<Observed>,
}

impl super::Sweeps {
    /// Whether the swept values of catalogue `key` are held.
    pub(in crate::generate) fn holds(&self, key: (SeqId, u32)) -> bool {
        self.held.contains_key(&key)
    }
}

impl Generator<'_> {
    /// When the catalogue at statement `key.1` of sequence `key.0`, swept for `owner`, is a
    /// set iterating in a per-JVM order (`shown`), its swept values are held from now on.
    pub(in crate::generate) fn hold_if_unordered(
        &mut self,
        key: (SeqId, u32),
        owner: Option<NameId>,
        shown: &Observed,
    ) {
        if crate::generate::taint::unordered(shown) {
            let held = Held {
                owner,
                values: Vec::new(),
            };
            self.sweeps.held.insert(key, held);
        }
    }

    /// A value swept from catalogue `key`: held while the catalogue is, otherwise taken at
    /// once (it joins the pool and its owner's lookups are queued).
    pub(in crate::generate) fn sweep_or_hold(
        &mut self,
        key: (SeqId, u32),
        owner: Option<NameId>,
        shown: &Observed,
    ) {
        match self.sweeps.held.get_mut(&key) {
            Some(held) => held.values.push(shown.clone()),
            None => {
                self.sweep_text(owner, shown);
            }
        }
    }

    /// The catalogue's last chunk was folded, or will not be drafted: its held values are
    /// taken in the order of their rendering, each once. Values of a chunk folded later
    /// (drafted before, still running) are taken as they come, after these.
    pub(in crate::generate) fn release_held(&mut self, key: (SeqId, u32)) {
        let Some(Held { owner, mut values }) = self.sweeps.held.remove(&key) else {
            return;
        };
        values.sort_by(|a, b| rendering(a).cmp(&rendering(b)));
        values.dedup();
        for shown in &values {
            self.sweep_text(owner, shown);
        }
    }
}

/// What orders held values: their class, then their text.
fn rendering(o: &Observed) -> (&str, &str) {
    match o {
        Observed::Value { class, text } => (class, text),
        _ => ("", ""),
    }
}

#[cfg(test)]
mod tests {
    use super::rendering;
    use crate::sequence::Observed;

    #[test]
    fn held_values_sort_by_class_then_text() {
        let value = |class: &str, text: &str| Observed::Value {
            class: class.into(),
            text: text.into(),
        };
        let mut values = [
            value("java.lang.String", "b"),
            value("java.lang.String", "a"),
            value("java.lang.Enum", "z"),
        ];
        values.sort_by(|a, b| rendering(a).cmp(&rendering(b)));
        let texts: Vec<&str> = values.iter().map(|v| rendering(v).1).collect();
        assert_eq!(texts, ["z", "a", "b"]);
    }
}
