//! A library's own thread pool (`tests/fixtures/pool`: `Pool` extends `ThreadPoolExecutor`
//! and queues jobs on its threads). Its counters (`getActiveCount()`, `getCompletedTaskCount()`,
//! `getPoolSize()`, `isTerminated()` …) read what the pool's threads have done by the time
//! of the call: two reruns can agree by chance and the replay then differ, even on the
//! recording release (opencsv 5.9 replayed on itself failed the gate in one run of two, at
//! such an observer). Such counters are on the shipped list of unstable observers, so no
//! test observes them, while the pool's configuration (`getCorePoolSize()`) stays observed.
//! A call of one as a step of a sequence is checked like any step and left to the reruns,
//! as for every method on that list (a fresh pool's `getActiveCount()` is 0 every time).

mod common;
use common::support;

use difftest::suite::{Suite, Test};
use support::stderr;

/// Counters of a thread pool whose value depends on its threads' progress.
const TIMING: &[&str] = &[
    "getActiveCount",
    "getCompletedTaskCount",
    "getTaskCount",
    "getPoolSize",
    "getLargestPoolSize",
    "isTerminated",
    "isTerminating",
];

/// The observers of `fixture.Pool` whose value `t` checks.
fn checked_pool_observers(t: &Test) -> Vec<String> {
    let observed = t.observers.iter().zip(&t.expected_observations);
    observed
        .filter(|(o, v)| &*o.class == "fixture.Pool" && v.is_some())
        .map(|(o, _)| o.method.to_string())
        .collect()
}

#[test]
fn a_thread_pools_counters_are_never_observed_and_its_configuration_is() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "pool", 1, "pool");
    let extra = ["--output-limit", "300", "--reruns", "2"];
    let record = support::record_fixture(work.path(), &targets, "pool1", "pool.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    let suite = Suite::load(&work.path().join("pool.yaml")).expect("the suite loads");
    let checked: Vec<String> = suite
        .tests
        .iter()
        .flat_map(checked_pool_observers)
        .collect();
    for counter in TIMING {
        assert!(
            !checked.iter().any(|m| m == counter),
            "a test observes Pool.{counter}(), which depends on the pool's threads"
        );
    }
    assert!(
        checked.iter().any(|m| m == "getCorePoolSize"),
        "no test observes the pool's configuration: the fixture no longer shows the case"
    );
}
