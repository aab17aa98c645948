//! The regression suite: tests recorded on a reference implementation with their expected
//! outcomes (`oracles/NAME.yaml`), and the error-revealing tests that broke a contract.

use crate::sequence::{Observed, ObserverCall, Statement, Violation};
use crate::worker::protocol::SeqRequest;
use serde::{Deserialize, Serialize};

/// Version of the suite file format; a newer one is refused.
pub const FORMAT_VERSION: u32 = 1;

/// One regression test: a sequence, the observers called after it, and what the reference
/// gave. `expected_steps[i]` is `None` where step `i` is not checked (an object, or unstable).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Test {
    pub id: u64,
    pub statements: Vec<Statement>,
    pub observers: Vec<ObserverCall>,
    pub expected_steps: Vec<Option<Observed>>,
    pub expected_observations: Vec<Observed>,
}

impl Test {
    /// What a worker must run to replay this test.
    pub fn request(&self) -> SeqRequest {
        SeqRequest {
            statements: self.statements.clone(),
            observers: self.observers.clone(),
        }
    }
}

/// A sequence that broke a contract on the reference (never extended, never replayed as a
/// regression test).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ErrorTest {
    pub id: u64,
    pub statements: Vec<Statement>,
    pub violation: Violation,
}

/// What a suite file says about how it was made.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Header {
    /// [`FORMAT_VERSION`] of the writer.
    pub format: u32,
    /// `difftest X.Y.Z`.
    pub tool: String,
    /// The reference target's name and fingerprint.
    pub reference: String,
    pub fingerprint: crate::target::Fingerprint,
    pub seed: u64,
    /// Classes and packages in scope, as given.
    pub classes: Vec<String>,
    pub packages: Vec<String>,
    /// Record options as `name: value` text (time limit, reruns, probabilities …).
    pub options: std::collections::BTreeMap<String, String>,
    /// Counts: sequences executed, tests kept, observations dropped as unstable, …
    pub counts: std::collections::BTreeMap<String, u64>,
    /// True when the record was interrupted and the suite holds what was kept until then.
    #[serde(default)]
    pub partial: bool,
}

/// A whole suite file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Suite {
    pub header: Header,
    pub tests: Vec<Test>,
    pub error_revealing: Vec<ErrorTest>,
}
