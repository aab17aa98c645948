//! The two halves of the known-changes list (README of `examples/known-changes`, "The
//! split"): an id the list held when it was split (`split-base.txt` beside it) is `tuning`
//! or `validation` by the low bit of the first byte of SHA-256 of its UTF-8 bytes; an id
//! added later is `validation`. The list's `half:` fields must agree with the rule.

use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The file beside `changes.yaml` that lists the ids the list held at the split.
pub(super) const SPLIT_BASE: &str = "split-base.txt";

/// Which half of the list an item belongs to.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Half {
    /// Mechanisms may be developed against these items.
    Tuning,
    /// Held out: only measured.
    Validation,
}

impl Half {
    /// Both halves, tuning first.
    pub const BOTH: [Half; 2] = [Half::Tuning, Half::Validation];

    /// `tuning` or `validation`.
    pub fn name(self) -> &'static str {
        match self {
            Half::Tuning => "tuning",
            Half::Validation => "validation",
        }
    }
}

/// The ids the list held when it was split.
#[derive(Debug, Default)]
pub(crate) struct SplitBase {
    ids: HashSet<String>,
}

impl SplitBase {
    /// Reads `split-base.txt` beside `changes`: one id a line, `#` comments.
    pub(crate) fn beside(changes: &Path) -> Result<SplitBase, (PathBuf, String)> {
        let path = changes.with_file_name(SPLIT_BASE);
        use crate::atomic::bounded::{MAX_TEXT_BYTES, read_text};
        let text = read_text(&path, MAX_TEXT_BYTES, "split base")
            .map_err(|e| (path.clone(), e.problem.to_string()))?;
        Ok(SplitBase::parse(&text))
    }

    pub(crate) fn parse(text: &str) -> SplitBase {
        let ids = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        SplitBase { ids }
    }

    /// The half the rule gives `id`.
    pub(crate) fn half(&self, id: &str) -> Half {
        if !self.ids.contains(id) {
            return Half::Validation;
        }
        by_hash(id)
    }
}

/// The low bit of SHA-256(id)'s first byte: 0 tuning, 1 validation.
pub(super) fn by_hash(id: &str) -> Half {
    if Sha256::digest(id.as_bytes())[0] & 1 == 0 {
        Half::Tuning
    } else {
        Half::Validation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_rule_matches_sha256_and_later_ids_are_validation() {
        // SHA-256("abc") = ba7816bf… (0xba even), SHA-256("x") = 2d711642… (0x2d odd).
        assert_eq!(by_hash("abc"), Half::Tuning);
        assert_eq!(by_hash("x"), Half::Validation);
        let base = SplitBase::parse("# comment\nabc\nx\n");
        assert_eq!(base.half("abc"), Half::Tuning);
        assert_eq!(base.half("x"), Half::Validation);
        assert_eq!(base.half("new-item"), Half::Validation);
        assert_eq!(base.half("# comment"), Half::Validation);
    }
}
