use super::*;
use crate::pool::fake::{Flavor, FreshLane, SharedLane, counter_test};

fn lane() -> SharedLane {
    SharedLane::target()
}

#[test]
fn shard_specs_parse_and_reject_nonsense() {
    assert_eq!("2/4".parse::<Shard>(), Ok(Shard { k: 2, n: 4 }));
    for bad in ["0/4", "5/4", "1/0", "a/2", "2", "1/b", ""] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    assert_eq!(
        format!("{MAX_SHARDS}/{MAX_SHARDS}").parse::<Shard>(),
        Ok(Shard {
            k: MAX_SHARDS,
            n: MAX_SHARDS
        })
    );
    let e = format!("1/{}", MAX_SHARDS + 1)
        .parse::<Shard>()
        .unwrap_err();
    assert!(e.to_string().contains("at most 1024"), "{e}");
    let e = "5/4".parse::<Shard>().unwrap_err().to_string();
    assert!(e.contains("5/4") && e.contains("K/N"), "{e}");
}

#[test]
fn shards_split_every_id_exactly_once_and_evenly() {
    let n = 4;
    let mut sizes = vec![0; n as usize];
    for id in 0..10_000u64 {
        let owners: Vec<u32> = (1..=n).filter(|&k| Shard { k, n }.contains(id)).collect();
        assert_eq!(owners.len(), 1, "id {id}");
        sizes[(owners[0] - 1) as usize] += 1;
    }
    assert!(
        sizes.iter().all(|&s| (2300..2700).contains(&s)),
        "{sizes:?}"
    );
}

#[test]
fn replay_finds_the_injected_difference_and_passes_the_rest() {
    let tests = [
        counter_test(1, &[1, 2], 0, "get"),
        counter_test(2, &[7], 1, "get"),
        counter_test(3, &[3], 0, "get"),
    ];
    let refs: Vec<&Test> = tests.iter().collect();
    let outcomes = replay(&refs, &lane(), &ReplayOptions::default(), &|_| {}).unwrap();
    assert_eq!(outcomes[0], TestOutcome::Pass);
    assert_eq!(outcomes[2], TestOutcome::Pass);
    let TestOutcome::Differs { verdict } = &outcomes[1] else {
        panic!("{:?}", outcomes[1])
    };
    assert_eq!(verdict.divergence().unwrap().callee, "t.Counter.get()");
}

#[test]
fn results_do_not_depend_on_order_or_chunking() {
    let tests: Vec<Test> = (0..40)
        .map(|i| counter_test(i, &[i as i64 % 9], (i % 3) as usize, "get"))
        .collect();
    let refs: Vec<&Test> = tests.iter().collect();
    let opts = ReplayOptions {
        confirm: 1,
        segment: 7,
    };
    let a = replay(&refs, &lane(), &opts, &|_| {}).unwrap();
    let mut reversed = refs.clone();
    reversed.reverse();
    let mut b = replay(&reversed, &lane(), &opts, &|_| {}).unwrap();
    b.reverse();
    assert_eq!(a, b);
}

#[test]
fn a_test_that_changes_between_runs_is_unstable_not_a_difference() {
    let tests = [
        counter_test(1, &[1], 0, "flaky"),
        counter_test(2, &[7], 0, "get"),
    ];
    let refs: Vec<&Test> = tests.iter().collect();
    let l = lane();
    let outcomes = replay(&refs, &l, &ReplayOptions::default(), &|_| {}).unwrap();
    assert!(
        matches!(outcomes[0], TestOutcome::Unstable { .. }),
        "{:?}",
        outcomes[0]
    );
    assert!(matches!(outcomes[1], TestOutcome::Differs { .. }));
    assert_eq!(
        l.starts.load(std::sync::atomic::Ordering::Relaxed),
        2,
        "one fresh start to confirm"
    );
    let none = ReplayOptions {
        confirm: 0,
        segment: 10,
    };
    let outcomes = replay(&refs, &lane(), &none, &|_| {}).unwrap();
    assert!(matches!(
        outcomes[0],
        TestOutcome::Differs { .. } | TestOutcome::Pass
    ));
}

#[test]
fn hangs_and_crashes_are_reported_and_the_rest_still_replayed() {
    let tests = [
        counter_test(1, &[1], 0, "spin"),
        counter_test(2, &[1], 0, "boom"),
        counter_test(3, &[1], 0, "get"),
    ];
    let refs: Vec<&Test> = tests.iter().collect();
    let outcomes = replay(&refs, &lane(), &ReplayOptions::default(), &|_| {}).unwrap();
    let kind = |o: &TestOutcome| match o {
        TestOutcome::Differs { verdict } => verdict.divergence().map(|d| d.kind),
        _ => None,
    };
    assert_eq!(kind(&outcomes[0]), Some(crate::compare::Kind::Timeout));
    assert_eq!(kind(&outcomes[1]), Some(crate::compare::Kind::Crash));
    assert_eq!(outcomes[2], TestOutcome::Pass);
}

#[test]
fn state_left_behind_reaches_only_the_same_segment_whatever_the_jobs() {
    let mut tests: Vec<Test> = (0..30).map(|i| counter_test(i, &[1], 0, "get")).collect();
    tests[4] = counter_test(4, &[1], 0, "poison");
    let refs: Vec<&Test> = tests.iter().collect();
    let opts = ReplayOptions {
        confirm: 0,
        segment: 10,
    };
    let run = |jobs, refs: &[&Test]| {
        let lane = FreshLane::new(Flavor::Target, jobs);
        let outcomes = replay(refs, &lane, &opts, &|_| {}).unwrap();
        assert_eq!(
            lane.starts.load(std::sync::atomic::Ordering::Relaxed),
            3,
            "a JVM per segment"
        );
        outcomes
    };
    let one = run(1, &refs);
    let failing: Vec<u64> = (0..30)
        .filter(|&i| one[i as usize] != TestOutcome::Pass)
        .collect();
    assert_eq!(
        failing,
        (4..10).collect::<Vec<u64>>(),
        "the poisoner and the rest of its segment"
    );
    assert_eq!(run(2, &refs), one);
    let mut shuffled = refs.clone();
    shuffled.reverse();
    let mut back = run(3, &shuffled);
    back.reverse();
    assert_eq!(back, one, "independent of the order of the file");
}

#[test]
fn a_streamed_replay_keeps_only_failures_and_agrees_with_the_replay_in_memory() {
    let tests: Vec<Test> = (0..50)
        .map(|i| counter_test(i, &[i as i64 % 9], (i % 3) as usize, "get"))
        .collect();
    let refs: Vec<&Test> = tests.iter().collect();
    let options = ReplayOptions {
        confirm: 1,
        segment: 7,
    };
    let whole = replay(&refs, &lane(), &options, &|_| {}).unwrap();
    let open = |w| Ok(stream::Slice::wanted(&tests, &w));
    let streamed = stream::replay_stream(&open, &lane(), &options, &|_| {}).unwrap();
    assert_eq!(streamed.total(), tests.len());
    let failing: Vec<(u64, &TestOutcome)> = tests
        .iter()
        .zip(&whole)
        .filter(|(_, o)| **o != TestOutcome::Pass)
        .map(|(t, o)| (t.id, o))
        .collect();
    assert!(!failing.is_empty() && failing.len() < tests.len());
    let kept: Vec<(u64, &TestOutcome)> = streamed
        .kept
        .iter()
        .map(|r| r.id)
        .zip(&streamed.outcomes)
        .collect();
    assert_eq!(kept, failing);
    assert_eq!(streamed.passed.len(), tests.len() - failing.len());
}

#[test]
fn a_streamed_replay_keeps_of_a_failing_test_only_its_id_and_length() {
    // What the supervisor holds per differing test: a record (and its verdict), never the
    // test; the groups' examples are read again from the suite.
    assert!(std::mem::size_of::<crate::replay::Record>() <= 16);
    let tests: Vec<Test> = (0..20)
        .map(|i| counter_test(i, &[i as i64 % 9, 1], 0, "get"))
        .collect();
    let open = |w| Ok(stream::Slice::wanted(&tests, &w));
    let options = ReplayOptions {
        confirm: 1,
        segment: 5,
    };
    let streamed = stream::replay_stream(&open, &lane(), &options, &|_| {}).unwrap();
    assert!(!streamed.kept.is_empty());
    for r in &streamed.kept {
        let t = tests.iter().find(|t| t.id == r.id).unwrap();
        assert_eq!(*r, crate::replay::Record::of(t));
    }
}

/// A source whose test 20 cannot be read.
struct Cut<'a>(stream::Slice<'a>);

impl stream::Source<std::io::Error> for Cut<'_> {
    fn skip_to(&mut self, index: usize) -> Result<bool, std::io::Error> {
        Ok(stream::Source::skip_to(&mut self.0, index).unwrap())
    }

    fn next_test(&mut self) -> Result<Option<Test>, std::io::Error> {
        match stream::Source::next_test(&mut self.0).unwrap() {
            Some(t) if t.id == 20 => Err(std::io::Error::other("cut at test 20")),
            other => Ok(other),
        }
    }
}

#[test]
fn a_source_that_fails_part_way_fails_the_whole_replay() {
    let tests: Vec<Test> = (0..30).map(|i| counter_test(i, &[1], 0, "get")).collect();
    let open = |w| Ok(Cut(stream::Slice::wanted(&tests, &w)));
    let options = ReplayOptions {
        confirm: 0,
        segment: 4,
    };
    let err = stream::replay_stream(&open, &lane(), &options, &|_| {}).unwrap_err();
    assert!(err.to_string().contains("cut at test 20"), "{err}");
}

#[test]
fn a_streamed_confirmation_runs_each_failing_test_in_its_own_first_pass_segment() {
    // Four segments of ten, one failing test in each: the confirmation is four segments
    // (every worker takes some), not one segment of the four failing tests on one worker.
    let tests: Vec<Test> = (0..40)
        .map(|i| match i % 10 == 3 {
            true => counter_test(i, &[7], 1, "get"),
            false => counter_test(i, &[1], 0, "get"),
        })
        .collect();
    let open = |w| Ok(stream::Slice::wanted(&tests, &w));
    let options = ReplayOptions {
        confirm: 1,
        segment: 10,
    };
    let lane = FreshLane::new(Flavor::Target, 2);
    let streamed = stream::replay_stream(&open, &lane, &options, &|_| {}).unwrap();
    let ids: Vec<u64> = streamed.kept.iter().map(|r| r.id).collect();
    assert_eq!(ids, [3, 13, 23, 33]);
    assert!(
        (streamed.outcomes.iter()).all(|o| matches!(o, TestOutcome::Differs { .. })),
        "{:?}",
        streamed.outcomes
    );
    let starts = lane.starts.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(
        starts,
        4 + 4,
        "a JVM per first-pass segment, then per confirmed segment"
    );
}
