//! The primitive and String values sequences start from: Randoop's defaults (section III-F
//! of the regression-suite paper: -1, 0, 1, 10, 100; '#', ' ', '4', 'a'; "", "hi!"; true,
//! false) plus the user's `--literals-file`.
//!
//! A literals file has one literal a line, `TYPE VALUE`, `#` comments:
//!
//! ```text
//! int 42
//! double -0.5
//! char 'x'
//! String "hello, world\u00E9"
//! ```
//!
//! Text is written with the escapes of suite files (`\n`, `\t`, `\\`, `\uXXXX`, and `\"` or
//! `\'` for the quote itself).

use crate::sequence::unescape;
use std::path::{Path, PathBuf};

/// A literal: its type (`int`, …, `char`, `java.lang.String`) and escaped Java text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    /// The type the value is offered to.
    pub ty: String,
    /// The value, as Java source.
    pub value: String,
}

/// A line of a literals file that is not a literal.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {message}", path.display(), at_line(*line))]
pub struct LiteralsError {
    /// The literals file.
    pub path: PathBuf,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

/// `:LINE`, or nothing for an error about the whole file (line 0).
fn at_line(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}")
    }
}

fn lit(ty: &str, value: &str) -> Literal {
    Literal {
        ty: ty.to_string(),
        value: value.to_string(),
    }
}

/// Randoop's default literals.
pub(crate) fn defaults() -> Vec<Literal> {
    let mut out = Vec::new();
    for ty in ["byte", "short", "int", "long"] {
        out.extend(["-1", "0", "1", "10", "100"].map(|v| lit(ty, v)));
    }
    for ty in ["float", "double"] {
        out.extend(["-1.0", "0.0", "1.0", "10.0", "100.0"].map(|v| lit(ty, v)));
    }
    out.extend(["#", " ", "4", "a"].map(|v| lit("char", v)));
    out.extend(["", "hi!"].map(|v| lit("java.lang.String", v)));
    out.extend(["true", "false"].map(|v| lit("boolean", v)));
    out
}

/// Reads a literals file.
pub fn read(path: &Path) -> Result<Vec<Literal>, LiteralsError> {
    use crate::atomic::bounded::{MAX_TEXT_BYTES, read_text};
    let text = read_text(path, MAX_TEXT_BYTES, "literals file").map_err(|e| LiteralsError {
        path: path.to_path_buf(),
        line: 0,
        message: e.problem.to_string(),
    })?;
    parse(&text).map_err(|(line, message)| LiteralsError {
        path: path.to_path_buf(),
        line,
        message,
    })
}

/// Parses the text of a literals file; errors carry the line number.
pub(crate) fn parse(text: &str) -> Result<Vec<Literal>, (usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let clipped = crate::text::clip(line);
        let at = |m: String| (n + 1, m.replace(line, &clipped));
        out.push(parse_line(line).map_err(at)?);
    }
    Ok(out)
}

fn parse_line(line: &str) -> Result<Literal, String> {
    let (ty, value) = line
        .split_once(char::is_whitespace)
        .ok_or("expected `TYPE VALUE`")?;
    let value = value.trim();
    let ty = if ty == "String" {
        "java.lang.String"
    } else {
        ty
    };
    let text = match ty {
        "java.lang.String" => unquote(value, '"')?,
        "char" => {
            let t = unquote(value, '\'')?;
            if unescape(&t).map(|u| u.len()) != Some(1) {
                return Err(format!("not one char: {value}"));
            }
            t
        }
        "boolean" if value == "true" || value == "false" => value.to_string(),
        "byte" | "short" | "int" | "long" if integer(ty, value) => value.to_string(),
        "float" | "double" if decimal(value) => value.to_string(),
        "boolean" | "byte" | "short" | "int" | "long" | "float" | "double" => {
            return Err(format!("not a {ty}: {value}"));
        }
        other => return Err(format!("no literals of type {other}")),
    };
    Ok(lit(ty, &text))
}

/// The escaped text between quotes `q`, with `\q` turned into `q`.
fn unquote(value: &str, q: char) -> Result<String, String> {
    let inner = value
        .strip_prefix(q)
        .and_then(|v| v.strip_suffix(q))
        .filter(|_| value.len() >= 2)
        .ok_or_else(|| format!("expected a value between {q} quotes: {value}"))?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(n) if n == q => out.push(q),
            Some(n) => {
                out.push('\\');
                out.push(n);
            }
            None => return Err("a trailing backslash".into()),
        }
    }
    unescape(&out).ok_or_else(|| format!("bad escape in {value}"))?;
    if out.chars().any(|c| !(' '..='~').contains(&c)) {
        return Err(format!("write other characters as \\uXXXX: {value}"));
    }
    Ok(out)
}

fn integer(ty: &str, v: &str) -> bool {
    match ty {
        "byte" => v.parse::<i8>().is_ok(),
        "short" => v.parse::<i16>().is_ok(),
        "int" => v.parse::<i32>().is_ok(),
        _ => v.parse::<i64>().is_ok(),
    }
}

/// Text that Java's `Double.valueOf` reads the same way Rust does.
fn decimal(v: &str) -> bool {
    let digits = v.trim_start_matches(['-', '+']);
    matches!(digits, "NaN" | "Infinity")
        || (digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
            && digits
                .chars()
                .all(|c| c.is_ascii_digit() || ".eE-+".contains(c))
            && v.parse::<f64>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_randoops() {
        let d = defaults();
        assert!(d.contains(&lit("int", "100")) && d.contains(&lit("char", " ")));
        assert!(d.contains(&lit("java.lang.String", "hi!")) && d.contains(&lit("double", "-1.0")));
    }

    #[test]
    fn file_lines_are_parsed_and_checked() {
        let text = "# mine\nint 42\nString \"a \\\"b\\\" \\u00E9\"\nchar '\\''\ndouble -1e3\n";
        let got = parse(text).unwrap();
        assert_eq!(got[0], lit("int", "42"));
        assert_eq!(got[1], lit("java.lang.String", "a \"b\" \\u00E9"));
        assert_eq!(got[2], lit("char", "'"));
        assert_eq!(got[3], lit("double", "-1e3"));
        assert_eq!(parse("int 3000000000").unwrap_err().0, 1);
        assert!(parse("\n\nbyte x").unwrap_err().1.contains("not a byte"));
        assert!(parse("double inf").is_err());
        assert!(parse("char 'ab'").is_err());
        assert!(parse("java.util.List x").is_err());
        assert!(parse("String unquoted").is_err());
    }
}
