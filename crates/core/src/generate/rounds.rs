//! How large each round is. A round runs as one batch and waits for its slowest call before
//! the round after next is drafted, so fewer, larger rounds keep the workers busier (1.55×
//! the sequences per second with rounds of 2,000 rather than 400, side by side on 2 cores).
//! But feedback arrives a round at a time: a catalogue swept, its elements read, each
//! looked up, the objects passed on, their products called is one step per round (two, with
//! two rounds in flight). Rounds that doubled from the first cut a small record (an output
//! limit of 1,500 tests) to half a dozen rounds, too few for those chains to end. So a round
//! grows with what was generated before it: at most an eighth of it, never smaller than the
//! first, never larger than [`ROUND_GROWTH`] first rounds. A small record keeps the rounds it
//! had, a long one spends most of its time in the largest (docs/benchmarks.md, "Where the
//! time goes").

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

#[cfg(test)]
mod tests {
    use super::*;

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
