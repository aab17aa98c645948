//! How large each round is. A round runs as one batch and waits for its slowest call before
//! the round after next is drafted, so fewer, larger rounds keep the workers busier (1.55×
//! the sequences per second with rounds of 2,000 rather than 400, side by side on 2 cores).
//! But feedback arrives a round at a time: a catalogue swept, its elements read, each
//! looked up, the objects passed on, their products called is one step per round (two, with
//! two rounds in flight). Rounds that doubled from the first cut a small record (an output
//! limit of 1,500 tests) to half a dozen rounds, too few for those chains to end. So a round
//! grows with what was generated before it: at most an eighth of it, never smaller than the
//! first, never larger than [`ROUND_GROWTH`] first rounds. A small record keeps the rounds it
//! had, a long one spends most of its time in the largest (docs/benchmarks-history.md,
//! "Where the time goes").
//!
//! A round's memory (its requests, and the workers' answers, two rounds in flight) grows with
//! the length of its sequences, and sequences grow longer as generation goes on: the largest
//! round's requests went from 4.9 MiB at 245,000 sequences to 11.8 MiB at 2.1 million. So a
//! round also holds at most about [`ROUND_BYTES`] of requests, by the size of the last
//! round's requests ([`round_size_capped`]).

/// The largest round, in first rounds.
pub(crate) const ROUND_GROWTH: usize = 5;

/// A round is at most this fraction of the sequences generated before it.
const GROWTH_DIVISOR: u64 = 8;

/// Candidates in the next round when the first had `first` and `generated` sequences have
/// been folded back: `generated / 8`, within `first ..= 5 × first`. It depends only on what
/// was folded, so a seed still gives one suite.
pub(crate) fn round_size_at(first: usize, generated: u64) -> usize {
    let first = first.max(1);
    let share = usize::try_from(generated / GROWTH_DIVISOR).unwrap_or(usize::MAX);
    share.clamp(first, first.saturating_mul(ROUND_GROWTH))
}

/// The requests one round holds at most, about (estimated as `footprint` does): above
/// the largest round of a 60 s record (4.9 MiB), so that record's rounds are
/// unchanged, and a long record's rounds stop growing with their sequences.
pub(crate) const ROUND_BYTES: u64 = 6 << 20;

/// [`round_size_at`], and no more sequences than [`ROUND_BYTES`] holds at `each` bytes a
/// request (the last round's average; 0 before any round), at least one. It depends only on
/// what was drafted and folded, so a seed still gives one suite.
pub(crate) fn round_size_capped(first: usize, generated: u64, each: u64) -> usize {
    let size = round_size_at(first, generated);
    match ROUND_BYTES.checked_div(each) {
        Some(most) => size.min(usize::try_from(most).unwrap_or(usize::MAX).max(1)),
        None => size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_of_long_sequences_holds_about_round_bytes() {
        assert_eq!(round_size_capped(400, 1_000_000, 0), 2000, "no round yet");
        assert_eq!(round_size_capped(400, 1_000_000, 2_500), 2000, "short ones");
        assert_eq!(round_size_capped(400, 1_000_000, 6_000), 1048);
        assert_eq!(round_size_capped(400, 0, 6_000), 400, "first rounds too");
        assert_eq!(
            round_size_capped(400, 1_000_000, u64::MAX),
            1,
            "at least one"
        );
    }

    #[test]
    fn rounds_grow_with_what_was_generated_up_to_five_first_rounds() {
        let sizes: Vec<usize> = [0, 3_200, 4_000, 8_000, 16_000, 1_000_000]
            .iter()
            .map(|&n| round_size_at(400, n))
            .collect();
        assert_eq!(sizes, [400, 400, 500, 1000, 2000, 2000]);
        assert_eq!(round_size_at(0, 0), 1, "at least one candidate");
        assert_eq!(
            round_size_at(usize::MAX, u64::MAX),
            usize::MAX,
            "no overflow"
        );
    }
}
