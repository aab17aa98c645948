//! Where generated sequences live. A sequence is stored as its parts: earlier sequences it
//! concatenates (by id, shared, never copied) and the statements it adds, each a statement
//! template plus input positions. So a pool of hundreds of thousands of sequences, each
//! holding dozens of statements, costs a few words per sequence.
//!
//! Every sequence carries a hash of its code modulo variable names, built so that the hash
//! of a concatenation follows from the hashes of its parts: inputs are hashed as distances
//! back from the statement that reads them (which do not change when a sequence is shifted),
//! and the hash is a polynomial modulo the Mersenne prime 2^61-1 in two independent bases.

use super::type_names::NameId;
use crate::sequence::Statement;
use std::collections::HashMap;

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
pub struct Hash {
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

    /// The 122-bit key used to recognise equal sequences.
    pub fn key(&self) -> u128 {
        ((self.h[0] as u128) << 64) | self.h[1] as u128
    }
}

/// A statement shape: the statement with its inputs left out, and its declared type.
pub struct Template {
    pub stmt: Statement,
    /// The declared type of its value; `None` for `void`.
    pub result: Option<NameId>,
}

/// The statement shapes in use, each once.
#[derive(Default)]
pub struct Templates {
    list: Vec<Template>,
    index: HashMap<Statement, u32>,
}

impl Templates {
    /// The id of `stmt` (inputs ignored), adding it if new.
    pub fn intern(&mut self, stmt: Statement, result: Option<NameId>) -> u32 {
        let stmt = shape(stmt);
        if let Some(&id) = self.index.get(&stmt) {
            return id;
        }
        let id = self.list.len() as u32;
        self.index.insert(stmt.clone(), id);
        self.list.push(Template { stmt, result });
        id
    }

    pub fn get(&self, id: u32) -> &Template {
        &self.list[id as usize]
    }
}

/// One part of a sequence.
#[derive(Clone, Debug)]
pub enum Part {
    /// All statements of an earlier sequence.
    Seq(SeqId),
    /// A statement; `inputs` are positions in the sequence being built, receiver first.
    Stmt { tmpl: u32, inputs: Box<[u32]> },
}

/// A stored sequence.
pub struct Node {
    pub parts: Box<[Part]>,
    pub len: u32,
    pub hash: Hash,
}

/// A sequence being put together.
#[derive(Default, Clone)]
pub(crate) struct Builder {
    pub parts: Vec<Part>,
    pub len: u32,
    pub hash: Hash,
}

impl Builder {
    /// Appends a stored sequence; returns the position of its first statement.
    pub(crate) fn push_seq(&mut self, store: &Store, id: SeqId) -> u32 {
        let node = store.node(id);
        let at = self.len;
        self.parts.push(Part::Seq(id));
        self.len += node.len;
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
        self.parts.push(Part::Stmt {
            tmpl,
            inputs: inputs.into(),
        });
        self.len += 1;
        at
    }

    pub(crate) fn finish(self) -> Node {
        Node {
            parts: self.parts.into_boxed_slice(),
            len: self.len,
            hash: self.hash,
        }
    }
}

/// All stored sequences and the templates they use.
#[derive(Default)]
pub struct Store {
    pub templates: Templates,
    nodes: Vec<Node>,
}

impl Store {
    pub fn node(&self, id: SeqId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn push(&mut self, node: Node) -> SeqId {
        self.nodes.push(node);
        (self.nodes.len() - 1) as SeqId
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Estimated bytes of the stored sequences: nodes, their parts and the parts' inputs
    /// (`footprint`; the templates, few and fixed early, are left out).
    pub(crate) fn heap_bytes(&self) -> u64 {
        let parts: usize = self
            .nodes
            .iter()
            .map(|n| {
                let inputs: usize = n
                    .parts
                    .iter()
                    .map(|p| match p {
                        Part::Stmt { inputs, .. } => inputs.len() * 4,
                        Part::Seq(_) => 0,
                    })
                    .sum();
                n.parts.len() * std::mem::size_of::<Part>() + inputs
            })
            .sum();
        (self.nodes.capacity() * std::mem::size_of::<Node>() + parts) as u64
    }

    /// The flat statements of `parts`: `(template, absolute inputs)`.
    pub fn flatten(&self, parts: &[Part]) -> Vec<(u32, Vec<u32>)> {
        let mut out = Vec::new();
        self.flatten_into(parts, &mut out);
        out
    }

    fn flatten_into(&self, parts: &[Part], out: &mut Vec<(u32, Vec<u32>)>) {
        let base = out.len() as u32;
        for part in parts {
            match part {
                Part::Seq(id) => self.flatten_into(&self.node(*id).parts, out),
                Part::Stmt { tmpl, inputs } => {
                    out.push((*tmpl, inputs.iter().map(|i| i + base).collect()));
                }
            }
        }
    }

    /// The statements of `parts`, ready to run.
    pub fn statements(&self, parts: &[Part]) -> Vec<Statement> {
        let mut out = Vec::new();
        self.emit(parts, &mut out);
        out
    }

    fn emit(&self, parts: &[Part], out: &mut Vec<Statement>) {
        let base = out.len() as u32;
        for part in parts {
            match part {
                Part::Seq(id) => self.emit(&self.node(*id).parts, out),
                Part::Stmt { tmpl, inputs } => {
                    let stmt = &self.templates.get(*tmpl).stmt;
                    out.push(instantiate_at(stmt, inputs, base));
                }
            }
        }
    }

    /// The template of statement `pos` of `parts`.
    pub fn template_at(&self, parts: &[Part], mut pos: u32) -> Option<u32> {
        for part in parts {
            match part {
                Part::Seq(id) => {
                    let node = self.node(*id);
                    if pos < node.len {
                        return self.template_at(&node.parts, pos);
                    }
                    pos -= node.len;
                }
                Part::Stmt { tmpl, .. } if pos == 0 => return Some(*tmpl),
                Part::Stmt { .. } => pos -= 1,
            }
        }
        None
    }
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

    fn lit(t: &mut Templates, v: &str) -> u32 {
        let stmt = Statement::Literal {
            ty: "int".into(),
            value: v.into(),
        };
        t.intern(stmt, None)
    }

    #[test]
    fn concatenation_hash_matches_flat_hash_and_statements_shift() {
        let mut store = Store::default();
        let one = lit(&mut store.templates, "1");
        let arr = store.templates.intern(
            Statement::Array {
                elem: "int".into(),
                elems: vec![],
            },
            None,
        );
        let mut a = Builder::default();
        let x = a.push_stmt(one, &[]);
        a.push_stmt(arr, &[x]);
        let a = store.push(a.finish());
        let mut b = Builder::default();
        let at = b.push_seq(&store, a);
        let y = b.push_stmt(one, &[]);
        b.push_stmt(arr, &[at, y]);
        let composed = b.hash;
        let mut flat = Builder::default();
        for (t, inputs) in store.flatten(&b.parts) {
            flat.push_stmt(t, &inputs);
        }
        assert_eq!(flat.hash.key(), composed.key());
        let stmts = store.statements(&b.parts);
        assert_eq!(stmts.len(), 4);
        assert_eq!(stmts[3].inputs(), vec![0, 2]);
        assert_eq!(store.template_at(&b.parts, 1), Some(arr));
        let mut other = Builder::default();
        other.push_stmt(one, &[]);
        other.push_stmt(one, &[]);
        assert_ne!(other.hash.key(), flat.hash.key());
    }
}
