//! The suite's integrity lines (format 3 on). Every test entry ends with `  sum: HEX`, the
//! 64-bit XXH3 of the entry's own lines (from `- id:` up to the sum line) followed, from
//! format 4, by the sums of the shared blocks it names (one hex digest a line, in order), so
//! a test's sum covers its whole expansion and the reader names the exact test or block
//! that was changed. The file ends with one comment line,
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
pub(crate) const SUM: &str = "  sum: ";

/// The first words of the last line of a suite.
pub(crate) const END: &str = "# end: ";

/// The digest of some bytes.
pub fn digest(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// A streaming digest of everything written so far.
pub(crate) struct Running(xxhash_rust::xxh3::Xxh3);

impl Default for Running {
    fn default() -> Self {
        Running(xxhash_rust::xxh3::Xxh3::new())
    }
}

impl Running {
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    pub(crate) fn value(&self) -> u64 {
        self.0.digest()
    }
}

/// The sum line of an entry whose text (with its final newline) is `entry`.
pub(crate) fn sum_line(entry: &str) -> String {
    format!("{SUM}{:016x}\n", digest(entry.as_bytes()))
}

/// The last line of a suite.
pub(crate) fn end_line(tests: usize, errors: usize, total: u64) -> String {
    format!("{END}{tests} tests, {errors} error-revealing, xxh3 {total:016x}\n")
}

/// What an end line says: tests, error-revealing tests, digest.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct End {
    pub tests: usize,
    pub errors: usize,
    pub total: u64,
}

/// Parses an end line (without its newline).
pub(crate) fn parse_end(line: &str) -> Option<End> {
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
pub(crate) fn parse_hex(s: &str) -> Option<u64> {
    let ok = s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    ok.then(|| u64::from_str_radix(s, 16).ok()).flatten()
}

/// Recomputes every sum line and the end line of a suite written by hand (or by a test
/// that edits one on purpose): the text is taken as it is, trusted, and sealed. Entries
/// are `- id:` and `- shared:` lines at the start of a line after the `tests:` line; an
/// entry that names blocks gets their new sums in its own; old sum and end lines are
/// dropped. Not used on any file difftest reads on its own.
pub fn seal(text: &str) -> String {
    use super::blocks::{SHARED, is_ref, parse_ref, parse_shared};
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    // The open entry: where it starts, its block number, the sums of the blocks it names.
    let mut entry: Option<(usize, Option<u64>, String)> = None;
    let mut sums = std::collections::HashMap::new();
    let (mut tests, mut errors, mut in_errors, mut in_body) = (0, 0, false, false);
    let close = |out: &mut String,
                 entry: &mut Option<(usize, Option<u64>, String)>,
                 sums: &mut std::collections::HashMap<u64, String>| {
        if let Some((start, block, refs)) = entry.take() {
            let text = format!("{}{refs}", &out[start..]);
            let hex = format!("{:016x}", digest(text.as_bytes()));
            out.push_str(&format!("{SUM}{hex}\n"));
            if let Some(n) = block {
                sums.insert(n, hex);
            }
        }
    };
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if bare.starts_with(SUM) || bare.starts_with(END) {
            continue;
        }
        let top = !bare.starts_with(' ') && !bare.is_empty();
        if top && in_body {
            close(&mut out, &mut entry, &mut sums);
        }
        if bare.starts_with("tests:") {
            in_body = true;
        }
        if bare.starts_with("error_revealing:") {
            in_errors = true;
        }
        if in_body && bare.starts_with("- id: ") {
            entry = Some((out.len(), None, String::new()));
            if in_errors {
                errors += 1;
            } else {
                tests += 1;
            }
        }
        if let Some(rest) = bare.strip_prefix(SHARED).filter(|_| in_body) {
            let number = parse_shared(rest).map(|p| p.0);
            entry = Some((out.len(), number, String::new()));
        }
        let content = bare.strip_prefix("    ").filter(|c| is_ref(c.as_bytes()));
        if let (Some(content), Some((_, _, refs))) = (content, entry.as_mut()) {
            let named = parse_ref(content).ok().and_then(|r| sums.get(&r.2));
            if let Some(sum) = named {
                refs.push_str(sum);
                refs.push('\n');
            }
        }
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push('\n');
        }
    }
    close(&mut out, &mut entry, &mut sums);
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
