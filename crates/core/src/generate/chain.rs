//! Builder-chain inputs: an object the library made, configured by one of its own calls
//! before it is used. A value picked from the pool for a parameter (the receiver too) is,
//! with probability `chain_ratio`, first passed to a *configuring* call of its class — an
//! instance method of the class that returns the class itself (a fluent `withX(..)`,
//! `setX(..)`, `addOption(..)`) or nothing (a setter, `close()`) — and the call's value (or
//! the object itself, for a void call) is what the drafted call gets. Reaching
//! `Base32.builder().setHexDecodeTable(true).get()` took three random draws of the right
//! method in a row; with a chain, each draw of a call that takes the object configures it
//! on the way. Inputs of the configuring call may be configured in turn, up to
//! [`MAX_DEPTH`] calls deep. Off (0) unless the record is of a library's own classes, so a
//! JDK suite is drawn as before.

use super::Generator;
use super::store::Builder;
use super::type_names::{NameId, is_value_type};
use rand::Rng;

/// The default `chain_ratio` for a library target.
pub const DEFAULT_LIBRARY_CHAIN_RATIO: f64 = 0.2;

/// How many configuring calls one input may go through (its inputs' included).
const MAX_DEPTH: u32 = 2;

/// A chosen input: position, declared type, whether it is a `null` literal.
type Input = (u32, NameId, bool);

impl Generator<'_> {
    /// `value`, or with probability `chain_ratio` a configuring call's result on it (see the
    /// module); `None` when an input of that call could not be drawn.
    pub(super) fn configured(&mut self, b: &mut Builder, value: Input) -> Option<Input> {
        let ratio = self.cfg.chain_ratio.unwrap_or(0.0);
        if ratio <= 0.0 || value.2 || self.chain_depth >= MAX_DEPTH {
            return Some(value);
        }
        if is_value_type(self.names.name(value.1)) || !self.rng.random_bool(ratio) {
            return Some(value);
        }
        let configurers = self.configurers(value.1);
        if configurers.is_empty() {
            return Some(value);
        }
        let op_index = configurers[self.rng.random_range(0..configurers.len())];
        if self.banned.contains(&self.ops[op_index].family) || self.left_out_ops.contains(&op_index)
        {
            return Some(value);
        }
        self.chain_depth += 1;
        let chained = self.configuring_call(b, op_index, value);
        self.chain_depth -= 1;
        chained
    }

    /// The call `op_index` on `value` with inputs drawn as for any call.
    fn configuring_call(
        &mut self,
        b: &mut Builder,
        op_index: usize,
        value: Input,
    ) -> Option<Input> {
        let op = self.ops[op_index].clone();
        let mut chosen = vec![value];
        for k in 1..op.inputs.len() {
            let input = self.input(b, op.inputs[k], op.slots[k], false, true, &chosen)?;
            chosen.push(input);
        }
        let positions: Vec<u32> = chosen.iter().map(|c| c.0).collect();
        let at = b.push_stmt(op.tmpl, &positions);
        self.stats.chained += 1;
        Some(match op.result {
            Some(_) => (at, value.1, false),
            None => value,
        })
    }

    /// The configuring calls of `class`: its operations that take it as receiver and return
    /// it or nothing (found once per class).
    fn configurers(&mut self, class: NameId) -> Vec<usize> {
        if let Some(found) = self.configurers.get(&class) {
            return found.clone();
        }
        let found: Vec<usize> = (0..self.random_ops)
            .filter(|&i| {
                let op = &self.ops[i];
                op.receiver
                    && op.inputs.first() == Some(&class)
                    && op.result.is_none_or(|r| r == class)
                    && matches!(
                        self.store.templates.get(op.tmpl).stmt,
                        crate::sequence::Statement::Call { .. }
                    )
            })
            .collect();
        self.configurers.insert(class, found.clone());
        found
    }
}
