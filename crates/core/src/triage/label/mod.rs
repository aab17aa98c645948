//! Kinds of change: a label for each group that says what sort of change it is (the same
//! value printed differently, an invisible character, implementation data, a hash code, a
//! last-place floating-point difference, a permitted exception, an artefact of how difftest
//! calls the API, or a plain difference), and the *normalised change* that groups of one
//! cause share (the rendering rule, the inserted character, the data family and the data
//! versions the two sides report, the exception pair). The rules are general: none names a
//! known JDK change by its value. Each rule lives in a module of its own: [`rendering`]
//! (rendering, invisible, last place), [`hash`], [`data`], [`runtime`] (the runtime's own
//! release named in a value), [`exceptions`] and
//! [`classpath`] (the target's class path lacks a class: infrastructure, not a change).
//!
//! The [`Kind`] (how two outcomes differ) is kept; the label is a second, separate axis.

mod classpath;
mod data;
mod exceptions;
mod hash;
mod rendering;
mod runtime;
#[cfg(test)]
mod tests;

use crate::compare::Kind;
use crate::sequence::Observed;
use classpath::classpath;
pub(crate) use data::Versions;
use data::{data_families, version_in_diff, versioned_change};
use exceptions::{other_change, permitted_narrowing, tool_artefact};
use hash::hash_only;
use rendering::{invisible, last_place, rendering};
use runtime::runtime_version;
pub(crate) use runtime::{RUNTIME, feature_release};
use serde::{Deserialize, Serialize};

/// The kind of change a group shows. The snake_case names are part of the JSON report and
/// of the accepted list.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// Both sides are the same number (float, double or decimal value), printed otherwise.
    Rendering,
    /// The texts differ only in spaces, no-break spaces or other invisible characters.
    Invisible,
    /// Counts and contents of implementation data: Unicode, locale (CLDR), time zones,
    /// currencies.
    DataVersion,
    /// Only a hash differs: a hashing method's result, a field named as a hash, an identity
    /// hash (`@1b6d3586`), or the order of a hash-based collection.
    HashOnly,
    /// Floating-point results a few units in the last place apart (an intrinsic against
    /// portable code, as the `Math` contracts allow).
    LastPlace,
    /// An exception replaced by its subclass or superclass among standard pairs the API
    /// contracts allow.
    PermittedNarrowing,
    /// The difference comes from difftest's own reflective call (kept out of the gate).
    ToolArtefact,
    /// Any other value difference.
    ValueDiffers,
    /// Any other exception difference (normal vs exception, class, message).
    Exception,
    /// A class or member exists on one side only.
    ApiMissing,
    /// The target did not answer.
    Timeout,
    /// The target's worker died.
    Crash,
    /// The target threw because its class path lacks a class or member the code needs:
    /// the environment, not a change (the gate exits with 3, infrastructure).
    Classpath,
    /// A dependency changed version between reference and target, and the difference
    /// involves a class of its jar (the callee's class, a thrown exception's, a value's):
    /// the change is the dependency's, `g:a 1.0 → 2.0` (a row even with no test).
    Dependency,
}

impl Label {
    /// The stable snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            Label::Rendering => "rendering",
            Label::Invisible => "invisible",
            Label::DataVersion => "data_version",
            Label::HashOnly => "hash_only",
            Label::LastPlace => "last_place",
            Label::PermittedNarrowing => "permitted_narrowing",
            Label::ToolArtefact => "tool_artefact",
            Label::ValueDiffers => "value_differs",
            Label::Exception => "exception",
            Label::ApiMissing => "api_missing",
            Label::Timeout => "timeout",
            Label::Crash => "crash",
            Label::Classpath => "classpath",
            Label::Dependency => "dependency",
        }
    }

    /// Words for people.
    pub fn describe(self) -> &'static str {
        match self {
            Label::Rendering => "same value, other rendering",
            Label::Invisible => "invisible or whitespace change",
            Label::DataVersion => "data version",
            Label::HashOnly => "hash only",
            Label::LastPlace => "last-place float difference",
            Label::PermittedNarrowing => "permitted narrowing",
            Label::ToolArtefact => "tool artefact",
            Label::ValueDiffers => "value differs",
            Label::Exception => "exception",
            Label::ApiMissing => "API missing",
            Label::Timeout => "timeout",
            Label::Crash => "crash",
            Label::Classpath => "class path lacks a class",
            Label::Dependency => "dependency",
        }
    }

    /// The label for a difference no special rule recognises.
    pub fn plain(kind: Kind) -> Label {
        match kind {
            Kind::Value => Label::ValueDiffers,
            Kind::NormalVsException | Kind::ExceptionClass | Kind::ExceptionMessage => {
                Label::Exception
            }
            Kind::Missing => Label::ApiMissing,
            Kind::Timeout => Label::Timeout,
            Kind::Crash => Label::Crash,
        }
    }
}

/// What the rules look at: one group's difference.
pub(crate) struct Evidence<'a> {
    pub callee: &'a str,
    pub kind: Kind,
    pub expected: Option<&'a Observed>,
    pub actual: Option<&'a Observed>,
    /// The escaped texts shown for people (`"12:00\u202FAM"`, `throws …`).
    pub ref_value: &'a str,
    pub tgt_value: &'a str,
    /// The example (minimized when available) as Java lines: which classes are involved.
    pub java: &'a [String],
    /// The data versions of both implementations, when read.
    pub versions: Option<&'a Versions>,
}

/// The label of a group and its normalised change (`None`: the group is a cause of its own;
/// for a plain value difference the change is its distinctive changed text, see
/// [`crate::text::change`]).
pub(crate) fn classify(e: &Evidence) -> (Label, Option<String>) {
    if let Some(change) = classpath(e) {
        return (Label::Classpath, Some(change));
    }
    if let Some(change) = tool_artefact(e) {
        return (Label::ToolArtefact, Some(change));
    }
    if let Some(change) = permitted_narrowing(e) {
        return (Label::PermittedNarrowing, Some(change));
    }
    if e.kind != Kind::Value {
        return (Label::plain(e.kind), other_change(e));
    }
    if let Some(change) = invisible(e.ref_value, e.tgt_value) {
        return (Label::Invisible, Some(change));
    }
    if let Some(change) = version_in_diff(e) {
        return (Label::DataVersion, Some(change));
    }
    if let Some(change) = runtime_version(e) {
        return (Label::DataVersion, Some(change));
    }
    if let Some(change) = rendering(e) {
        return (Label::Rendering, Some(change));
    }
    let large = crate::sequence::is_large_rendering;
    if !(large(e.ref_value) || large(e.tgt_value))
        && let Some(change) = hash_only(e)
    {
        // The hash code of a value built from changed data is that data's change.
        let of_data = hash_code_of_data(e);
        return match of_data {
            Some(data) => (Label::DataVersion, Some(data)),
            None => (Label::HashOnly, Some(change)),
        };
    }
    if let Some(change) = last_place(e) {
        return (Label::LastPlace, Some(change));
    }
    if let Some(change) = data_change(e) {
        return (Label::DataVersion, Some(change));
    }
    // Otherwise the changed text, when distinctive, is the change (as for `same_change_as`).
    let change = crate::text::change(e.ref_value, e.tgt_value);
    (Label::ValueDiffers, change)
}

/// The change of the first data family the example reads that the reported data versions
/// do not rule out.
fn data_change(e: &Evidence) -> Option<String> {
    data_families(e)
        .iter()
        .find_map(|f| versioned_change(f, e.versions))
}

/// The data change behind a `hashCode()` result, when the callee hashes and the example
/// reads data whose versions differ (or are not reported): a container's hash is shown under
/// the cause of what it contains.
fn hash_code_of_data(e: &Evidence) -> Option<String> {
    let method = e.callee.split('(').next().unwrap_or(e.callee);
    let name = method.rsplit('.').next().unwrap_or(method);
    if !hash::is_hashing(name) {
        return None;
    }
    data_change(e)
}

/// The stable id of a cause: `c-` and six hex digits of a 64-bit FNV-1a hash of the label's
/// name, a NUL and the normalised change.
pub(crate) fn cause_id(label: Label, change: &str) -> String {
    crate::hash::short_id("c", label.name(), change)
}
