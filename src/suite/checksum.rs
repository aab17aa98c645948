//! The suite's integrity lines (format 3). Every test entry ends with `  sum: HEX`, the
//! 64-bit XXH3 of the entry's own lines (from `- id:` up to the sum line), so the reader names
//! the exact test that was changed. The file ends with one comment line,
//!
//! ```text
//! # end: 59249 tests, 56 error-revealing, xxh3 0123456789abcdef
//! ```
//!
//! whose counts catch deleted or added tests and whose digest covers every byte before it
//! (banner, header, exception table, tests and their sums), so an edited header or a cut file
//! is caught too. Both are per entry and per stream, so a streaming or sharded reader can
//! check a test as it reads it and the whole file when it reaches the end. The hash is
//! XXH3-64: not a defence against someone who recomputes it, but against corruption and
//! careless edits, at memory speed (a 160 MB suite costs a few hundredths of a second).

/// The line that ends a test entry, before the hex digest.
pub const SUM: &str = "  sum: ";

/// The first words of the last line of a suite.
pub const END: &str = "# end: ";

/// The digest of some bytes.
pub fn digest(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// A streaming digest of everything written so far.
pub struct Running(xxhash_rust::xxh3::Xxh3);

impl Default for Running {
    fn default() -> Self {
        Running(xxhash_rust::xxh3::Xxh3::new())
    }
}

impl Running {
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    pub fn value(&self) -> u64 {
        self.0.digest()
    }
}

/// The sum line of an entry whose text (with its final newline) is `entry`.
pub fn sum_line(entry: &str) -> String {
    format!("{SUM}{:016x}\n", digest(entry.as_bytes()))
}

/// The last line of a suite.
pub fn end_line(tests: usize, errors: usize, total: u64) -> String {
    format!("{END}{tests} tests, {errors} error-revealing, xxh3 {total:016x}\n")
}

/// What an end line says: tests, error-revealing tests, digest.
#[derive(Debug, PartialEq, Eq)]
pub struct End {
    pub tests: usize,
    pub errors: usize,
    pub total: u64,
}

/// Parses an end line (without its newline).
pub fn parse_end(line: &str) -> Option<End> {
    let rest = line.strip_prefix(END)?;
    let (tests, rest) = rest.split_once(" tests, ")?;
    let (errors, rest) = rest.split_once(" error-revealing, xxh3 ")?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some(End {
        tests: number(tests)?,
        errors: number(errors)?,
        total: parse_hex(rest)?,
    })
}

/// A 16-digit lowercase hex digest.
pub fn parse_hex(s: &str) -> Option<u64> {
    let ok = s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    ok.then(|| u64::from_str_radix(s, 16).ok()).flatten()
}

/// Recomputes every sum line and the end line of a suite written by hand (or by a test
/// that edits one on purpose): the text is taken as it is, trusted, and sealed. Entries
/// are `- id:` lines at the start of a line after the `tests:` line; old sum and end lines
/// are dropped. Not used on any file difftest reads on its own.
pub fn seal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut entry: Option<usize> = None;
    let (mut tests, mut errors, mut in_errors, mut in_body) = (0, 0, false, false);
    let close = |out: &mut String, entry: &mut Option<usize>| {
        if let Some(start) = entry.take() {
            let line = sum_line(&out[start..]);
            out.push_str(&line);
        }
    };
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if bare.starts_with(SUM) || bare.starts_with(END) {
            continue;
        }
        let top = !bare.starts_with(' ') && !bare.is_empty();
        if top && in_body {
            close(&mut out, &mut entry);
        }
        if bare.starts_with("tests:") {
            in_body = true;
        }
        if bare.starts_with("error_revealing:") {
            in_errors = true;
        }
        if in_body && bare.starts_with("- id: ") {
            entry = Some(out.len());
            if in_errors {
                errors += 1;
            } else {
                tests += 1;
            }
        }
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push('\n');
        }
    }
    close(&mut out, &mut entry);
    let total = digest(out.as_bytes());
    out.push_str(&end_line(tests, errors, total));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_lines_round_trip_and_reject_near_misses() {
        let line = end_line(12, 3, 0xfeed);
        let parsed = parse_end(line.trim_end()).unwrap();
        assert_eq!(
            parsed,
            End {
                tests: 12,
                errors: 3,
                total: 0xfeed
            }
        );
        for bad in [
            "# end: 12 tests, 3 error-revealing, xxh3 000000000000FEED",
            "# end: +12 tests, 3 error-revealing, xxh3 000000000000feed",
            "# end: 12 tests, 3 error-revealing, xxh3 feed",
            "# end: 12 tests 3 error-revealing, xxh3 000000000000feed",
        ] {
            assert!(parse_end(bad).is_none(), "{bad}");
        }
    }
}
