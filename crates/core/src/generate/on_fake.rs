//! Test scaffolding: a recording generated on the pool's fake world (`pool::fake`), which the
//! unit tests of reduction and flake removal start from. Compiled for unit tests only.

use super::{GenConfig, Generator, Recorded};
use crate::pool::fake::{self, Fake};
use std::sync::atomic::AtomicBool;

/// What generation on [`fake::model`] with the reference keeps with this seed, stopping at
/// `limit` tests, rounds of 50.
pub(crate) fn recorded(seed: u64, limit: usize) -> Recorded {
    let model = fake::model();
    let cfg = GenConfig {
        seed,
        output_limit: Some(limit),
        round_size: 50,
        ..GenConfig::default()
    };
    let mut g = Generator::new(&model, cfg).expect("the fake model has a scope");
    let stop = AtomicBool::new(false);
    g.run(&Fake::reference(), &stop, |_| {})
        .expect("the fake runs");
    g.finish()
}
