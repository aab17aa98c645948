//! The worker sandbox against a hostile library (`tests/fixtures/hostile`): what it writes,
//! runs, connects to and allocates is contained, and `--no-sandbox` (or no memory bound)
//! lets the same calls through, which proves each test can fail.

mod common;

use difftest::message::SeqRequest;
use difftest::pool::{Pool, PoolConfig};
use difftest::sequence::{Observed, SeqResult, Statement};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const CLASS: &str = "example.hostile.Hostile";

/// The hostile library, compiled once for every test of this file.
fn classes() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| common::compile_fixtures("hostile"))
        .path()
}

fn pool(sandbox: bool, memory: Option<u64>) -> Pool {
    let mut config: PoolConfig = common::config(1, 10_000);
    config.sandbox = sandbox;
    config.worker_memory = memory;
    common::pool("temurin17", &[classes().to_path_buf()], config)
}

/// `Hostile.method(literal)`, or `Hostile.method()` without a literal.
fn call(method: &str, arg: Option<(&str, &str)>) -> SeqRequest {
    let mut statements = Vec::new();
    let mut params = Vec::new();
    if let Some((ty, value)) = arg {
        statements.push(Statement::literal(ty, value));
        params.push(ty);
    }
    let args: Vec<usize> = (0..statements.len()).collect();
    statements.push(Statement::call(CLASS, method, &params, None, &args));
    SeqRequest {
        statements,
        observers: vec![],
    }
}

fn run(pool: &Pool, seq: SeqRequest) -> SeqResult {
    pool.run(&[seq], false).expect("pool runs").remove(0)
}

/// The text of the call's value.
fn value(result: &SeqResult) -> String {
    match result {
        SeqResult::Done { steps, .. } => match steps.last() {
            Some(Observed::Value { text, .. }) => text.clone(),
            other => panic!("expected a value, got {other:?}"),
        },
        other => panic!("expected a finished call, got {other:?}"),
    }
}

fn unique(dir: &Path, name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    dir.join(format!(
        ".difftest-hostile-{name}-{}-{nanos}",
        std::process::id()
    ))
}

#[test]
fn files_outside_the_worker_folder_stay_unwritten() {
    let home = PathBuf::from(std::env::var_os("HOME").expect("HOME is set"));
    let tmp = tempfile::tempdir().unwrap(); // under /tmp
    let targets = [unique(tmp.path(), "tmp"), unique(&home, "home")];
    let sandboxed = pool(true, None);
    for path in &targets {
        let got = value(&run(
            &sandboxed,
            call("write", Some(("java.lang.String", path.to_str().unwrap()))),
        ));
        assert_ne!(got, "written", "{} was written", path.display());
        assert!(!path.exists(), "{} exists", path.display());
    }
    let own = value(&run(&sandboxed, call("writeTemp", None)));
    assert_eq!(
        own, "written",
        "java.io.tmpdir is the worker's own, writable folder"
    );

    let open = pool(false, None);
    for path in &targets {
        let got = value(&run(
            &open,
            call("write", Some(("java.lang.String", path.to_str().unwrap()))),
        ));
        assert_eq!(
            got,
            "written",
            "without the sandbox {} is written",
            path.display()
        );
        assert!(path.exists());
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn processes_cannot_be_started() {
    let tmp = tempfile::tempdir().unwrap();
    let touched = tmp.path().join("touched");
    let seq = || {
        call(
            "touch",
            Some(("java.lang.String", touched.to_str().unwrap())),
        )
    };
    let got = value(&run(&pool(true, None), seq()));
    assert_eq!(got, "java.io.IOException");
    assert!(!touched.exists(), "touch ran in the sandbox");

    let got = value(&run(&pool(false, None), seq()));
    assert_eq!(got, "ran");
    assert!(touched.exists(), "without the sandbox touch runs");
}

#[test]
fn the_loopback_listener_gets_no_connection() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let seq = || call("connect", Some(("int", &port)));
    let got = value(&run(&pool(true, None), seq()));
    assert_ne!(got, "connected");
    assert!(listener.accept().is_err(), "the listener was reached");

    let got = value(&run(&pool(false, None), seq()));
    assert_eq!(got, "connected", "without the sandbox the call connects");
    assert!(listener.accept().is_ok());
}

#[test]
fn a_worker_hoarding_native_memory_is_stopped_and_reported() {
    let limit = 384u64 << 20;
    let bounded = pool(true, Some(limit));
    let result = run(&bounded, call("allocateUnsafe", Some(("int", "2048"))));
    match &result {
        SeqResult::Crash { exit, .. } => assert!(exit.contains("memory limit"), "{exit}"),
        other => panic!("expected a worker killed for memory, got {other:?}"),
    }
    assert_eq!(bounded.stats().crashes, 1);
    // Direct buffers are bounded by the JVM itself (-Xmx256m, so 256 MiB at most).
    let got = value(&run(&bounded, call("allocate", Some(("int", "2048")))));
    assert!(got.parse::<u64>().unwrap() <= 256, "{got}");
    // Without a bound the same call gets what it asks for.
    let unbounded = pool(true, None);
    let got = value(&run(
        &unbounded,
        call("allocateUnsafe", Some(("int", "768"))),
    ));
    assert_eq!(got, "768");
}

#[test]
fn a_spinning_call_that_ignores_interrupts_times_out_and_is_stopped() {
    let mut config: PoolConfig = common::config(1, 1000);
    config.sandbox = true;
    let pool = common::pool("temurin17", &[classes().to_path_buf()], config);
    let began = std::time::Instant::now();
    let result = run(&pool, call("spin", None));
    assert!(matches!(result, SeqResult::Timeout { .. }), "{result:?}");
    assert!(began.elapsed().as_secs() < 10, "took {:?}", began.elapsed());
    // The pool still works afterwards, on the same worker: the sandbox lets the supervisor
    // stop the call (a queued signal to the worker's stopper thread) instead of killing it.
    let got = value(&run(&pool, call("writeTemp", None)));
    assert_eq!(got, "written");
    assert_eq!(pool.stats().workers_started, 1, "stopped, not killed");
}

/// Each mechanism the kernel refuses gives one warning line naming the failed call, printed
/// once however many workers start, and the worker runs without it.
#[test]
fn a_refused_mechanism_is_one_warning_and_the_worker_runs_without_it() {
    let work = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_difftest"))
        .current_dir(work.path())
        .args(["targets", "check", "temurin17", "--targets-dir"])
        .arg(common::repo().join("targets"))
        .env("DIFFTEST_SANDBOX_REFUSE", "network,landlock,seccomp")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let expected = [
        "difftest: warning: sandbox: workers can reach the network: unshare(CLONE_NEWNET): refused",
        "difftest: warning: sandbox: workers can write files anywhere: landlock_create_ruleset: refused",
        "difftest: warning: sandbox: workers can start processes: prctl(PR_SET_SECCOMP): refused",
    ];
    for line in expected {
        assert_eq!(
            stderr.matches(line).count(),
            1,
            "{line:?} once in:\n{stderr}"
        );
    }
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
}

#[test]
fn a_bad_worker_memory_is_bad_input() {
    for bad in ["lots", "1M", "-2G", "2X"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_difftest"))
            .args(["record", "--impl", "temurin17"])
            .arg(format!("--worker-memory={bad}"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("--worker-memory"), "{stderr}");
    }
}
