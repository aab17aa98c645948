//! One test's entry in the report ([`TestReport`]), compact in memory: its id and status,
//! and the details that only a test that did not pass has ([`TestDetail`]) behind one
//! pointer, so a report holds 24 bytes for each passing test. Its JSON is flat and the same
//! as ever: `id`, `status`, then each detail present, in the order of [`TestDetail`].

use super::TestStatus;
use crate::compare::Kind;
use crate::triage::label::Label;
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

/// One test; details only for tests that did not pass.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(from = "Wire")]
pub struct TestReport {
    /// The test's id in the suite.
    pub id: u64,
    /// What became of it.
    pub status: TestStatus,
    /// `None` when every detail is absent.
    detail: Option<Box<TestDetail>>,
}

/// What is known of a test that did not pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestDetail {
    /// Its group's id, when it differs.
    pub group: Option<String>,
    /// The cause of the test's group.
    pub cause: Option<String>,
    /// What differs.
    pub kind: Option<Kind>,
    /// The kind of change of the test's group.
    pub label: Option<Label>,
    /// The call whose outcome differs.
    pub callee: Option<String>,
    /// When `callee` is an observer: the call whose value it read.
    pub observed: Option<String>,
    /// The reference's outcome at the site, for people.
    pub ref_value: Option<String>,
    /// The target's outcome at the site, for people.
    pub tgt_value: Option<String>,
}

/// The details of a test that has none.
static NONE: TestDetail = TestDetail {
    group: None,
    cause: None,
    kind: None,
    label: None,
    callee: None,
    observed: None,
    ref_value: None,
    tgt_value: None,
};

impl TestReport {
    /// A test with `detail` (held only when something is in it).
    pub fn new(id: u64, status: TestStatus, detail: TestDetail) -> TestReport {
        TestReport {
            id,
            status,
            detail: (detail != NONE).then(|| Box::new(detail)),
        }
    }

    /// The entry of a test that passed.
    pub fn passed(id: u64) -> TestReport {
        TestReport {
            id,
            status: TestStatus::Pass,
            detail: None,
        }
    }

    /// Its details (all absent for a test that passed).
    pub fn detail(&self) -> &TestDetail {
        self.detail.as_deref().unwrap_or(&NONE)
    }

    /// Its details, to fill in.
    pub fn detail_mut(&mut self) -> &mut TestDetail {
        self.detail.get_or_insert_with(Box::default)
    }
}

/// The JSON form of an entry, as read.
#[derive(Deserialize)]
struct Wire {
    id: u64,
    status: TestStatus,
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    cause: Option<String>,
    #[serde(default)]
    kind: Option<Kind>,
    #[serde(default)]
    label: Option<Label>,
    #[serde(default)]
    callee: Option<String>,
    #[serde(default)]
    observed: Option<String>,
    #[serde(default)]
    ref_value: Option<String>,
    #[serde(default)]
    tgt_value: Option<String>,
}

impl From<Wire> for TestReport {
    fn from(w: Wire) -> TestReport {
        let detail = TestDetail {
            group: w.group,
            cause: w.cause,
            kind: w.kind,
            label: w.label,
            callee: w.callee,
            observed: w.observed,
            ref_value: w.ref_value,
            tgt_value: w.tgt_value,
        };
        TestReport::new(w.id, w.status, detail)
    }
}

impl Serialize for TestReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = self.detail();
        let mut s = serializer.serialize_struct("TestReport", 10)?;
        s.serialize_field("id", &self.id)?;
        s.serialize_field("status", &self.status)?;
        present(&mut s, "group", &d.group)?;
        present(&mut s, "cause", &d.cause)?;
        present(&mut s, "kind", &d.kind)?;
        present(&mut s, "label", &d.label)?;
        present(&mut s, "callee", &d.callee)?;
        present(&mut s, "observed", &d.observed)?;
        present(&mut s, "ref_value", &d.ref_value)?;
        present(&mut s, "tgt_value", &d.tgt_value)?;
        s.end()
    }
}

/// Writes the field `key` when `value` is present, as the flat form skips absent ones.
fn present<S: SerializeStruct, T: Serialize>(
    s: &mut S,
    key: &'static str,
    value: &Option<T>,
) -> Result<(), S::Error> {
    match value {
        Some(v) => s.serialize_field(key, v),
        None => s.skip_field(key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passing_test_is_small_and_its_json_flat() {
        assert_eq!(std::mem::size_of::<TestReport>(), 24);
        let t = TestReport::passed(7);
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, r#"{"id":7,"status":"pass"}"#);
        assert_eq!(serde_json::from_str::<TestReport>(&json).unwrap(), t);
    }

    #[test]
    fn details_keep_their_order_and_read_back() {
        let detail = TestDetail {
            group: Some("g-1".into()),
            kind: Some(Kind::Value),
            ref_value: Some("1".into()),
            tgt_value: Some("2".into()),
            ..TestDetail::default()
        };
        let t = TestReport::new(3, TestStatus::Differs, detail);
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(
            json,
            r#"{"id":3,"status":"differs","group":"g-1","kind":"value","ref_value":"1","tgt_value":"2"}"#
        );
        assert_eq!(serde_json::from_str::<TestReport>(&json).unwrap(), t);
    }
}
