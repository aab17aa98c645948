//! Where generated sequences live. A sequence is stored as its parts: earlier sequences it
//! concatenates (by id, shared, never copied) and the statements it adds, each a statement
//! template plus input positions. So a pool of hundreds of thousands of sequences, each
//! holding dozens of statements, costs a few words per sequence.
//!
//! Every sequence carries a hash of its code modulo variable names, built so that the hash
//! of a concatenation follows from the hashes of its parts: inputs are hashed as distances
//! back from the statement that reads them (which do not change when a sequence is shifted),
//! and the hash is a polynomial modulo the Mersenne prime 2^61-1 in two independent bases.

use super::chunked::Chunked;
use crate::sequence::{Name, Statement};
use std::collections::HashMap;
use std::mem::size_of;

/// A sequence's id in the store.
pub(crate) type SeqId = u32;

const P: u64 = (1 << 61) - 1;
const BASES: [u64; 2] = [0x1F3D_5B79_A3C1_E5D7 % P, 0x0C2B_7F4D_9E8A_1635 % P];

fn mul(a: u64, b: u64) -> u64 {
    let x = (a as u128) * (b as u128);
    let r = ((x & P as u128) + (x >> 61)) as u64;
    if r >= P { r - P } else { r }
}

fn add(a: u64, b: u64) -> u64 {
    let r = a + b;
    if r >= P { r - P } else { r }
}

/// A polynomial hash of a token string, with `pow` = base^length (for concatenation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Hash {
    h: [u64; 2],
    pow: [u64; 2],
}

impl Default for Hash {
    fn default() -> Self {
        Hash {
            h: [0, 0],
            pow: [1, 1],
        }
    }
}

impl Hash {
    fn token(&mut self, t: u64) {
        for ((h, pow), base) in self.h.iter_mut().zip(&mut self.pow).zip(BASES) {
            *h = add(mul(*h, base), t % P);
            *pow = mul(*pow, base);
        }
    }

    fn append(&mut self, other: &Hash) {
        for k in 0..2 {
            self.h[k] = add(mul(self.h[k], other.pow[k]), other.h[k]);
            self.pow[k] = mul(self.pow[k], other.pow[k]);
        }
    }

    /// The key used to recognise equal sequences: the two 61-bit hashes folded into 64
    /// bits, so the set of sequences seen holds 8 bytes a sequence. Two different sequences
    /// share a key (and the later one is dropped as seen) about once in three million
    /// records of ten million sequences each.
    pub(crate) fn key(&self) -> u64 {
        (self.h[0] << 3) ^ self.h[1]
    }
}

/// A statement shape: the statement with its inputs left out.
pub(crate) struct Template {
    pub(crate) stmt: Statement,
}

/// The statement shapes in use, each once.
#[derive(Default)]
pub(crate) struct Templates {
    list: Vec<Template>,
    index: HashMap<Statement, u32>,
}

impl Templates {
    /// The id of `stmt` (inputs ignored), adding it if new.
    pub(crate) fn intern(&mut self, stmt: Statement) -> u32 {
        let stmt = shape(stmt);
        if let Some(&id) = self.index.get(&stmt) {
            return id;
        }
        let id = self.list.len() as u32;
        self.index.insert(stmt.clone(), id);
        self.list.push(Template { stmt });
        id
    }

    pub(crate) fn get(&self, id: u32) -> &Template {
        &self.list[id as usize]
    }

    /// Estimated bytes: the list, the index (a second copy of each shape, its names shared)
    /// and what each shape owns (its parameter types' pointers, a literal's text).
    pub(crate) fn heap_bytes(&self) -> u64 {
        let owned: usize = (self.list.iter())
            .map(|t| match &t.stmt {
                Statement::New { params, .. } | Statement::Call { params, .. } => {
                    2 * params.len() * size_of::<Name>()
                }
                Statement::Literal { value, .. } => value.len() + 16,
                _ => 0,
            })
            .sum();
        let list = self.list.capacity() * size_of::<Template>();
        let index = self.index.capacity() * (size_of::<(Statement, u32)>() + 1);
        (list + index + owned) as u64
    }

    /// The statements of flat parts ([`Parts::flat`]), ready to run.
    pub(crate) fn statements(&self, flat: Parts) -> Vec<Statement> {
        let stmts = flat.flat();
        stmts
            .map(|(tmpl, inputs)| instantiate_at(&self.get(tmpl).stmt, inputs, 0))
            .collect()
    }
}

/// One part of a sequence, as read from its words (see [`Parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part<'a> {
    /// All statements of an earlier sequence.
    Seq(SeqId),
    /// A statement; `inputs` are positions in the sequence being built, receiver first.
    Stmt { tmpl: u32, inputs: &'a [u32] },
}

/// Marks a word that opens a statement; without it a word is a stored sequence's id.
const STMT: u32 = 1 << 31;

/// A sequence's parts, flat in words: a stored sequence is its id; a statement is its
/// template with [`STMT`] set, the number of its inputs, then the inputs. A store of
/// hundreds of thousands of sequences is then one block of words, not a few small blocks
/// (and their allocator overhead) per sequence.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Parts<'a>(&'a [u32]);

impl<'a> Parts<'a> {
    /// Parts written as `words` (by a [`Builder`] or [`Store::flat_words`]).
    pub(crate) fn of(words: &'a [u32]) -> Parts<'a> {
        Parts(words)
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = Part<'a>> {
        let mut words = self.0;
        std::iter::from_fn(move || {
            let (&first, rest) = words.split_first()?;
            if first & STMT == 0 {
                words = rest;
                return Some(Part::Seq(first));
            }
            let (&n, rest) = rest.split_first()?;
            let (inputs, rest) = rest.split_at(n as usize);
            words = rest;
            Some(Part::Stmt {
                tmpl: first & !STMT,
                inputs,
            })
        })
    }

    /// The statements of parts that hold no stored sequence (a kept test's, written by
    /// [`Store::flat_words`]), each with its inputs.
    pub(crate) fn flat(self) -> impl Iterator<Item = (u32, &'a [u32])> {
        self.iter().filter_map(|p| match p {
            Part::Stmt { tmpl, inputs } => Some((tmpl, inputs)),
            Part::Seq(_) => None,
        })
    }

    /// The stored sequences it concatenates, in order.
    pub(crate) fn seqs(self) -> impl Iterator<Item = SeqId> + 'a {
        self.iter().filter_map(|p| match p {
            Part::Seq(id) => Some(id),
            Part::Stmt { .. } => None,
        })
    }
}

/// A stored sequence, as [`Store::node`] reads it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'a> {
    pub(crate) parts: Parts<'a>,
    /// Statements.
    pub(crate) len: u32,
    pub(crate) hash: Hash,
}

/// Where a stored sequence's words are, and what [`Node`] gives besides.
#[derive(Clone, Copy)]
struct Entry {
    h: [u64; 2],
    /// Its block and first word there; it ends where the next sequence in that block starts.
    block: u32,
    start: u32,
    len: u32,
    /// Tokens hashed: the hash's `pow` is each base to this power.
    tokens: u32,
}

/// Words a block of the store holds; a sequence with more gets a block of its own.
const BLOCK_WORDS: usize = 1 << 16;

/// A sequence being put together.
#[derive(Default, Clone)]
pub(crate) struct Builder {
    words: Vec<u32>,
    pub(crate) len: u32,
    pub(crate) hash: Hash,
    tokens: u32,
}

impl Builder {
    /// Its parts so far.
    pub(crate) fn parts(&self) -> Parts<'_> {
        Parts(&self.words)
    }

    /// Appends a stored sequence; returns the position of its first statement.
    pub(crate) fn push_seq(&mut self, store: &Store, id: SeqId) -> u32 {
        let node = store.node(id);
        let at = self.len;
        self.words.push(id);
        self.len += node.len;
        self.tokens += store.entries[id as usize].tokens;
        self.hash.append(&node.hash);
        at
    }

    /// Appends a statement; returns its position.
    pub(crate) fn push_stmt(&mut self, tmpl: u32, inputs: &[u32]) -> u32 {
        let at = self.len;
        self.hash.token(u64::from(tmpl) + 1);
        self.hash.token(inputs.len() as u64 + 1);
        for &i in inputs {
            self.hash.token(u64::from(at - i));
        }
        self.tokens += 2 + inputs.len() as u32;
        self.words.push(tmpl | STMT);
        self.words.push(inputs.len() as u32);
        self.words.extend_from_slice(inputs);
        self.len += 1;
        at
    }
}

/// All stored sequences and the templates they use. Their words are kept in blocks of a
/// fixed size, never moved once written (like [`Chunked`] for the entries).
#[derive(Default)]
pub(crate) struct Store {
    pub(crate) templates: Templates,
    entries: Chunked<Entry>,
    blocks: Vec<Vec<u32>>,
}

impl Store {
    pub(crate) fn node(&self, id: SeqId) -> Node<'_> {
        let e = &self.entries[id as usize];
        let block = &self.blocks[e.block as usize];
        let end = (self.entries.get(id as usize + 1))
            .filter(|next| next.block == e.block)
            .map_or(block.len(), |next| next.start as usize);
        Node {
            parts: Parts(&block[e.start as usize..end]),
            len: e.len,
            hash: Hash {
                h: e.h,
                pow: [pow(BASES[0], e.tokens), pow(BASES[1], e.tokens)],
            },
        }
    }

    pub(crate) fn push(&mut self, b: Builder) -> SeqId {
        self.push_words(&b)
    }

    fn push_words(&mut self, b: &Builder) -> SeqId {
        let n = b.words.len();
        let fits = (self.blocks.last()).is_some_and(|last| last.capacity() - last.len() >= n);
        if !fits {
            self.blocks.push(Vec::with_capacity(n.max(BLOCK_WORDS)));
        }
        let block = self.blocks.len() - 1;
        let words = &mut self.blocks[block];
        self.entries.push(Entry {
            h: b.hash.h,
            block: block as u32,
            start: words.len() as u32,
            len: b.len,
            tokens: b.tokens,
        });
        words.extend_from_slice(&b.words);
        (self.entries.len() - 1) as SeqId
    }

    /// Sequences stored.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Keeps only `roots` and the sequences they are made of, renumbered in their old
    /// order (so a sequence's parts still come before it), and forgets the rest. Returns
    /// each old id's new id, `None` for a sequence forgotten. Each old block of words is
    /// freed once the copy has passed it (sequences are stored in id order), so the old and
    /// the new store are never both whole in memory.
    pub(crate) fn keep_only(&mut self, roots: &[SeqId]) -> Vec<Option<SeqId>> {
        let mut live = vec![false; self.len()];
        for &r in roots {
            live[r as usize] = true;
        }
        for id in (0..self.len()).rev() {
            if live[id] {
                for s in self.node(id as SeqId).parts.seqs() {
                    live[s as usize] = true;
                }
            }
        }
        let templates = std::mem::take(&mut self.templates);
        let mut old = std::mem::replace(
            self,
            Store {
                templates,
                ..Store::default()
            },
        );
        let mut new_id = vec![None; old.len()];
        let mut b = Builder::default();
        let mut passed = 0;
        for (id, _) in live.iter().enumerate().filter(|(_, live)| **live) {
            let block = old.entries[id].block as usize;
            for words in &mut old.blocks[passed..block] {
                *words = Vec::new();
            }
            passed = passed.max(block);
            let node = old.node(id as SeqId);
            b.words.clear();
            for part in node.parts.iter() {
                match part {
                    Part::Seq(s) => b.words.push(new_id[s as usize].expect("parts are live")),
                    Part::Stmt { tmpl, inputs } => {
                        b.words.extend([tmpl | STMT, inputs.len() as u32]);
                        b.words.extend_from_slice(inputs);
                    }
                }
            }
            let e = &old.entries[id];
            (b.hash.h, b.len, b.tokens) = (e.h, e.len, e.tokens);
            new_id[id] = Some(self.push_words(&b));
        }
        new_id
    }

    /// Estimated bytes of the stored sequences: their entries and blocks of words
    /// (`footprint`; the templates, few and fixed early, are left out).
    pub(crate) fn heap_bytes(&self) -> u64 {
        let blocks: usize = self.blocks.iter().map(|b| b.capacity() * 4).sum();
        self.entries.heap_bytes() + blocks as u64
    }

    /// The flat statements of `parts`: `(template, absolute inputs)`.
    pub(crate) fn flatten(&self, parts: Parts) -> Vec<(u32, Vec<u32>)> {
        let mut out = Vec::new();
        self.flatten_into(parts, &mut out);
        out
    }

    fn flatten_into(&self, parts: Parts, out: &mut Vec<(u32, Vec<u32>)>) {
        let base = out.len() as u32;
        for part in parts.iter() {
            match part {
                Part::Seq(id) => self.flatten_into(self.node(id).parts, out),
                Part::Stmt { tmpl, inputs } => {
                    out.push((tmpl, inputs.iter().map(|i| i + base).collect()));
                }
            }
        }
    }

    /// The statements of `parts` as words with no stored sequence in them, every input
    /// counted from the first statement: a kept test's code, which needs no store to read.
    pub(crate) fn flat_words(&self, parts: Parts) -> Vec<u32> {
        let mut b = Builder::default();
        for (tmpl, inputs) in self.flatten(parts) {
            b.push_stmt(tmpl, &inputs);
        }
        b.words
    }

    /// The statements of `parts`, ready to run.
    pub(crate) fn statements(&self, parts: Parts) -> Vec<Statement> {
        let mut out = Vec::new();
        self.emit(parts, &mut out);
        out
    }

    fn emit(&self, parts: Parts, out: &mut Vec<Statement>) {
        let base = out.len() as u32;
        for part in parts.iter() {
            match part {
                Part::Seq(id) => self.emit(self.node(id).parts, out),
                Part::Stmt { tmpl, inputs } => {
                    let stmt = &self.templates.get(tmpl).stmt;
                    out.push(instantiate_at(stmt, inputs, base));
                }
            }
        }
    }

    /// The template of statement `pos` of `parts`.
    pub(crate) fn template_at(&self, parts: Parts, mut pos: u32) -> Option<u32> {
        for part in parts.iter() {
            match part {
                Part::Seq(id) => {
                    let node = self.node(id);
                    if pos < node.len {
                        return self.template_at(node.parts, pos);
                    }
                    pos -= node.len;
                }
                Part::Stmt { tmpl, .. } if pos == 0 => return Some(tmpl),
                Part::Stmt { .. } => pos -= 1,
            }
        }
        None
    }
}

/// `base` to the power `exp`, modulo `P`.
fn pow(mut base: u64, mut exp: u32) -> u64 {
    let mut out = 1;
    while exp > 0 {
        if exp & 1 == 1 {
            out = mul(out, base);
        }
        base = mul(base, base);
        exp >>= 1;
    }
    out
}

/// `stmt` without its inputs (a receiver becomes `Some(0)`).
fn shape(mut stmt: Statement) -> Statement {
    match &mut stmt {
        Statement::New { args, .. } => args.clear(),
        Statement::Array { elems, .. } => elems.clear(),
        Statement::Call { receiver, args, .. } => {
            *receiver = receiver.map(|_| 0);
            args.clear();
        }
        Statement::Field { receiver, .. } => *receiver = receiver.map(|_| 0),
        _ => {}
    }
    stmt
}

/// `stmt` with its inputs set to `inputs`, each shifted by `base`.
fn instantiate_at(stmt: &Statement, inputs: &[u32], base: u32) -> Statement {
    let at = |i: &u32| (i + base) as usize;
    let mut s = stmt.clone();
    match &mut s {
        Statement::New { args, .. } => *args = inputs.iter().map(at).collect(),
        Statement::Array { elems, .. } => *elems = inputs.iter().map(at).collect(),
        Statement::Call { receiver, args, .. } => match receiver {
            Some(r) => {
                *r = at(&inputs[0]);
                *args = inputs[1..].iter().map(at).collect();
            }
            None => *args = inputs.iter().map(at).collect(),
        },
        Statement::Field { receiver, .. } => *receiver = inputs.first().map(at),
        _ => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn lit(t: &mut Templates, v: &str) -> u32 {
        let stmt = Statement::Literal {
            ty: "int".into(),
            value: v.into(),
        };
        t.intern(stmt)
    }

    /// An empty store with two templates: the literal `1` and an `int` array.
    fn store_with_int_and_array() -> (Store, u32, u32) {
        let mut store = Store::default();
        let one = lit(&mut store.templates, "1");
        let arr = store.templates.intern(Statement::Array {
            elem: "int".into(),
            elems: vec![],
        });
        (store, one, arr)
    }

    #[test]
    fn concatenation_hash_matches_flat_hash_and_statements_shift() {
        let (mut store, one, arr) = store_with_int_and_array();
        let mut a = Builder::default();
        let x = a.push_stmt(one, &[]);
        a.push_stmt(arr, &[x]);
        let a = store.push(a);
        let mut b = Builder::default();
        let at = b.push_seq(&store, a);
        let y = b.push_stmt(one, &[]);
        b.push_stmt(arr, &[at, y]);
        let composed = b.hash;
        let mut flat = Builder::default();
        for (t, inputs) in store.flatten(b.parts()) {
            flat.push_stmt(t, &inputs);
        }
        assert_eq!(flat.hash.key(), composed.key());
        let stmts = store.statements(b.parts());
        assert_eq!(stmts.len(), 4);
        assert_eq!(stmts[3].inputs(), vec![0, 2]);
        assert_eq!(store.template_at(b.parts(), 1), Some(arr));
        let mut other = Builder::default();
        other.push_stmt(one, &[]);
        other.push_stmt(one, &[]);
        assert_ne!(other.hash.key(), flat.hash.key());
    }

    #[test]
    fn statements_share_their_templates_names() {
        let (mut store, one, arr) = store_with_int_and_array();
        let mut b = Builder::default();
        let x = b.push_stmt(one, &[]);
        b.push_stmt(arr, &[x, x]);
        b.push_stmt(one, &[]);
        let id = store.push(b);
        let stmts = store.statements(store.node(id).parts);
        let Statement::Literal { ty, value } = &store.templates.get(one).stmt else {
            panic!("a literal template");
        };
        for s in [&stmts[0], &stmts[2]] {
            let Statement::Literal { ty: t, value: v } = s else {
                panic!("a literal: {s:?}");
            };
            assert!(
                Arc::ptr_eq(t, ty) && Arc::ptr_eq(v, value),
                "a count, not a copy"
            );
        }
        assert!(matches!(&stmts[1], Statement::Array { elem, .. } if &**elem == "int"));
    }

    #[test]
    fn keeping_a_few_of_many_blocks_keeps_their_code_and_just_their_prefixes() {
        let (mut store, one, arr) = store_with_int_and_array();
        // Each sequence extends the one before by a wide array: about 300 words a sequence,
        // so a thousand of them fill several blocks.
        let mut ids = Vec::new();
        for i in 0..1000 {
            let mut b = Builder::default();
            if let Some(&prev) = ids.last().filter(|_| i % 10 != 0) {
                b.push_seq(&store, prev);
            }
            let x = b.push_stmt(one, &[]);
            b.push_stmt(arr, &vec![x; 290]);
            ids.push(store.push(b));
        }
        assert!(store.blocks.len() >= 4, "{} blocks", store.blocks.len());
        let roots = [ids[5], ids[503], ids[999]];
        let code: Vec<_> = roots
            .iter()
            .map(|&r| store.statements(store.node(r).parts))
            .collect();
        let new_id = store.keep_only(&roots);
        let kept: Vec<_> = roots.iter().map(|&r| new_id[r as usize].unwrap()).collect();
        let after: Vec<_> = kept
            .iter()
            .map(|&r| store.statements(store.node(r).parts))
            .collect();
        assert_eq!(after, code);
        assert_eq!(
            store.len(),
            6 + 4 + 10,
            "each root and the prefixes it extends"
        );
    }
}
