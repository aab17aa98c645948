//! A release that moves public methods up into a package-private base class as `final`
//! (`tests/fixtures/hoisted`: release 2's `Ring` inherits `closed()`, `size()` and `label()`
//! from `Base`). Java code calling `ring.size()` works on both releases: javac links the
//! call to the public `Ring` and gives no bridge for a final method. Reflection on the
//! method `Ring.class.getMethod` returns is refused (`IllegalAccessException`), which once
//! made every such call "API missing" in replay: a false FAIL on a release that changed
//! nothing a user can see (Guava 33.8's graphs and tables). The worker now calls the method
//! as a public supertype declares it (`Shape.closed()`), or makes it accessible.

mod common;
use common::support;

use support::stderr;

#[test]
fn methods_a_release_moved_into_a_package_private_base_still_answer() {
    let work = tempfile::tempdir().unwrap();
    let targets = support::fixture_targets(work.path(), "hoisted", 2, "ring");
    let extra = ["--output-limit", "200", "--reruns", "1"];
    let record = support::record_fixture(work.path(), &targets, "ring1", "ring.yaml", &extra);
    assert_eq!(record.status.code(), Some(0), "{}", stderr(&record));
    let suite = std::fs::read_to_string(work.path().join("ring.yaml")).unwrap();
    for call in [".closed()", ".size()", ".label()"] {
        assert!(suite.contains(call), "the suite never calls {call}");
    }
    support::assert_same_behaviour(
        work.path(),
        &targets,
        "ring.yaml",
        "ring2",
        "ring2-vs-ring1",
    );
}
