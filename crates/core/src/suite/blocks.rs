//! Shared blocks as read (format 4): the lines that define and name them, and the blocks a
//! reader holds until their last use. A block entry is
//!
//! ```yaml
//! - shared: 7  # used by 3
//!   code: |
//!     v0 = (int) 100
//!     v1 = new java.util.ArrayList((int) v0)
//!   sum: 0c5d…
//! ```
//!
//! and a test (or a later block) names it where its statements go, numbering on:
//! `v4..v5 = shared 7` stands for the block's `v0..v1` as `v4..v5`, expected values and all.
//! Blocks are numbered 1, 2, 3… in file order and always come before their first use; the
//! count says how many references follow, so a reader keeps a block exactly until the last
//! one. A block is held as the text of its own statements (parsed again at each use: parsed
//! statements take several times the room of their text, and a reader may hold every block
//! of a file whose tests repeat far apart) and the blocks it names (shared, never copied), so
//! what a reader holds is the size of the blocks' text, not of their expansion. Readers of
//! one file (the threads of a replay each read it) share the blocks they hold at the same
//! time through a [`BlockPool`].

use super::syntax::{VARIES, parse_observed, parse_statement, split_expected};
use crate::sequence::{Observed, Statement};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

/// The first words of a block entry.
pub(crate) const SHARED: &str = "- shared: ";

/// Between a block's number and its count of uses.
const USED_BY: &str = "  # used by ";

/// A block as held: its length and its pieces in order.
#[derive(Debug)]
pub struct Block {
    /// Statements the block holds.
    pub len: usize,
    /// Its lines, in order.
    pub pieces: Vec<Piece>,
}

/// A part of a block: the code lines of statements written out (the first numbered `first`
/// within the block), or another block.
#[derive(Debug)]
pub enum Piece {
    Own { first: usize, text: Box<str> },
    Shared(Arc<Block>),
}

impl Block {
    /// Appends the block's statements as statements `offset…` of a test. The lines were
    /// parsed when the block was read, so an error here is not expected.
    pub fn expand(
        &self,
        offset: usize,
        statements: &mut Vec<Statement>,
        expected: &mut Vec<Option<Observed>>,
        varies: &mut Vec<usize>,
    ) -> Result<(), String> {
        for piece in &self.pieces {
            match piece {
                Piece::Own { first, text } => {
                    for (k, line) in text.lines().enumerate() {
                        let (s, e, v) = step(line, first + k)?;
                        if v {
                            varies.push(statements.len());
                        }
                        statements.push(s.remap(|i| i + offset));
                        expected.push(e);
                    }
                }
                Piece::Shared(b) => b.expand(statements.len(), statements, expected, varies)?,
            }
        }
        Ok(())
    }
}

/// A code line (without its indent) of statement `index`: the statement, its check and
/// whether it varies.
fn step(line: &str, index: usize) -> Result<(Statement, Option<Observed>, bool), String> {
    let (code, expected) = split_expected(line);
    let varies = expected == Some(VARIES);
    let expected = match expected.filter(|_| !varies) {
        Some(text) => Some(parse_observed(text)?),
        None => None,
    };
    Ok((parse_statement(code, index)?, expected, varies))
}

/// The blocks that the readers of one file hold, by number and sum: a reader that reaches a
/// block another reader still holds takes that one rather than a copy of its own, so two
/// threads reading near each other hold each block once. A block is freed when the last
/// reader drops it; the pool keeps only a weak reference, pruned of dead ones as it grows.
#[derive(Default)]
pub struct BlockPool {
    blocks: Mutex<PoolMap>,
}

#[derive(Default)]
struct PoolMap {
    by_number: HashMap<u64, (u64, Weak<Block>)>,
    /// Entries at the last pruning.
    pruned_at: usize,
}

impl BlockPool {
    /// Block `number` with sum `sum`: the one another reader holds, else `make()`'s, which the
    /// others may then take.
    pub fn share(&self, number: u64, sum: u64, make: impl FnOnce() -> Block) -> Arc<Block> {
        let Ok(mut map) = self.blocks.lock() else {
            return Arc::new(make());
        };
        if let Some((s, held)) = map.by_number.get(&number)
            && *s == sum
            && let Some(block) = held.upgrade()
        {
            return block;
        }
        let block = Arc::new(make());
        map.by_number.insert(number, (sum, Arc::downgrade(&block)));
        if map.by_number.len() > 2 * map.pruned_at.max(1024) {
            map.by_number.retain(|_, (_, b)| b.strong_count() > 0);
            map.pruned_at = map.by_number.len();
        }
        block
    }
}

/// A block read and checked, until its last use.
pub(crate) struct Held {
    pub block: Arc<Block>,
    pub sum: u64,
    /// Uses still to come.
    pub left: u32,
    /// The line it begins on.
    pub line: usize,
}

/// A block entry of `len` statements as held: its own code lines (`own`, one a line, in
/// order) between the blocks it names (`named`: each with the statement it starts at, in
/// order).
pub(crate) fn hold(own: &str, len: usize, named: Vec<(usize, Arc<Block>)>) -> Block {
    let mut lines = own.lines();
    let mut named = named.into_iter().peekable();
    let (mut pieces, mut i) = (Vec::new(), 0);
    while i < len {
        if let Some((_, b)) = named.next_if(|(at, _)| *at == i) {
            i += b.len.max(1);
            pieces.push(Piece::Shared(b));
            continue;
        }
        let end = named.peek().map_or(len, |(at, _)| *at).max(i + 1);
        let text: Vec<&str> = lines.by_ref().take(end - i).collect();
        pieces.push(Piece::Own {
            first: i,
            text: text.join("\n").into(),
        });
        i = end;
    }
    Block { len, pieces }
}

fn number<T: std::str::FromStr>(s: &str) -> Option<T> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| s.parse().ok()).flatten()
}

/// The line that begins block `n`, named `uses` times later.
pub(crate) fn shared_line(n: u64, uses: u32) -> String {
    format!("{SHARED}{n}{USED_BY}{uses}\n")
}

/// A block's number and uses, from the text after [`SHARED`].
pub(crate) fn parse_shared(rest: &str) -> Option<(u64, u32)> {
    let (n, uses) = rest.split_once(USED_BY)?;
    Some((number(n)?, number(uses)?))
}

/// Appends the code line that names block `n` as statements `first..first + len`.
pub(crate) fn ref_line(out: &mut String, first: usize, len: usize, n: u64) {
    let last = first + len - 1;
    out.push_str(&format!("    v{first}..v{last} = shared {n}\n"));
}

/// Whether a code line's content (after its indent) names a block: `vA..vB = …`.
pub(crate) fn is_ref(content: &[u8]) -> bool {
    let digits = content
        .get(1..)
        .map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
    content.first() == Some(&b'v') && digits > 0 && content[1 + digits..].starts_with(b"..")
}

/// A reference's first and last variable and the block it names, or why it is malformed.
pub(crate) fn parse_ref(content: &str) -> Result<(usize, usize, u64), String> {
    let bad = || format!("bad reference to a shared block: {content}");
    let (vars, n) = content.split_once(" = shared ").ok_or_else(bad)?;
    let (a, b) = vars.split_once("..").ok_or_else(bad)?;
    let var = |v: &str| v.strip_prefix('v').and_then(number::<usize>);
    match (var(a), var(b), number(n)) {
        (Some(a), Some(b), Some(n)) if a <= b => Ok((a, b, n)),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_near_misses_are_refused() {
        let mut line = String::new();
        ref_line(&mut line, 4, 3, 12);
        assert_eq!(line, "    v4..v6 = shared 12\n");
        let content = line.trim_start().trim_end();
        assert!(is_ref(content.as_bytes()));
        assert_eq!(parse_ref(content), Ok((4, 6, 12)));
        assert!(!is_ref(b"v4 = (int) 3"));
        assert!(!is_ref(b"v..v2 = shared 1"));
        for bad in ["v6..v4 = shared 1", "v1..v2 = shared -1", "v1..v2 = test 3"] {
            assert!(parse_ref(bad).is_err(), "{bad}");
        }
        let shared = shared_line(3, 2);
        assert_eq!(shared, "- shared: 3  # used by 2\n");
        let rest = shared.trim_end().strip_prefix(SHARED).unwrap();
        assert_eq!(parse_shared(rest), Some((3, 2)));
        assert_eq!(parse_shared("3  # used by +2"), None);
    }
}

#[cfg(test)]
mod held {
    use super::*;

    #[test]
    fn a_block_is_held_as_text_and_expands_to_its_statements_renumbered() {
        let block = hold(
            "v0 = (int) 100  // 100\nv1 = (int) 7  // varies\n",
            2,
            vec![],
        );
        assert!(matches!(&block.pieces[..], [Piece::Own { first: 0, .. }]));
        let (mut statements, mut expected, mut varies) = (vec![], vec![], vec![]);
        block
            .expand(3, &mut statements, &mut expected, &mut varies)
            .unwrap();
        let first = parse_statement("v0 = (int) 100", 0).unwrap();
        assert_eq!(statements[0], first.remap(|i| i + 3));
        assert_eq!(statements.len(), 2);
        assert!(expected[0].is_some() && expected[1].is_none());
        assert_eq!(varies, [1]);
    }
}

#[cfg(test)]
mod pool {
    use super::*;

    fn block(text: &str) -> Block {
        hold(text, 1, vec![])
    }

    #[test]
    fn readers_share_a_block_while_one_holds_it_and_only_with_the_same_sum() {
        let pool = BlockPool::default();
        let first = pool.share(1, 0xaa, || block("v0 = (int) 1  // 1\n"));
        let second = pool.share(1, 0xaa, || panic!("made again while held"));
        assert!(Arc::ptr_eq(&first, &second));
        // Another text under the same number (the file changed between two readers).
        let other = pool.share(1, 0xbb, || block("v0 = (int) 2  // 2\n"));
        assert!(!Arc::ptr_eq(&first, &other));
        drop((first, second, other));
        let again = pool.share(1, 0xbb, || block("v0 = (int) 3  // 3\n"));
        let (mut statements, mut expected) = (Vec::new(), Vec::new());
        again
            .expand(0, &mut statements, &mut expected, &mut Vec::new())
            .unwrap();
        let made_anew = expected[0].as_ref().map(Observed::render);
        assert_eq!(made_anew.as_deref(), Some("3"), "dropped by every reader");
    }

    #[test]
    fn dead_entries_are_pruned_as_the_pool_grows() {
        let pool = BlockPool::default();
        for n in 0..10_000 {
            drop(pool.share(n, n, || block("v0 = (int) 1  // 1\n")));
        }
        assert!(pool.blocks.lock().unwrap().by_number.len() <= 2048);
    }
}
