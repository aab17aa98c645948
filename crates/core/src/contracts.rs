//! Randoop's default contracts (Fig. 4 of the Randoop paper) and JCrasher's classification of
//! exceptions (section 4.1 of the JCrasher paper).
//!
//! The worker checks the object contracts (`o.equals(o)` is true and throws nothing,
//! `hashCode` and `toString` throw nothing) and reports them as [`Violation`]s; this module
//! adds the exception contracts, which need the sequence: no `NullPointerException` when no
//! input of the call was null, and no `AssertionError` at all.
//!
//! An exception that breaks no contract ends a regression test (the test expects it). It is
//! classified as JCrasher does: unchecked exceptions of the "second group"
//! (`IllegalArgumentException`, `IllegalStateException`, `NullPointerException`, …) look like
//! a violated precondition; the "first group" (`ArithmeticException`, `ClassCastException`,
//! array errors) and any `Error` look like a possible bug; checked exceptions are expected
//! control flow. JCrasher also looks at the stack to see who threw; workers report only the
//! class and message, so this classification is by class alone.

use crate::sequence::{Observed, Statement, Violation};
use serde::{Deserialize, Serialize};

/// Contract name: a call threw `NullPointerException` although none of its inputs was null.
pub(crate) const NPE_ON_NON_NULL: &str = "npe-on-non-null-input";
/// Contract name: a call threw `AssertionError`.
pub(crate) const ASSERTION_ERROR: &str = "assertion-error";

/// How an exception that ended a sequence looks (JCrasher 4.1).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum ExceptionKind {
    /// An unchecked exception of the second group: the inputs broke the method's precondition.
    Precondition,
    /// A checked exception: declared, expected control flow.
    Checked,
    /// An `Error`, or an unchecked exception of the first group: possibly a bug.
    PossibleBug,
}

impl ExceptionKind {
    /// The contract's name as the suite writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ExceptionKind::Precondition => "precondition",
            ExceptionKind::Checked => "checked",
            ExceptionKind::PossibleBug => "possible-bug",
        }
    }
}

/// JCrasher's first group: unchecked exceptions thrown by the JVM itself, blamed on the method.
const FIRST_GROUP: [&str; 5] = [
    "java.lang.ArrayIndexOutOfBoundsException",
    "java.lang.NegativeArraySizeException",
    "java.lang.ArrayStoreException",
    "java.lang.ClassCastException",
    "java.lang.ArithmeticException",
];

/// Classifies the exception `class` whose supertypes (nearest first, as in the API model)
/// are `supertypes`; `None` when the hierarchy is unknown, in which case a name-based guess
/// is made (`…Error` is an error, `…Exception` unchecked).
pub(crate) fn classify(class: &str, supertypes: Option<&[String]>) -> ExceptionKind {
    let is = |name: &str| class == name || supertypes.is_some_and(|s| s.iter().any(|t| t == name));
    if FIRST_GROUP.iter().any(|g| is(g)) || is("java.lang.Error") {
        return ExceptionKind::PossibleBug;
    }
    if is("java.lang.RuntimeException") {
        return ExceptionKind::Precondition;
    }
    match supertypes {
        Some(_) => ExceptionKind::Checked,
        None if class.ends_with("Error") => ExceptionKind::PossibleBug,
        None => ExceptionKind::Precondition,
    }
}

/// The exception contract the last executed step broke, if any. `steps` are the outcomes
/// of `statements` as far as they ran.
pub(crate) fn exception_violation(
    statements: &[Statement],
    steps: &[Observed],
) -> Option<Violation> {
    let last = steps.len().checked_sub(1)?;
    let Observed::Threw { class, message, .. } = &steps[last] else {
        return None;
    };
    let detail = match message {
        Some(m) => format!("{class}: {m}"),
        None => class.clone(),
    };
    let contract = match class.as_str() {
        "java.lang.AssertionError" => ASSERTION_ERROR,
        "java.lang.NullPointerException" => {
            let inputs = statements.get(last)?.inputs();
            let null_input = inputs
                .iter()
                .any(|&i| matches!(steps.get(i), Some(Observed::Null)));
            if null_input {
                return None;
            }
            NPE_ON_NON_NULL
        }
        _ => return None,
    };
    Some(Violation {
        stmt: last,
        contract: contract.to_string(),
        detail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn classification_follows_jcrasher() {
        let iae = strings(&["java.lang.RuntimeException", "java.lang.Exception"]);
        assert_eq!(
            classify("java.lang.IllegalArgumentException", Some(&iae)),
            ExceptionKind::Precondition
        );
        let aioobe = strings(&[
            "java.lang.IndexOutOfBoundsException",
            "java.lang.RuntimeException",
        ]);
        assert_eq!(
            classify("java.lang.ArrayIndexOutOfBoundsException", Some(&aioobe)),
            ExceptionKind::PossibleBug
        );
        let checked = strings(&["java.lang.Exception", "java.lang.Throwable"]);
        assert_eq!(
            classify("java.text.ParseException", Some(&checked)),
            ExceptionKind::Checked
        );
        assert_eq!(
            classify("java.lang.StackOverflowError", None),
            ExceptionKind::PossibleBug
        );
        assert_eq!(
            classify("java.lang.NullPointerException", None),
            ExceptionKind::Precondition
        );
    }

    fn call(receiver: usize, args: Vec<usize>) -> Statement {
        let params = vec!["java.lang.Object"; args.len()];
        Statement::call("C", "m", &params, Some(receiver), &args)
    }

    #[test]
    fn npe_is_a_violation_only_without_null_inputs() {
        let new = Statement::new("C", &[], &[]);
        let null = Statement::Null {
            ty: "java.lang.Object".into(),
        };
        let npe = Observed::Threw {
            class: "java.lang.NullPointerException".into(),
            message: None,
            classpath: None,
        };
        let obj = Observed::Object { class: "C".into() };
        let seq = vec![new.clone(), null, call(0, vec![1])];
        let steps = vec![obj.clone(), Observed::Null, npe.clone()];
        assert_eq!(exception_violation(&seq, &steps), None);
        let seq = vec![new, call(0, vec![0])];
        let v = exception_violation(&seq, &[obj, npe]).expect("violation");
        assert_eq!((v.stmt, v.contract.as_str()), (1, NPE_ON_NON_NULL));
    }

    #[test]
    fn assertion_error_always_violates() {
        let seq = vec![Statement::call("C", "m", &[], None, &[])];
        let steps = vec![Observed::Threw {
            class: "java.lang.AssertionError".into(),
            message: Some("x".into()),
            classpath: None,
        }];
        let v = exception_violation(&seq, &steps).expect("violation");
        assert_eq!(v.contract, ASSERTION_ERROR);
        assert_eq!(v.detail, "java.lang.AssertionError: x");
    }
}
