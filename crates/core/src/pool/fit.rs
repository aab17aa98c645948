//! Whether a worker's answer fits the request it answers. The code under test shares the
//! worker's process, so nothing a worker sends is trusted: an answer that does not fit makes
//! the worker garbled (retired, its run isolated), never a result to fold.

use crate::message::SeqRequest;
use crate::sequence::SeqResult;

/// Whether answer `id` fits the `at`-th sequence of a run: its own id, no more steps than
/// statements, no more observations than observers. The code under test shares the worker's
/// process, so an answer that does not fit is a garbled worker, never a result to fold (it
/// made generation index past a request's statements).
pub(super) fn answer_fits(
    id: u64,
    at: usize,
    seq: Option<&SeqRequest>,
    result: &SeqResult,
) -> Result<(), String> {
    let Some(seq) = seq else {
        return Err(format!(
            "an answer (id {id}) beyond the run's last sequence"
        ));
    };
    if id != at as u64 {
        return Err(format!("answer id {id} where sequence {at} was due"));
    }
    let SeqResult::Done {
        steps,
        observations,
        ..
    } = result
    else {
        return Ok(());
    };
    if steps.len() > seq.statements.len() || observations.len() > seq.observers.len() {
        return Err(format!(
            "answer {id} has {} steps and {} observations for {} statements and {} observers",
            steps.len(),
            observations.len(),
            seq.statements.len(),
            seq.observers.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{Observed, Statement};

    fn request(statements: usize) -> SeqRequest {
        let literal = Statement::Literal {
            ty: "int".into(),
            value: "1".into(),
        };
        SeqRequest {
            statements: vec![literal; statements],
            observers: vec![],
        }
    }

    fn done(steps: usize, observations: usize) -> SeqResult {
        let v = Observed::Value {
            class: "int".into(),
            text: "1".into(),
        };
        SeqResult::Done {
            steps: vec![v.clone(); steps],
            observations: vec![v; observations],
            violations: vec![],
            contents: vec![],
        }
    }

    #[test]
    fn an_answer_fits_only_its_own_sequence_and_its_size() {
        let seq = request(2);
        assert!(answer_fits(0, 0, Some(&seq), &done(2, 0)).is_ok());
        assert!(answer_fits(0, 0, Some(&seq), &done(1, 0)).is_ok());
        assert!(answer_fits(1, 1, Some(&seq), &SeqResult::Timeout { millis: 1 }).is_ok());
        let more_steps = answer_fits(0, 0, Some(&seq), &done(3, 0)).unwrap_err();
        assert!(more_steps.contains("3 steps"), "{more_steps}");
        assert!(answer_fits(0, 0, Some(&seq), &done(2, 1)).is_err());
        assert!(
            answer_fits(1, 0, Some(&seq), &done(2, 0))
                .unwrap_err()
                .contains("id 1")
        );
        assert!(answer_fits(2, 2, None, &done(1, 0)).is_err());
    }
}
