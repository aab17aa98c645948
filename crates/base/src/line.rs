//! Error text that quotes input handed to us: cut to a readable length, and kept on one
//! line whatever control characters the input held.

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
