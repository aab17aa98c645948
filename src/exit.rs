//! Exit codes, the contract difftest keeps with CI, and how errors map onto them:
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success; for `replay`, no difference outside the accepted list |
//! | 1 | `replay` found new differences |
//! | 2 | bad input: a flag, target file, suite file or scope that is wrong |
//! | 3 | infrastructure failure: a JDK could not be provisioned or a JVM would not start |
//! | 130 | interrupted (Ctrl-C or SIGTERM); what was done so far is written, marked partial |

use crate::pool::PoolError;
use crate::targets::TargetError;
use std::process::ExitCode;

/// What the process tells its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Success = 0,
    Differences = 1,
    BadInput = 2,
    Infrastructure = 3,
    Interrupted = 130,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// An error in what the user gave us (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Shorthand for a [`BadInput`] error.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    BadInput(message.into()).into()
}

/// The exit code for an error that reached the top.
pub fn code_of(err: &anyhow::Error) -> Exit {
    for cause in err.chain() {
        if cause.is::<BadInput>() {
            return Exit::BadInput;
        }
        if let Some(t) = cause.downcast_ref::<TargetError>() {
            return if t.is_bad_input() {
                Exit::BadInput
            } else {
                Exit::Infrastructure
            };
        }
        if cause.is::<PoolError>() {
            return Exit::Infrastructure;
        }
    }
    Exit::Infrastructure
}

/// The error and its causes on one line.
pub fn one_line(err: &anyhow::Error) -> String {
    let parts: Vec<String> = err
        .chain()
        .map(|c| {
            c.to_string()
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .collect();
    let mut line = String::new();
    for p in parts {
        if !p.is_empty() && !line.contains(&p) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&p);
        }
    }
    line
}

/// An error message as one line of at most 300 characters: control characters (a newline a
/// parser quoted from its input) escaped, the rest cut with its length. Errors that quote
/// input handed to us — a worker's message, a report — go through here.
pub fn escaped_line(message: &str) -> String {
    let text: String = message
        .chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    match text.char_indices().nth(300) {
        None => text,
        Some((at, _)) => format!("{}… ({} characters)", &text[..at], text.chars().count()),
    }
}

/// At most 80 characters of `text` for an error message, with the size of what was cut:
/// a 50 MB line in an input file must not be echoed whole.
pub fn clip(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        None => text.to_string(),
        Some((at, _)) => format!("{}… ({} bytes)", &text[..at], text.len()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_parser_error_quoting_a_newline_or_a_long_value_is_one_short_line() {
        #[derive(Debug, serde::Deserialize)]
        enum Label {
            Exception,
        }
        let err = serde_json::from_str::<Label>("\"excepti\\n\"").unwrap_err();
        assert!(
            err.to_string().contains('\n'),
            "serde quotes the newline: {err}"
        );
        let line = super::escaped_line(&err.to_string());
        assert!(
            !line.contains('\n') && line.contains("excepti\\n"),
            "{line}"
        );
        let long = format!("\"{}\"", "x".repeat(10_000));
        let err = serde_json::from_str::<u32>(&long).unwrap_err();
        let line = super::escaped_line(&err.to_string());
        assert!(
            line.chars().count() < 340 && line.contains("characters)"),
            "{line}"
        );
    }

    #[test]
    fn clip_keeps_short_text_and_cuts_long_text() {
        assert_eq!(super::clip("java.util.List"), "java.util.List");
        let long = "x".repeat(50_000_000);
        let c = super::clip(&long);
        assert!(c.len() < 120 && c.ends_with("(50000000 bytes)"), "{c}");
    }
}
