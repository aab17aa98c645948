//! The class path rule: the target threw because its class path lacks a class or member
//! the code needs (a dependency jar missing, a jar built against another release), as the
//! worker's agent decided when the call threw. That is the environment, not a change of
//! behaviour: the gate reports it as an infrastructure failure (exit code 3).

use super::Evidence;
use crate::sequence::Observed;

/// `missing CLASS` when the target's outcome is a class path fault the reference did not
/// have.
pub(super) fn classpath(e: &Evidence) -> Option<String> {
    let fault = e.actual.and_then(Observed::classpath)?;
    if e.expected.and_then(Observed::classpath).is_some() {
        return None;
    }
    Some(format!("missing {}", fault.missing))
}

#[cfg(test)]
mod tests {
    use super::super::{Label, classify};
    use super::*;
    use crate::compare::Kind;
    use crate::sequence::ClasspathFault;

    fn evidence<'a>(expected: &'a Observed, actual: &'a Observed, kind: Kind) -> Evidence<'a> {
        Evidence {
            callee: "lib.Words.loud(java.lang.String)",
            kind,
            expected: Some(expected),
            actual: Some(actual),
            ref_value: "\"A\"",
            tgt_value: "throws java.lang.NoClassDefFoundError: dep/Helper",
            java: &[],
            versions: None,
        }
    }

    #[test]
    fn a_class_missing_on_the_target_is_labelled_classpath_and_plain_linkage_text_is_not() {
        let value = Observed::Value {
            class: "java.lang.String".into(),
            text: "A".into(),
        };
        let fault = Observed::Threw {
            class: "java.lang.NoClassDefFoundError".into(),
            message: Some("dep/Helper".into()),
            classpath: Some(Box::new(ClasspathFault {
                missing: "dep.Helper".into(),
                needed_by: "lib.Words.loud".into(),
            })),
        };
        let e = evidence(&value, &fault, Kind::NormalVsException);
        assert_eq!(
            classify(&e),
            (Label::Classpath, Some("missing dep.Helper".into()))
        );
        assert_eq!(Label::Classpath.name(), "classpath");
        // The same class and message that the agent judged behaviour (a class that loads):
        // an ordinary exception.
        let behaviour = Observed::threw("java.lang.NoClassDefFoundError", Some("dep/Helper"));
        let (label, _) = classify(&evidence(&value, &behaviour, Kind::NormalVsException));
        assert_eq!(label, Label::Exception);
    }
}
