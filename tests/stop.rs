//! Stopping a record whose calls all hang (`tests/fixtures/hostile`, `example.hang.Hang`):
//! workers die with a supervisor killed by SIGKILL, SIGTERM ends the record within seconds
//! with a partial suite, and `--time-limit` holds whatever the code under test does.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A target `hang` whose classpath has the hostile fixtures; returns the targets folder.
fn setup(work: &Path, classes: &Path) -> String {
    let targets = work.join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    let yaml = common::jdk17_target("hang", "code that never returns", classes);
    std::fs::write(targets.join("hang.yaml"), yaml).unwrap();
    targets.to_str().unwrap().to_string()
}

fn record(work: &Path, targets: &str, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_difftest"))
        .current_dir(work)
        .args(["record", "--impl", "hang", "--classes", "example.hang.Hang"])
        .args(["--targets-dir", targets, "--no-progress", "--reruns", "1"])
        .args(extra)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("difftest runs")
}

/// Command line and parent of a live (not zombie) process.
fn process(pid: u32) -> Option<(Vec<String>, u32)> {
    let dir = Path::new("/proc").join(pid.to_string());
    let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
    let after: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    if after.first() == Some(&"Z") {
        return None;
    }
    let ppid = after.get(1)?.parse().ok()?;
    let cmdline = std::fs::read(dir.join("cmdline")).ok()?;
    let args = cmdline
        .split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    Some((args, ppid))
}

fn is_worker(pid: u32) -> bool {
    process(pid).is_some_and(|(args, _)| args.iter().any(|a| a == "__worker"))
}

/// Process ids of the workers that `parent` runs now.
fn workers_of(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if process(pid)
            .is_some_and(|(args, ppid)| ppid == parent && args.iter().any(|a| a == "__worker"))
        {
            found.push(pid);
        }
    }
    found
}

/// Waits until `parent` has workers, then `settle` more so that their calls hang; returns
/// the workers then running.
fn wait_for_hanging_workers(parent: u32, settle: Duration) -> Vec<u32> {
    let began = Instant::now();
    while workers_of(parent).is_empty() {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "no worker started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(settle);
    let workers = workers_of(parent);
    assert!(!workers.is_empty(), "workers are still busy");
    workers
}

/// Waits up to `limit` for none of `workers` to be alive; returns those left.
fn leftovers(workers: &[u32], limit: Duration) -> Vec<u32> {
    let began = Instant::now();
    loop {
        let left: Vec<u32> = workers.iter().copied().filter(|&p| is_worker(p)).collect();
        if left.is_empty() || began.elapsed() > limit {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn kill_all(pids: &[u32]) {
    for &pid in pids {
        // SAFETY: plain kill of a process id this test found.
        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    }
}

/// Waits for `child` up to `limit`, then kills it and its workers; returns its exit code
/// (`None` if it had to be killed) and how long it took.
fn wait(child: &mut Child, limit: Duration) -> (Option<i32>, Duration) {
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), began.elapsed());
        }
        if began.elapsed() > limit {
            kill_all(&workers_of(child.id()));
            let _ = child.kill();
            let _ = child.wait();
            return (None, began.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn workers_die_with_a_supervisor_killed_during_a_hanging_call() {
    let classes = common::compile_fixtures("hostile");
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path(), classes.path());
    let mut child = record(
        work.path(),
        &targets,
        &["--timeout", "60", "--time-limit", "120"],
    );
    let workers = wait_for_hanging_workers(child.id(), Duration::from_secs(2));
    child.kill().unwrap(); // SIGKILL: no handler runs
    child.wait().unwrap();
    let left = leftovers(&workers, Duration::from_secs(5));
    kill_all(&left);
    assert!(
        left.is_empty(),
        "workers {left:?} outlived their supervisor"
    );
}

#[test]
fn sigterm_stops_a_record_of_hanging_calls_within_seconds_with_a_partial_suite() {
    let classes = common::compile_fixtures("hostile");
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path(), classes.path());
    let mut child = record(
        work.path(),
        &targets,
        &[
            "--timeout",
            "60",
            "--time-limit",
            "120",
            "-o",
            "oracles/hang.yaml",
        ],
    );
    let pid = child.id();
    let workers = wait_for_hanging_workers(pid, Duration::from_secs(2));
    // SAFETY: signals the child this test started.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    let (code, took) = wait(&mut child, Duration::from_secs(30));
    let left = leftovers(&workers, Duration::from_secs(2));
    kill_all(&left);
    eprintln!("SIGTERM during hanging calls: exit after {took:?}");
    assert!(took < Duration::from_secs(5), "SIGTERM took {took:?}");
    assert_eq!(code, Some(130));
    assert!(left.is_empty(), "workers {left:?} left running");
    let suite = std::fs::read_to_string(work.path().join("oracles/hang.yaml")).unwrap();
    assert!(suite.contains("partial: true"), "{suite}");
}

#[test]
fn the_time_limit_holds_when_every_call_hangs() {
    let classes = common::compile_fixtures("hostile");
    let work = tempfile::tempdir().unwrap();
    let targets = setup(work.path(), classes.path());
    let began = Instant::now();
    let mut child = record(work.path(), &targets, &["--time-limit", "10"]);
    let workers = wait_for_hanging_workers(child.id(), Duration::from_secs(1));
    let (code, _) = wait(&mut child, Duration::from_secs(120));
    let took = began.elapsed();
    let left = leftovers(&workers, Duration::from_secs(2));
    kill_all(&left);
    assert!(left.is_empty(), "workers {left:?} left running");
    // Every call hangs, so no test is kept: the record says so (exit 2) and writes no suite,
    // which would pass any gate.
    assert_eq!(code, Some(2), "took {took:?}");
    assert!(!work.path().join("oracles/hang.yaml").exists());
    // 10 s of generation, plus JVM start-up and describing.
    eprintln!("--time-limit 10 on hanging code: {took:?} from start to suite");
    assert!(
        took < Duration::from_secs(15),
        "--time-limit 10 took {took:?}"
    );
    assert!(took >= Duration::from_secs(10), "took only {took:?}");
}
