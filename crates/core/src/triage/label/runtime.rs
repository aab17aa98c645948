//! The *runtime version* rule: a value that names the implementation's own release
//! (`Provider.getVersion()` 17.0 → 21.0, `"SunEC version 17"` → `"SunEC version 21"`)
//! changed from the reference's feature release to the target's. That is the runtime's
//! release, not the data a family of classes reads, so no data family swallows it: it is a
//! cause of its own. The releases come from the two fingerprints ([`feature_release`]).

use super::Evidence;

/// The key under which [`super::Versions`] carries each side's feature release.
pub(crate) const RUNTIME: &str = "runtime";

/// The feature release a fingerprint starts with: `17.0.9+9 Eclipse Adoptium …` → `17`,
/// `1.8.0_392 …` → `8`; `None` when it does not start with a version.
pub(crate) fn feature_release(fingerprint: &str) -> Option<String> {
    let version = fingerprint.split_whitespace().next()?;
    let mut numbers = version.split(|c: char| !c.is_ascii_digit());
    let first = numbers.next().filter(|n| !n.is_empty())?;
    let feature = if first == "1" { numbers.next()? } else { first };
    (!feature.is_empty()).then(|| feature.to_string())
}

/// `runtime version A → B` when every changed stretch of the values swaps the reference's
/// feature release for the target's, and the value is named a version: the method's name
/// says `version`, or the word `version` comes just before the number.
pub(super) fn runtime_version(e: &Evidence) -> Option<String> {
    let v = e.versions?;
    let (a, b) = (v.reference.get(RUNTIME)?, v.target.get(RUNTIME)?);
    if a == b {
        return None;
    }
    let hunks = crate::text::hunk_spans(e.ref_value, e.tgt_value);
    let method = e.callee.split('(').next().unwrap_or(e.callee);
    let name = method.rsplit('.').next().unwrap_or(method);
    let named = name.to_ascii_lowercase().contains("version");
    let swaps = |h: &crate::text::HunkSpan| {
        let labelled = named || after_word_version(&e.ref_value[..h.old_at]);
        labelled && is_release(&h.gone, a) && is_release(&h.added, b)
    };
    (!hunks.is_empty() && hunks.iter().all(swaps)).then(|| format!("runtime version {a} → {b}"))
}

/// `17`, `17.0`, `17.0.9`: the release `feature`, alone or with further numbers.
fn is_release(token: &str, feature: &str) -> bool {
    let Some(rest) = token.strip_prefix(feature) else {
        return false;
    };
    rest.is_empty()
        || (rest.starts_with('.') && rest.chars().all(|c| c == '.' || c.is_ascii_digit()))
}

/// Whether `before` ends with the word `version` and a space (`SunEC version `).
fn after_word_version(before: &str) -> bool {
    let trimmed = before.trim_end_matches(' ');
    trimmed.len() < before.len() && trimmed.to_ascii_lowercase().ends_with("version")
}
