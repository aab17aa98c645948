//! Where a streamed replay pass cuts its tests into segments, each run in a fresh JVM. The
//! first pass cuts every `--segment` tests; a confirmation pass cuts the failing tests only
//! where the first pass did, into a few segments of about equal size, so each test is
//! confirmed beside the failing tests of its own first-pass segment and several workers share
//! the pass, instead of one segment of up to `--segment` failing tests (the main job's
//! 20,000) that a single worker runs while the others wait. The first pass's segments are
//! of equal size and, when there are several, an even number of them
//! ([`first_pass_segment`]), so two workers finish together instead of one running the
//! short last segment alone; a suite below `--segment` is still spread over a few segments,
//! so it does not run on one worker.

use std::sync::Arc;

/// Segments of a confirmation pass at most: enough for a few workers to share it, few
/// enough that the JVMs it starts, each warming up again, cost little (a fresh JVM per
/// first-pass segment cost more CPU than the idle worker it saved, on a loaded 2-core
/// machine).
pub(crate) const CONFIRM_SEGMENTS: usize = 4;

/// Segments the first pass cuts a suite into at least, when it has enough tests for them
/// ([`SPREAD_FROM`] each): enough for the cores of a usual CI machine, whatever `--segment`
/// allows, so a suite below `--segment` does not run on one worker while the others wait.
pub(crate) const SPREAD: usize = 4;

/// Tests a segment needs before the first pass spreads a suite over more segments than
/// `--segment` asks for: below it a JVM's warm-up (about 2 s of CPU on the JDK's scope)
/// costs more than a second worker saves.
pub(crate) const SPREAD_FROM: usize = 10_000;

/// The size of the first pass's segments for `total` tests and at most `segment` a
/// segment: as many segments as `segment` needs, one more when that is odd and above one,
/// and at least [`SPREAD`], or the most even number of segments of [`SPREAD_FROM`] tests
/// the suite fills (none: one segment); the tests spread evenly over them.
/// Depends only on the suite and `--segment`, never on `--jobs`, so a replay cuts the same
/// segments on every machine.
pub(crate) fn first_pass_segment(total: usize, segment: usize) -> usize {
    let segment = segment.max(1);
    let spread = SPREAD.min(total / SPREAD_FROM) & !1; // even, as below
    let mut count = total.div_ceil(segment).max(spread);
    if count > 1 && count % 2 == 1 {
        count += 1;
    }
    total.div_ceil(count.max(1)).max(1)
}

/// The segments of one pass, in the numbering of the tests its source gives.
#[derive(Clone, Debug)]
pub(crate) enum Cuts {
    /// A segment every this many tests (at least 1), as many as the source has tests for.
    Every(usize),
    /// A segment at each of these indexes, ascending, the first 0; the last one runs to the
    /// end of the source.
    At(Arc<[usize]>),
}

impl Cuts {
    /// Where segment `k` starts, if the cuts name it (`Every` names them all: the source
    /// says whether it has tests there).
    pub(crate) fn start(&self, k: usize) -> Option<usize> {
        match self {
            Cuts::Every(size) => k.checked_mul((*size).max(1)),
            Cuts::At(starts) => starts.get(k).copied(),
        }
    }

    /// How many tests segment `k` takes at most.
    pub(crate) fn len(&self, k: usize) -> usize {
        match self {
            Cuts::Every(size) => (*size).max(1),
            Cuts::At(starts) => match (starts.get(k), starts.get(k + 1)) {
                (Some(a), Some(b)) => b - a,
                _ => usize::MAX,
            },
        }
    }

    /// The cuts of the tests `chosen` takes out of a pass whose tests lay in `segments`
    /// (each test's segment, in the source's order), in at most [`CONFIRM_SEGMENTS`]
    /// segments: consecutive first-pass segments are joined, never split, so a test is
    /// confirmed beside the chosen tests of its own first-pass segment, and a new segment
    /// starts once the current one holds its share of the chosen tests.
    pub(crate) fn following(segments: &[usize], chosen: impl Fn(usize) -> bool) -> Cuts {
        let picked: Vec<usize> = (segments.iter().enumerate())
            .filter(|&(i, _)| chosen(i))
            .map(|(_, &segment)| segment)
            .collect();
        let share = picked.len().div_ceil(CONFIRM_SEGMENTS).max(1);
        let mut starts = Vec::new();
        let mut begun = 0; // where the current segment started
        for (i, &segment) in picked.iter().enumerate() {
            let new_segment = i == 0 || picked[i - 1] != segment;
            if new_segment && (starts.is_empty() || i - begun >= share) {
                starts.push(i);
                begun = i;
            }
        }
        Cuts::At(starts.into())
    }
}

#[cfg(test)]
mod tests {
    use super::Cuts;

    #[test]
    fn every_names_each_segment_and_its_size() {
        let cuts = Cuts::Every(3);
        assert_eq!(
            (cuts.start(0), cuts.start(2), cuts.len(5)),
            (Some(0), Some(6), 3)
        );
        assert_eq!(Cuts::Every(0).len(1), 1);
    }

    #[test]
    fn the_first_pass_cuts_an_even_number_of_equal_segments() {
        use super::first_pass_segment;
        // 267,500 tests: 11 segments of at most 25,000 become 12 of 22,292.
        assert_eq!(first_pass_segment(267_500, 25_000), 22_292);
        assert_eq!(first_pass_segment(200_000, 25_000), 25_000, "8 already");
        assert_eq!(first_pass_segment(30_000, 25_000), 15_000);
        assert_eq!(
            (first_pass_segment(0, 25_000), first_pass_segment(5, 0)),
            (1, 1)
        );
        for total in [1, 24_999, 25_001, 75_001, 267_500] {
            let size = first_pass_segment(total, 25_000);
            let count = total.div_ceil(size);
            assert!(
                size <= 25_000 && (count == 1 || count % 2 == 0),
                "{total}: {size}"
            );
        }
    }

    #[test]
    fn a_suite_below_the_segment_size_is_spread_over_a_few_segments() {
        use super::{SPREAD_FROM, first_pass_segment};
        let default = crate::replay::DEFAULT_SEGMENT;
        // The main job's 240,000 tests: 4 segments of 60,000, not 3 of 80,000.
        assert_eq!(first_pass_segment(240_000, default), 60_000);
        assert_eq!(first_pass_segment(60_000, default), 15_000, "4, not 1");
        assert_eq!(
            first_pass_segment(35_000, default),
            17_500,
            "2 that fill 10,000"
        );
        assert_eq!(first_pass_segment(25_000, default), 12_500, "2 of 12,500");
        let small = 2 * SPREAD_FROM - 1;
        assert_eq!(first_pass_segment(small, default), small, "too few: one");
        assert_eq!(
            first_pass_segment(600_000, default),
            100_000,
            "6 of 100,000"
        );
        assert_eq!(
            first_pass_segment(60_000, 100),
            100,
            "--segment still bounds it"
        );
    }

    #[test]
    fn following_cuts_only_where_the_chosen_tests_change_segment() {
        // Tests 0..7 lay in segments 0,0,0,1,1,2,2; the chosen ones are 1, 2, 5 and 6.
        let segments = [0, 0, 0, 1, 1, 2, 2];
        let cuts = Cuts::following(&segments, |i| [1, 2, 5, 6].contains(&i));
        assert_eq!(
            (cuts.start(0), cuts.start(1), cuts.start(2)),
            (Some(0), Some(2), None)
        );
        assert_eq!((cuts.len(0), cuts.len(1)), (2, usize::MAX));
    }

    #[test]
    fn following_joins_segments_into_a_few_of_about_equal_size() {
        // Nine first-pass segments of 100 failing tests each: four segments, whole ones joined.
        let segments: Vec<usize> = (0..900).map(|i| i / 100).collect();
        let cuts = Cuts::following(&segments, |_| true);
        let starts: Vec<usize> = (0..).map_while(|k| cuts.start(k)).collect();
        assert_eq!(starts, [0, 300, 600]);
        assert!(starts.len() <= super::CONFIRM_SEGMENTS);
    }

    #[test]
    fn following_nothing_chosen_has_no_segment() {
        let cuts = Cuts::following(&[0, 1], |_| false);
        assert_eq!(cuts.start(0), None);
    }
}
