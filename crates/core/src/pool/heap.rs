//! A worker whose heap ran out is not trusted with another sequence: what the JVM was doing
//! at that moment may have failed for good, and every later call there could answer
//! otherwise than in a fresh JVM. Measured on Temurin 17 with `-Xmx256m`: a heap filled to
//! within 256 KiB while the security providers first load leaves 6 of the 9 installed for
//! the rest of the JVM's life; within 16 KiB, `java.security.Security` itself stays
//! uninitializable (`NoClassDefFoundError: Could not initialize class`). A record's reruns
//! then see `Security.getAlgorithms`, `Cipher.getInstance` and the like throw in one JVM
//! and return in another, and drop every such check.

use crate::sequence::{Observed, SeqResult};

/// Whether a sequence's answer shows it ran the worker's heap out (`OutOfMemoryError`
/// other than an array too large to ask for, which allocates nothing); why that matters is
/// the module's doc.
pub(super) fn exhausted(result: &SeqResult) -> bool {
    let SeqResult::Done {
        steps,
        observations,
        ..
    } = result
    else {
        return false;
    };
    steps.iter().chain(observations).any(|o| {
        matches!(o, Observed::Threw { class, message, .. }
            if class == "java.lang.OutOfMemoryError"
                && message.as_deref() != Some("Requested array size exceeds VM limit"))
    })
}

#[cfg(test)]
mod tests {
    use super::exhausted;
    use crate::sequence::{Observed, SeqResult};

    fn done(steps: Vec<Observed>, observations: Vec<Observed>) -> SeqResult {
        SeqResult::Done {
            steps,
            observations,
            violations: vec![],
            contents: vec![],
        }
    }

    fn oom(message: &str) -> Observed {
        Observed::threw("java.lang.OutOfMemoryError", Some(message))
    }

    #[test]
    fn a_heap_run_out_in_a_step_or_an_observer_is_exhausted() {
        let value = Observed::Value {
            class: "java.lang.Integer".into(),
            text: "1".into(),
        };
        assert!(!exhausted(&done(vec![value.clone()], vec![value.clone()])));
        assert!(exhausted(&done(vec![oom("Java heap space")], vec![])));
        assert!(exhausted(&done(
            vec![value.clone()],
            vec![oom("Java heap space")]
        )));
        let gc = oom("GC overhead limit exceeded");
        assert!(exhausted(&done(vec![value.clone(), gc], vec![])));
        // Asking for an array larger than the JVM allows allocates nothing.
        let too_large = oom("Requested array size exceeds VM limit");
        assert!(!exhausted(&done(vec![too_large], vec![])));
        let overflow = Observed::threw("java.lang.StackOverflowError", None);
        assert!(!exhausted(&done(vec![overflow], vec![])));
        assert!(!exhausted(&SeqResult::Timeout { millis: 250 }));
    }
}
