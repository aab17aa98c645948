//! The kinds of difference between a reference and a target, and the comparison of one
//! replayed [`SeqResult`] against a [`Test`]'s recorded expectations.
//!
//! Steps are compared in order; the first step that differs is the divergence (execution
//! stops at the first abnormal step on both sides, so nothing after it can be compared).
//! Observers are compared only when every step was normal on both sides; the first observer
//! that differs is the divergence. A step recorded as `None` (an object) is not checked,
//! except that an abnormal outcome there is still a difference. A step whose value varies on
//! the reference is not checked either, and if it ends abnormally on either side the
//! comparison ends there without a difference: the reference might have thrown too.

use crate::generate::taint::IDENTITY_ORDER;
use crate::sequence::{Observed, SeqResult, Statement};
use crate::suite::Test;
use serde::{Deserialize, Serialize};

/// What kind of difference a divergence is. The snake_case names are part of the JSON
/// report schema and of the accepted-list file.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Both normal, different values (or runtime classes).
    Value,
    /// One side returned normally, the other threw.
    NormalVsException,
    /// Both threw, different exception classes.
    ExceptionClass,
    /// Same exception class, different message (counted only with `--strict-messages`).
    ExceptionMessage,
    /// A class, method, constructor or field exists on one side only (an API difference).
    Missing,
    /// The target did not answer within the per-call timeout.
    Timeout,
    /// The target's worker died.
    Crash,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 7] = [
        Kind::Value,
        Kind::NormalVsException,
        Kind::ExceptionClass,
        Kind::ExceptionMessage,
        Kind::Missing,
        Kind::Timeout,
        Kind::Crash,
    ];

    /// The stable snake_case name (`value`, `normal_vs_exception`, …).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Value => "value",
            Kind::NormalVsException => "normal_vs_exception",
            Kind::ExceptionClass => "exception_class",
            Kind::ExceptionMessage => "exception_message",
            Kind::Missing => "missing",
            Kind::Timeout => "timeout",
            Kind::Crash => "crash",
        }
    }

    /// Words for people.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Value => "value differs",
            Kind::NormalVsException => "normal vs exception",
            Kind::ExceptionClass => "exception class differs",
            Kind::ExceptionMessage => "exception message differs",
            Kind::Missing => "API missing",
            Kind::Timeout => "timeout",
            Kind::Crash => "crash",
        }
    }

    /// Parses [`Kind::name`].
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether this kind fails the gate (message differences only when strict).
    pub fn counts(self, strict_messages: bool) -> bool {
        self != Kind::ExceptionMessage || strict_messages
    }
}

/// Where in a test the divergence is.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "at", content = "index", rename_all = "snake_case")]
pub enum Site {
    /// Statement `i` (0-based).
    Step(usize),
    /// Observer call `j` (0-based), after all statements.
    Observer(usize),
    /// The whole test (a timeout or crash cannot be pinned to a statement).
    Whole,
}

/// The first difference between what the reference recorded and what the target did.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Divergence {
    pub kind: Kind,
    pub site: Site,
    /// `Class.method(params)` of the diverging statement, or `Class.method()` of the
    /// observer; for a timeout or crash, the test's last call (the likeliest culprit).
    pub callee: String,
    /// What the reference gave there (`None` when it was not recorded).
    pub expected: Option<Observed>,
    /// What the target gave there (`None` for a timeout or crash).
    pub actual: Option<Observed>,
    /// For a timeout or crash: how long, or how the worker died.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// For an observer: the call whose value it read (`Set.toString()` of what
    /// `Security.getAlgorithms(String)` returned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed: Option<Box<str>>,
}

/// The verdict on one replayed test.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub(crate) enum Verdict {
    Pass,
    Differs(Divergence),
}

impl Verdict {
    pub(crate) fn divergence(&self) -> Option<&Divergence> {
        match self {
            Verdict::Pass => None,
            Verdict::Differs(d) => Some(d),
        }
    }
}

/// The kind of difference between two outcomes, or `None` when they are equal.
pub(crate) fn classify(expected: &Observed, actual: &Observed) -> Option<Kind> {
    use Observed::{Missing, Threw};
    if expected == actual {
        return None;
    }
    // Whether a set iterates in identity-hash order is for flake removal, not a difference.
    if let (Observed::Object { class: a }, Observed::Object { class: b }) = (expected, actual) {
        fn plain(c: &str) -> &str {
            c.strip_suffix(IDENTITY_ORDER).unwrap_or(c)
        }
        if plain(a) == plain(b) {
            return None;
        }
    }
    // A recorded exception without a message checks the class only (the message changed
    // between reruns on the reference).
    if let (
        Threw {
            class: a,
            message: None,
            ..
        },
        Threw { class: b, .. },
    ) = (expected, actual)
        && a == b
    {
        return None;
    }
    Some(match (expected, actual) {
        (Missing { .. }, _) | (_, Missing { .. }) => Kind::Missing,
        (Threw { class: a, .. }, Threw { class: b, .. }) if a != b => Kind::ExceptionClass,
        (Threw { .. }, Threw { .. }) => Kind::ExceptionMessage,
        (Threw { .. }, _) | (_, Threw { .. }) => Kind::NormalVsException,
        _ => Kind::Value,
    })
}

/// Compares the target's result for `test` with the test's expectations.
pub(crate) fn compare(test: &Test, result: &SeqResult) -> Verdict {
    match result {
        SeqResult::Timeout { millis } => {
            whole(test, Kind::Timeout, format!("no answer in {millis} ms"))
        }
        SeqResult::Crash { exit, stderr_tail } => {
            let tail = stderr_tail.lines().last().unwrap_or("").trim();
            let detail = if tail.is_empty() {
                exit.clone()
            } else {
                format!("{exit}: {tail}")
            };
            whole(test, Kind::Crash, detail)
        }
        SeqResult::Done {
            steps,
            observations,
            ..
        } => match compare_steps(test, steps) {
            Some(d) => Verdict::Differs(d),
            None => compare_observers(test, steps, observations),
        },
    }
}

fn whole(test: &Test, kind: Kind, detail: String) -> Verdict {
    Verdict::Differs(Divergence {
        kind,
        site: Site::Whole,
        callee: last_callee(test),
        expected: None,
        actual: None,
        detail: Some(detail),
        observed: None,
    })
}

/// The callee a timeout or crash is charged to: the last statement that is a call.
pub(crate) fn last_callee(test: &Test) -> String {
    let is_call = |s: &&Statement| matches!(s, Statement::New { .. } | Statement::Call { .. });
    test.statements
        .iter()
        .rev()
        .find(is_call)
        .or(test.statements.last())
        .map_or_else(|| "(empty test)".to_string(), Statement::callee)
}

fn compare_steps(test: &Test, actual: &[Observed]) -> Option<Divergence> {
    let n = test.expected_steps.len().max(actual.len());
    for i in 0..n {
        let expected = test.expected_steps.get(i).cloned().flatten();
        let got = actual.get(i);
        if test.varies_at(i) {
            let ends = got.is_none_or(Observed::is_abnormal)
                || expected.as_ref().is_some_and(Observed::is_abnormal);
            if ends {
                return None;
            }
            continue;
        }
        let kind = match (&expected, got) {
            (Some(e), Some(a)) => classify(e, a),
            // Unchecked on the reference (which ran it normally): only abnormal counts.
            (None, Some(a)) if i < test.expected_steps.len() => a
                .is_abnormal()
                .then(|| classify(&Observed::Void, a))
                .flatten(),
            // The target ran a step the reference never reached, or stopped early.
            (_, Some(a)) => classify(&Observed::Void, a).filter(|_| a.is_abnormal()),
            (Some(e), None) if e.is_abnormal() => classify(e, &Observed::Void),
            (Some(_), None) => Some(Kind::Value),
            (None, None) => None,
        };
        if let Some(kind) = kind {
            let callee = test
                .statements
                .get(i)
                .map_or_else(|| format!("step {i}"), step_callee);
            return Some(Divergence {
                kind,
                site: Site::Step(i),
                callee,
                expected,
                actual: got.cloned(),
                detail: None,
                observed: None,
            });
        }
    }
    None
}

fn compare_observers(test: &Test, steps: &[Observed], observations: &[Observed]) -> Verdict {
    if steps.iter().any(Observed::is_abnormal) {
        return Verdict::Pass; // the reference threw at the same step, in the same way
    }
    for (j, expected) in test.expected_observations.iter().enumerate() {
        let Some(expected) = expected else {
            continue; // runs unchecked: it varied on the reference
        };
        let got = observations.get(j);
        let kind = match got {
            Some(a) => classify(expected, a),
            None => Some(Kind::Value),
        };
        if let Some(kind) = kind {
            return Verdict::Differs(Divergence {
                kind,
                site: Site::Observer(j),
                callee: observer_callee(test, j),
                expected: Some(expected.clone()),
                actual: got.cloned(),
                detail: None,
                observed: test
                    .observers
                    .get(j)
                    .and_then(|o| read_call(&test.statements, o.stmt))
                    .map(Into::into),
            });
        }
    }
    Verdict::Pass
}

/// The call whose value statement `at` holds, looking through copies of a collection or
/// map (`new TreeSet(set)`, `new ArrayList(list)`): an observer of the copy reads the value
/// the copied call returned.
fn read_call(statements: &[Statement], mut at: usize) -> Option<String> {
    loop {
        let statement = statements.get(at)?;
        match statement {
            Statement::New { params, args, .. }
                if args.len() == 1
                    && matches!(&*params[0], "java.util.Collection" | "java.util.Map")
                    && args[0] < at =>
            {
                at = args[0];
            }
            _ => return Some(step_callee(statement)),
        }
    }
}

/// The callee a step's divergence is charged to. A literal's recorded value is its Java
/// rendering, so a literal that differs means `String.valueOf` renders it differently.
pub(crate) fn step_callee(statement: &Statement) -> String {
    match statement {
        Statement::Literal { ty, .. } if crate::model::is_primitive(ty) => {
            format!("java.lang.String.valueOf({ty})")
        }
        // A class literal's step is the class itself (`X.class`): absent on one side.
        Statement::Literal { ty, .. } if &**ty == crate::sequence::CLASS => statement.callee(),
        Statement::Literal { ty, .. } => format!("{ty}.toString()"),
        other => other.callee(),
    }
}

/// `Class.method()` of observer `j`.
pub(crate) fn observer_callee(test: &Test, j: usize) -> String {
    test.observers.get(j).map_or_else(
        || format!("observer {j}"),
        |o| format!("{}.{}()", o.class, o.method),
    )
}

#[cfg(test)]
mod tests;
