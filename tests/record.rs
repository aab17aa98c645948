//! `difftest record` end to end on the machine's JDK 17, with the fixture classes of
//! `tests/fixtures/record` compiled by javac and put on a test target's classpath.

mod common;

use difftest::sequence::{Observed, Statement};
use difftest::suite::Suite;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Compiled fixtures and a targets folder with a target `fix` that sees them.
struct Fixture {
    _classes: tempfile::TempDir,
    targets: tempfile::TempDir,
    out: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let classes = common::compile_fixtures("record");
        let targets = tempfile::tempdir().expect("temp dir");
        let yaml = common::jdk17_target("fix", "record fixtures on JDK 17", classes.path());
        std::fs::write(targets.path().join("fix.yaml"), yaml).expect("target file");
        Fixture {
            _classes: classes,
            targets,
            out: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.out.path().join(name)
    }

    fn command(&self, output: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
        cmd.arg("--targets-dir")
            .arg(self.targets.path())
            .args(["record", "--impl", "fix", "--no-progress"])
            .arg("--output")
            .arg(output)
            .args(args);
        if !args.contains(&"--reruns") {
            cmd.args(["--reruns", "2"]);
        }
        cmd
    }

    fn record(&self, output: &Path, args: &[&str]) -> Output {
        self.command(output, args).output().expect("difftest runs")
    }

    /// Replays `suite` on the recording target itself.
    fn replay(&self, suite: &Path) -> Output {
        Command::new(env!("CARGO_BIN_EXE_difftest"))
            .arg("--targets-dir")
            .arg(self.targets.path())
            .args(["replay", "--impl", "fix", "--suite"])
            .arg(suite)
            .arg("--report-dir")
            .arg(self.path("reports"))
            .output()
            .expect("difftest runs")
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ok(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        stderr(out)
    );
}

fn mentions(statements: &[Statement], class: &str) -> bool {
    statements.iter().any(|s| s.callee().starts_with(class))
}

#[test]
fn same_seed_gives_the_same_file_with_one_or_two_workers() {
    let fx = Fixture::new();
    let (one, two) = (fx.path("one.yaml"), fx.path("two.yaml"));
    let args = [
        "--classes",
        "rec.Account",
        "--seed",
        "17",
        "--output-limit",
        "300",
    ];
    ok(&fx.record(&one, &[&args[..], &["--jobs", "1"]].concat()));
    ok(&fx.record(&two, &[&args[..], &["--jobs", "2"]].concat()));
    let a = std::fs::read_to_string(&one).unwrap();
    assert!(a == std::fs::read_to_string(&two).unwrap(), "files differ");
    let suite = Suite::load(&one).expect("suite loads");
    assert_eq!(suite.header.counts.get("reduced-from"), Some(&300));
    assert!((1..=300).contains(&suite.tests.len()));
    assert_eq!(
        suite.header.options.get("stopped-by").map(String::as_str),
        Some("output-limit")
    );
    assert_eq!(
        suite.header.plain_class_text(),
        Ok(true),
        "replay must answer plain objects' text as the record did"
    );
    let other = fx.path("other.yaml");
    ok(&fx.record(
        &other,
        &[
            "--classes",
            "rec.Account",
            "--seed",
            "18",
            "--output-limit",
            "300",
        ],
    ));
    assert!(
        a != std::fs::read_to_string(&other).unwrap(),
        "another seed, another suite"
    );
}

#[test]
fn a_non_reflexive_equals_is_error_revealing_not_a_regression_test() {
    let fx = Fixture::new();
    let out = fx.path("nr.yaml");
    ok(&fx.record(
        &out,
        &[
            "--classes",
            "rec.NotReflexive,rec.Account",
            "--output-limit",
            "200",
        ],
    ));
    let suite = Suite::load(&out).unwrap();
    let caught = suite.error_revealing.iter().find(|e| {
        e.violation.contract == "equals-reflexive"
            && matches!(&e.statements[e.violation.stmt], Statement::New { class, .. } if &**class == "rec.NotReflexive")
    });
    assert!(caught.is_some(), "{:?}", suite.error_revealing);
    assert!(
        !suite
            .tests
            .iter()
            .any(|t| mentions(&t.statements, "rec.NotReflexive"))
    );
    assert!(
        suite
            .tests
            .iter()
            .any(|t| mentions(&t.statements, "rec.Account"))
    );
}

#[test]
fn nondeterministic_observers_are_dropped_and_only_they() {
    let fx = Fixture::new();
    let out = fx.path("noisy.yaml");
    ok(&fx.record(
        &out,
        &[
            "--classes",
            "rec.Noisy",
            "--output-limit",
            "40",
            "--reruns",
            "3",
        ],
    ));
    let suite = Suite::load(&out).unwrap();
    // An unstable observer may stay in a test, unchecked, when a checked one follows it.
    let observed: Vec<&str> = (suite.tests.iter())
        .flat_map(|t| t.observers.iter().zip(&t.expected_observations))
        .filter(|(_, expected)| expected.is_some())
        .map(|(o, _)| &*o.method)
        .collect();
    for unstable in ["getNanos", "getIdentity", "getRandom"] {
        assert!(!observed.contains(&unstable), "{unstable} kept");
    }
    for stable in ["getStable", "getName", "toString"] {
        assert!(observed.contains(&stable), "{stable} dropped");
    }
    assert!(suite.header.counts["unstable-observations"] > 0);
    for t in &suite.tests {
        for (s, e) in t.statements.iter().zip(&t.expected_steps) {
            let noisy = ["getNanos", "getIdentity", "getRandom"]
                .iter()
                .any(|m| s.callee().starts_with(&format!("rec.Noisy.{m}(")));
            assert!(!(noisy && e.is_some()), "unstable step checked: {s:?}");
        }
    }
}

#[test]
fn repetition_literals_and_expected_exceptions_show_up() {
    let fx = Fixture::new();
    let literals = fx.path("literals.txt");
    std::fs::write(&literals, "int 4242\nString \"magic \\u00E9\"\n").unwrap();
    let out = fx.path("rep.yaml");
    let literals = literals.to_string_lossy().into_owned();
    let args = [
        "--classes",
        "rec.Account",
        "--output-limit",
        "400",
        "--repeat-probability",
        "0.3",
        "--repeat-max",
        "5",
        "--literals-file",
        &literals,
    ];
    ok(&fx.record(&out, &args));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("(int) 4242"), "int literal used");
    assert!(
        text.contains(r#""magic \u00E9""#),
        "string literal used, escaped"
    );
    let suite = Suite::load(&out).unwrap();
    let repeated = suite.tests.iter().any(|t| {
        let n = t.statements.len();
        n >= 3 && t.statements[n - 1] == t.statements[n - 2]
    });
    assert!(repeated, "a test repeats its last call");
    let threw = |class: &str| {
        suite.tests.iter().any(|t| {
            matches!(t.expected_steps.last(), Some(Some(Observed::Threw { class: c, .. })) if c == class)
        })
    };
    assert!(threw("java.lang.IllegalArgumentException"));
    assert!(threw("java.lang.ArithmeticException"));
    let kinds = &suite.exceptions;
    assert_eq!(
        kinds["java.lang.ArithmeticException"].as_str(),
        "possible-bug"
    );
    assert_eq!(
        kinds["java.lang.IllegalArgumentException"].as_str(),
        "precondition"
    );
}

/// Starts a record of 180 s, sends `signal` after a few seconds, and returns the suite
/// written. How long the reruns after a Ctrl-C take depends on what the first seconds made
/// and on the machine's load, so the bound only tells a record that stopped at the signal
/// from one that ran to its time limit.
fn interrupted(fx: &Fixture, out: &Path, signal: libc::c_int) -> Suite {
    let args = ["--classes", "rec.Account", "--packages", "java.util."];
    let mut cmd = fx.command(out, &[&args[..], &["--time-limit", "180"]].concat());
    // SAFETY: the closure only calls signal, which is async-signal-safe.
    unsafe { cmd.pre_exec(common::support::default_sigint) };
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("difftest starts");
    std::thread::sleep(Duration::from_secs(5));
    // SAFETY: signals the child we started, by its pid.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    let began = Instant::now();
    let status = child.wait().expect("difftest ends");
    let took = began.elapsed();
    assert!(
        took < Duration::from_secs(120),
        "stops at the signal, not at the time limit: {took:?}"
    );
    assert_eq!(status.code(), Some(130));
    let suite = Suite::load(out).expect("a valid suite");
    assert!(suite.header.partial);
    assert!(!suite.tests.is_empty());
    let stopped = suite.header.options.get("stopped-by").map(String::as_str);
    assert_eq!(stopped, Some("interrupt"));
    suite
}

#[test]
fn an_interrupted_record_leaves_a_valid_partial_suite() {
    let fx = Fixture::new();
    let suite = interrupted(&fx, &fx.path("partial.yaml"), libc::SIGINT);
    assert_eq!(suite.header.counts["reruns-done"], 2, "Ctrl-C still reruns");
}

#[test]
fn sigterm_writes_at_once_without_reruns() {
    let fx = Fixture::new();
    let suite = interrupted(&fx, &fx.path("term.yaml"), libc::SIGTERM);
    assert_eq!(suite.header.counts["reruns-done"], 0);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let fx = Fixture::new();
    let out = fx.path("x.yaml");
    let omit = fx.path("omit.txt");
    std::fs::write(&omit, "rec.*\n").unwrap();
    let omit = omit.to_string_lossy().into_owned();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--classes", "rec.Missing"], "rec.Missing"),
        (vec!["--packages", "no.such.pkg"], "no.such.pkg"),
        (
            vec!["--classes", "rec.Account", "--omit", &omit],
            "empty scope",
        ),
        (
            vec!["--classes", "rec.Account", "--null-ratio", "2"],
            "--null-ratio",
        ),
        (
            vec!["--classes", "rec.Account", "--index-ratio", "1.5"],
            "--index-ratio",
        ),
    ];
    for (args, says) in cases {
        let o = fx.record(&out, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
    }
    let o = fx.record(
        Path::new("/proc/no/such/dir/x.yaml"),
        &["--classes", "rec.Account"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
}

#[test]
fn values_derived_from_an_unstable_one_are_not_checked_nor_a_call_that_changed_elsewhere() {
    let fx = Fixture::new();
    let out = fx.path("dice.yaml");
    ok(&fx.record(
        &out,
        &[
            "--classes",
            "rec.Dice",
            "--output-limit",
            "400",
            "--reruns",
            "2",
        ],
    ));
    let suite = Suite::load(&out).unwrap();
    for t in &suite.tests {
        let mut tainted = vec![false; t.statements.len()];
        for (i, s) in t.statements.iter().enumerate() {
            let reads = s.inputs().iter().any(|&j| tainted[j]);
            let random = ["rec.Dice.roll(", "rec.Dice.coin("];
            tainted[i] = random.iter().any(|r| s.callee().starts_with(r)) || reads;
            if reads {
                for j in s.inputs() {
                    tainted[j] |= s.callee().starts_with("rec.Dice.add(");
                }
            }
            assert!(
                !(tainted[i] && t.expected_steps[i].is_some()),
                "a random value, or one derived from it, is checked: {s:?}"
            );
        }
        for o in &t.observers {
            assert!(
                !tainted[o.stmt],
                "an observer of a Dice that saw roll(): {o:?}"
            );
        }
    }
    assert!(suite.header.counts["derived-from-unstable"] > 0);
}

/// Checked reads of what `rec.Salt` made at random (calls and observers, not counting a
/// length), and checked lengths of its random arrays.
fn random_salt_reads(suite: &Suite) -> (usize, usize) {
    let (mut reads, mut lengths) = (0, 0);
    for t in &suite.tests {
        let random: Vec<bool> = t
            .statements
            .iter()
            .map(|s| {
                ["rec.Salt.bytes(", "rec.Salt.draw("]
                    .iter()
                    .any(|r| s.callee().starts_with(r))
            })
            .collect();
        for (s, e) in t.statements.iter().zip(&t.expected_steps) {
            if e.is_none() || !s.inputs().iter().any(|&j| random[j]) {
                continue;
            }
            if s.callee().starts_with("java.lang.reflect.Array.getLength(") {
                lengths += 1;
            } else {
                reads += 1;
            }
        }
        reads += t.observers.iter().filter(|o| random[o.stmt]).count();
    }
    (reads, lengths)
}

#[test]
fn what_reads_random_content_is_not_checked_but_a_random_arrays_length_is() {
    let fx = Fixture::new();
    let args = [
        "--classes",
        "rec.Salt",
        "--output-limit",
        "1500",
        "--round-size",
        "100",
    ];
    // Without reruns the reads are checked (no way to know yet): the fixture reaches them.
    let once = fx.path("once.yaml");
    ok(&fx.record(&once, &[&args[..], &["--reruns", "0"]].concat()));
    let (reads, _) = random_salt_reads(&Suite::load(&once).unwrap());
    assert!(reads > 10, "only {reads} reads of random content");
    // Each read comes out the same in two reruns one time in four; none may stay.
    let out = fx.path("salt.yaml");
    ok(&fx.record(&out, &[&args[..], &["--reruns", "2"]].concat()));
    let suite = Suite::load(&out).unwrap();
    let (reads, lengths) = random_salt_reads(&suite);
    assert_eq!(reads, 0, "reads of random content are checked");
    assert!(lengths > 0, "no random array's length is checked");
    // `encoded(int)`'s length changes one time in four: three runs of one test agree often, but
    // once it changed anywhere, no test checks it.
    let encoded_lengths = (suite.tests.iter())
        .flat_map(|t| {
            t.statements
                .iter()
                .zip(&t.expected_steps)
                .map(move |x| (t, x))
        })
        .filter(|(t, (s, e))| {
            e.is_some()
                && s.callee().starts_with("java.lang.reflect.Array.getLength(")
                && s.inputs()
                    .iter()
                    .any(|&j| t.statements[j].callee() == "rec.Salt.encoded(int)")
        })
        .count();
    assert_eq!(encoded_lengths, 0, "a random length is checked");
    ok(&fx.replay(&out));
}

#[test]
fn values_computed_from_the_callers_stack_are_marked_varies_not_checked() {
    let fx = Fixture::new();
    let out = fx.path("stack.yaml");
    let scope = "java.lang.IllegalStateException,java.lang.StackTraceElement,java.util.Arrays";
    ok(&fx.record(
        &out,
        &[
            "--classes",
            scope,
            "--output-limit",
            "3000",
            "--reruns",
            "1",
        ],
    ));
    let suite = Suite::load(&out).unwrap();
    let mut stack_reads = 0;
    for t in &suite.tests {
        let mut from_stack = vec![false; t.statements.len()];
        for (i, s) in t.statements.iter().enumerate() {
            let reads = s.inputs().iter().any(|&j| from_stack[j]);
            from_stack[i] = s.callee().ends_with(".getStackTrace()") || reads;
            if from_stack[i] {
                stack_reads += 1;
                assert!(t.expected_steps[i].is_none(), "checked: {s:?}");
                assert!(t.varies_at(i), "not marked varies: {s:?}");
            }
        }
        for o in &t.observers {
            assert!(!from_stack[o.stmt], "observer of a stack value: {o:?}");
        }
    }
    assert!(stack_reads > 0, "the scope never read a stack");
}

/// In a log (stderr not a terminal) record and replay say when each phase starts and ends
/// and print a status line at least every 15 s; `--quiet` silences all of it.
#[test]
fn progress_in_a_log_is_lines_per_phase_and_status_and_quiet_silences_it() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .args([
            "record",
            "--impl",
            "temurin17",
            "--classes",
            "java.util.ArrayList",
        ])
        .args(["--time-limit", "17", "--reruns", "1", "--output"])
        .arg(&suite)
        .output()
        .expect("difftest runs");
    ok(&out);
    let log = stderr(&out);
    for line in [
        "difftest: generating: started",
        "s elapsed",
        "difftest: generating: done in",
        "difftest: rerunning ",
    ] {
        assert!(log.contains(line), "{line:?} missing in:\n{log}");
    }
    let replay = |flag: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_difftest"));
        cmd.args(["replay", "--impl", "temurin17", "--no-minimize", "--suite"])
            .arg(&suite)
            .arg("--report-dir")
            .arg(dir.path());
        cmd.args(flag);
        stderr(&cmd.output().expect("difftest runs"))
    };
    assert!(replay(None).contains("difftest: replaying on temurin17: done in"));
    assert!(!replay(Some("--quiet")).contains("replaying on"));
    // Like record's: no progress, but the files written are still named.
    let plain = replay(Some("--no-progress"));
    assert!(!plain.contains("replaying on"), "{plain}");
    assert!(plain.contains("difftest: wrote "), "{plain}");
}

/// A record over `Thread` and `ThreadGroup` neither hangs nor kills a worker, and its
/// thread ids and names (a JVM-wide counter) go as unstable: replaying on the recording
/// JDK shows nothing.
#[test]
fn unstarted_threads_record_safely_and_replay_clean_on_the_recording_jdk() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("threads.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .args(["record", "--impl", "temurin17", "--quiet", "--classes"])
        .args([
            "java.lang.Thread,java.lang.ThreadGroup",
            "--time-limit",
            "8",
        ])
        .args(["--reruns", "3", "--output"])
        .arg(&suite)
        .output()
        .expect("difftest runs");
    ok(&out);
    let loaded = Suite::load(&suite).expect("suite loads");
    assert_eq!(loaded.header.counts.get("timeouts"), Some(&0));
    assert_eq!(loaded.header.counts.get("crashes"), Some(&0));
    // Members deprecated for removal are called too, on threads and groups never started.
    let calls = |callee: &str| {
        let callee = callee.to_string();
        loaded
            .tests
            .iter()
            .any(move |t| t.statements.iter().any(|s| s.callee() == callee))
    };
    assert!(calls("java.lang.Thread.suspend()"));
    assert!(calls("java.lang.ThreadGroup.destroy()"));
    let out = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .args([
            "replay",
            "--impl",
            "temurin17",
            "--quiet",
            "--no-minimize",
            "--suite",
        ])
        .arg(&suite)
        .arg("--report-dir")
        .arg(dir.path())
        .output()
        .expect("difftest runs");
    ok(&out);
}

#[test]
fn api_deprecated_for_removal_is_called_unless_skipped() {
    let fx = Fixture::new();
    let scope = ["--classes", "java.lang.Integer", "--output-limit", "300"];
    let boxing = |path: &Path| {
        let suite = Suite::load(path).unwrap();
        suite.tests.iter().any(|t| {
            t.statements.iter().any(
                |s| matches!(s, Statement::New { class, .. } if &**class == "java.lang.Integer"),
            )
        })
    };
    let out = fx.path("kept.yaml");
    ok(&fx.record(&out, &scope));
    assert!(
        boxing(&out),
        "new Integer(…) is deprecated for removal, and called"
    );
    let skipped = fx.path("skipped.yaml");
    ok(&fx.record(
        &skipped,
        &[&scope[..], &["--skip-deprecated-for-removal"]].concat(),
    ));
    assert!(!boxing(&skipped));
}

/// The values each step of `suite`'s tests showed, by the callee that gave them.
/// The int arguments `callee` got in `suite`: a literal's text, or `None` for a computed one.
fn int_arguments(suite: &Suite, callee: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for t in &suite.tests {
        for s in t
            .statements
            .iter()
            .filter(|s| s.callee().starts_with(callee))
        {
            let Statement::Call { params, args, .. } = s else {
                continue;
            };
            for (p, &j) in params.iter().zip(args) {
                if &**p != "int" {
                    continue;
                }
                out.push(match &t.statements[j] {
                    Statement::Literal { value, .. } => Some(value.to_string()),
                    _ => None,
                });
            }
        }
    }
    out
}

#[test]
fn index_boundaries_go_to_the_ints_beside_a_sized_input_and_switch_off() {
    let fx = Fixture::new();
    let scope = ["--classes", "rec.Span", "--output-limit", "300"];
    let boundary = |a: &Option<String>| matches!(a.as_deref(), Some("-1" | "0" | "1"));
    let out = fx.path("index.yaml");
    ok(&fx.record(&out, &[&scope[..], &["--index-ratio", "1"]].concat()));
    let suite = Suite::load(&out).unwrap();
    assert!(suite.header.counts["index-boundaries"] > 0);
    let cut = int_arguments(&suite, "rec.Span.cut(");
    assert!(!cut.is_empty() && cut.iter().all(boundary), "{cut:?}");
    let twice = int_arguments(&suite, "rec.Span.twice(");
    assert!(
        !twice.iter().all(boundary),
        "an int alone is no index: {twice:?}"
    );
    ok(&fx.replay(&out));
    let off = fx.path("off.yaml");
    ok(&fx.record(&off, &[&scope[..], &["--index-ratio", "0"]].concat()));
    let suite = Suite::load(&off).unwrap();
    assert_eq!(suite.header.counts["index-boundaries"], 0);
    let cut = int_arguments(&suite, "rec.Span.cut(");
    assert!(!cut.iter().all(boundary), "{cut:?}");
}

/// Whether a test of `suite` passes a `null` literal as the String of `rec.Span.cut`.
fn cuts_null(suite: &Suite) -> bool {
    suite.tests.iter().any(|t| {
        t.statements.iter().any(|s| match s {
            Statement::Call { method, args, .. } if &**method == "cut" => {
                matches!(t.statements[args[0]], Statement::Null { .. })
            }
            _ => false,
        })
    })
}

#[test]
fn every_reference_parameter_gets_null_once_unless_switched_off() {
    // The String pool is never empty (the literals), so only null once passes `cut` a null.
    let fx = Fixture::new();
    let scope = ["--classes", "rec.Span", "--output-limit", "200"];
    let out = fx.path("nulls.yaml");
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    assert!(suite.header.counts["nulls-once"] > 0);
    assert_eq!(suite.header.options["null-once"], "on");
    assert!(cuts_null(&suite), "no test passes cut a null String");
    ok(&fx.replay(&out));
    let off = fx.path("no-nulls.yaml");
    ok(&fx.record(&off, &[&scope[..], &["--no-null-once"]].concat()));
    let suite = Suite::load(&off).unwrap();
    assert_eq!(suite.header.counts["nulls-once"], 0);
    assert_eq!(suite.header.options["null-once"], "off");
    assert!(
        !cuts_null(&suite),
        "cut got a null String with --no-null-once"
    );
}

fn step_values(suite: &Suite, callee: &str) -> Vec<String> {
    let mut out = Vec::new();
    for t in &suite.tests {
        for (s, e) in t.statements.iter().zip(&t.expected_steps) {
            if s.callee().starts_with(callee)
                && let Some(Observed::Value { text, .. }) = e
            {
                out.push(text.clone());
            }
        }
    }
    out
}

#[test]
fn harvested_elements_of_arrays_and_collections_become_inputs_and_replay_cleanly() {
    let fx = Fixture::new();
    let out = fx.path("harvest.yaml");
    let scope = [
        "--classes",
        "rec.Catalogue",
        "--output-limit",
        "500",
        "--round-size",
        "100",
    ];
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    assert!(suite.header.counts["harvested"] > 0);
    let accepted = step_values(&suite, "rec.Catalogue.accept(");
    assert!(accepted.contains(&"1".to_string()), "an array element");
    assert!(accepted.contains(&"2".to_string()), "a list element");
    ok(&fx.replay(&out));
    let off = fx.path("no-harvest.yaml");
    ok(&fx.record(&off, &[&scope[..], &["--no-harvest"]].concat()));
    let suite = Suite::load(&off).unwrap();
    assert_eq!(suite.header.counts["harvests"], 0);
    let accepted = step_values(&suite, "rec.Catalogue.accept(");
    assert!(accepted.iter().all(|v| v == "0"));
}

/// The String literals passed straight to `callee`.
fn literal_args(suite: &Suite, callee: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for t in &suite.tests {
        for s in &t.statements {
            let Statement::Call { args, .. } = s else {
                continue;
            };
            if !s.callee().starts_with(callee) {
                continue;
            }
            for &a in args {
                if let Statement::Literal { value, .. } = &t.statements[a] {
                    out.insert(value.to_string());
                }
            }
        }
    }
    out
}

/// The scope flags of the lookup tests: `classes`, `limit` tests, small rounds, and only
/// the sweeps' own inputs.
fn lookup_scope(classes: &'static str, limit: &'static str) -> [&'static str; 6] {
    [
        "--classes",
        classes,
        "--output-limit",
        limit,
        "--round-size",
        "100",
    ]
}

/// The literals `keep` accepts in tests that call every one of `callees` (prefixes).
fn literals_in_tests_calling(
    suite: &Suite,
    callees: &[&str],
    keep: impl Fn(&str) -> bool,
) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for t in &suite.tests {
        let calls = |c: &str| t.statements.iter().any(|s| s.callee().starts_with(c));
        if !callees.iter().all(|c| calls(c)) {
            continue;
        }
        for s in &t.statements {
            if let Statement::Literal { value, .. } = s
                && keep(value)
            {
                out.insert(value.to_string());
            }
        }
    }
    out
}

#[test]
fn sweeps_pass_every_catalogue_entry_to_its_own_lookups_as_literals() {
    let fx = Fixture::new();
    let out = fx.path("sweep.yaml");
    let scope = lookup_scope("rec.Zones", "1200");
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    let mut looked_up = literal_args(&suite, "rec.Zones.of(");
    looked_up.retain(|s| s.starts_with("Zone/"));
    // Thirty from the String catalogue, thirty more only through the objects' toId().
    assert_eq!(looked_up.len(), 60, "{looked_up:?}");
    assert!(looked_up.contains("Zone/H59"), "{looked_up:?}");
    assert!(suite.header.counts["lookups"] >= 60);
    // The two-parameter lookup gets every ID too, beside the neutral "".
    let in_region = literal_args(&suite, "rec.Zones.offsetOf(");
    assert!(in_region.contains(""), "{in_region:?}");
    let ids = in_region.iter().filter(|s| s.starts_with("Zone/")).count();
    assert_eq!(ids, 60, "{in_region:?}");
    ok(&fx.replay(&out));
    let off = fx.path("no-sweep.yaml");
    ok(&fx.record(&off, &[&scope[..], &["--no-harvest"]].concat()));
    let suite = Suite::load(&off).unwrap();
    assert!(literal_args(&suite, "rec.Zones.of(").len() < 10);
}

#[test]
fn a_catalogue_too_big_to_pass_on_is_still_swept() {
    let fx = Fixture::new();
    let out = fx.path("big.yaml");
    // `Currency.getAvailableCurrencies()` is a `Set`, observed through its `toString()`: a
    // text of every currency, too long for the set to be passed on as an input. Its
    // elements are swept all the same, so `getInstance` gets their codes (dozens; 3 when
    // the set was not swept). At this small limit generation stops after about a dozen
    // rounds, and since rounds run two at a time a swept code reaches its lookup a round
    // later than it did: 48 codes here (94 before), against 3 without the sweep.
    let scope = [
        "--packages",
        "java.util.",
        "--output-limit",
        "4000",
        "--reruns",
        "0",
    ];
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    let codes = literal_args(&suite, "java.util.Currency.getInstance(java.lang.String)");
    let iso = codes
        .iter()
        .filter(|c| c.len() == 3 && c.chars().all(|c| c.is_ascii_uppercase()));
    assert!(iso.count() >= 30, "{codes:?}");
}

/// The `toString()` texts observed on sorted copies (`new TreeMap(map)`) of what a static
/// field read returned.
fn sorted_copy_texts(suite: &Suite) -> Vec<String> {
    let mut out = Vec::new();
    for t in &suite.tests {
        for (o, seen) in t.observers.iter().zip(&t.expected_observations) {
            let copied = match &t.statements[o.stmt] {
                Statement::New { class, args, .. }
                    if &**class == "java.util.TreeMap" && args.len() == 1 =>
                {
                    args[0]
                }
                _ => continue,
            };
            let from_field = matches!(t.statements[copied], Statement::Field { .. });
            if let (true, "toString", Some(Observed::Value { text, .. })) =
                (from_field, &*o.method, seen)
            {
                out.push(text.clone());
            }
        }
    }
    out
}

#[test]
fn unordered_maps_are_checked_through_sorted_copies_and_switch_off() {
    let fx = Fixture::new();
    // `ZoneId.SHORT_IDS` is an immutable map whose iteration order changes from JVM to JVM,
    // so its own text is never checked; its sorted copy's is.
    let scope = [
        "--classes",
        "java.time.ZoneId,java.util.Map,java.util.TreeMap",
        // Rounds of 400 run two at a time, so the copy of a map read in the first round is
        // drafted in the third: a limit of 600 stopped before it.
        "--output-limit",
        "1200",
        "--reruns",
        "1",
    ];
    let out = fx.path("sorted.yaml");
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    assert!(suite.header.counts["sorted-copies"] >= 1);
    let texts = sorted_copy_texts(&suite);
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("{ACT=") && t.contains(", EST=")),
        "{texts:?}"
    );
    ok(&fx.replay(&out));
    let off = fx.path("unsorted.yaml");
    ok(&fx.record(&off, &[&scope[..], &["--no-sorted-copies"]].concat()));
    assert_eq!(Suite::load(&off).unwrap().header.counts["sorted-copies"], 0);
}

#[test]
fn objects_a_catalogue_names_go_on_to_the_static_calls_of_other_classes_that_take_them() {
    let fx = Fixture::new();
    let scope = lookup_scope("rec.Zones,rec.Clocks", "1500");
    let zones_reaching_clocks = |suite: &Suite| {
        literals_in_tests_calling(suite, &["rec.Clocks.clockOf("], |v| v.starts_with("Zone/"))
    };
    let out = fx.path("consumers.yaml");
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    // The thirty zones only `all()` names are looked up through `toId()`, then passed on.
    assert!(suite.header.counts["consumers"] >= 30);
    let reached = zones_reaching_clocks(&suite);
    assert!(reached.len() >= 30, "{reached:?}");
    ok(&fx.replay(&out));
    let off = fx.path("no-consumers.yaml");
    ok(&fx.record(&off, &[&scope[..], &["--no-harvest"]].concat()));
    assert_eq!(Suite::load(&off).unwrap().header.counts["consumers"], 0);
}

/// How many tests call `callee` with a literal matching `wanted` as argument `pos`, and
/// with the literals of the other arguments matching `others`.
fn calls_with(
    suite: &Suite,
    callee: &str,
    pos: usize,
    wanted: impl Fn(&str) -> bool,
    others: impl Fn(&str) -> bool,
) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for t in &suite.tests {
        for s in &t.statements {
            let Statement::Call { args, .. } = s else {
                continue;
            };
            if !s.callee().starts_with(callee) || args.len() <= pos {
                continue;
            }
            let text = |a: usize| match &t.statements[a] {
                Statement::Literal { value, .. } => Some(&**value),
                _ => None,
            };
            let rest_ok = (0..args.len())
                .filter(|&i| i != pos)
                .all(|i| text(args[i]).is_some_and(&others));
            if let Some(v) = text(args[pos]).filter(|v| wanted(v))
                && rest_ok
            {
                out.insert(v.to_string());
            }
        }
    }
    out
}

#[test]
fn lookups_skip_telescoped_overloads_and_every_object_they_make_goes_on() {
    let fx = Fixture::new();
    // 3000: the constant sweeps of the fixtures' mined ints take turns with the catalogue's
    // lookups (mining is on with harvesting), and rounds grow with what was generated, so
    // 2000 tests came before the last country.
    let scope = lookup_scope("rec.Places,rec.Maps", "3000");
    let out = fx.path("places.yaml");
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    let country = |v: &str| v.len() == 2 && v.starts_with('C');
    // Each country goes to `describe(c)` and, as a city, to `describe("", c)`; not to
    // `describe(c, "")`, which says what `describe(c)` says (random picks may still make a
    // few).
    let alone = calls_with(
        &suite,
        "rec.Places.describe(java.lang.String)",
        0,
        country,
        |_| true,
    );
    assert_eq!(alone.len(), 24, "{alone:?}");
    let as_city = calls_with(
        &suite,
        "rec.Places.describe(java.lang.String,",
        1,
        country,
        str::is_empty,
    );
    assert_eq!(as_city.len(), 24, "{as_city:?}");
    let telescoped = calls_with(
        &suite,
        "rec.Places.describe(java.lang.String,",
        0,
        country,
        str::is_empty,
    );
    assert!(telescoped.len() < 12, "{telescoped:?}");
    // `at` has no shorter overload: both places of each country, and every object it made
    // goes on to `Maps.mapOf`.
    let reached =
        literals_in_tests_calling(&suite, &["rec.Maps.mapOf(", "rec.Places.at("], country);
    assert_eq!(reached.len(), 24, "{reached:?}");
    assert!(suite.header.counts["consumers"] >= 48);
    ok(&fx.replay(&out));
}

#[test]
fn mined_int_constants_reach_every_int_lookup_of_their_unit() {
    let fx = Fixture::new();
    let out = fx.path("glyphs.yaml");
    let scope = [
        "--classes",
        "rec.Glyphs,rec.Glyphs$Block",
        "--output-limit",
        "600",
        "--round-size",
        "100",
    ];
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    let start = |v: &str| v.parse::<i32>().is_ok_and(|n| (70001..=70241).contains(&n));
    let starts = calls_with(&suite, "rec.Glyphs$Block.of(", 0, start, |_| true);
    // All twenty block starts, beside the outer class's eight other int lookups.
    assert_eq!(starts.len(), 20, "{starts:?}");
    ok(&fx.replay(&out));
}

#[test]
fn catalogues_keyed_by_a_name_get_the_simple_names_of_the_scopes_classes() {
    let fx = Fixture::new();
    let out = fx.path("registry.yaml");
    let scope = [
        "--classes",
        "rec.Registry,rec.Places,rec.Maps,java.util.Set",
        "--output-limit",
        "300",
    ];
    ok(&fx.record(&out, &scope));
    let text = std::fs::read_to_string(&out).unwrap();
    let suite = Suite::load(&out).unwrap();
    let keys = calls_with(&suite, "rec.Registry.entries(", 0, |_| true, |_| true);
    for name in ["Places", "Maps", "Registry"] {
        assert!(keys.contains(name), "{keys:?}");
    }
    // The Set it returns (an interface the scope describes) is observed through
    // toString(), not only its size.
    let shown: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("java.util.Set"))
        .collect();
    assert!(
        text.contains(r#"toString()  // "[capital, harbour]""#),
        "no content observed: {shown:?}"
    );
    ok(&fx.replay(&out));
}

#[test]
fn a_jdks_key_lookups_get_the_keys_of_its_configuration_files_and_a_librarys_do_not() {
    let out_dir = tempfile::tempdir().expect("temp dir");
    let out = out_dir.path().join("security.yaml");
    let recorded = Command::new(env!("CARGO_BIN_EXE_difftest"))
        .args([
            "record",
            "--impl",
            "temurin17",
            "--no-progress",
            "--reruns",
            "1",
        ])
        .args([
            "--classes",
            "java.security.Security",
            "--output-limit",
            "1500",
        ])
        .arg("--output")
        .arg(&out)
        .output()
        .expect("difftest runs");
    ok(&recorded);
    let suite = Suite::load(&out).unwrap();
    let keys = calls_with(
        &suite,
        "java.security.Security.getProperty(",
        0,
        |_| true,
        |_| true,
    );
    // Set in conf/security/java.security, and shown there commented out.
    for key in [
        "jdk.tls.disabledAlgorithms",
        "securerandom.source",
        "jdk.security.provider.preferred",
    ] {
        assert!(keys.contains(key), "{key} not looked up: {keys:?}");
    }
    let values = step_values(&suite, "java.security.Security.getProperty(");
    assert!(
        values.iter().any(|v| v.contains("SSLv3")),
        "no default read: {values:?}"
    );
    // Every key looked up was counted (the other arguments are the default literals).
    let counted = suite.header.counts.get("config-keys").copied().unwrap_or(0);
    let dotted = keys
        .iter()
        .filter(|k| k.contains('.') && !k.contains(' '))
        .count();
    assert!(counted as usize >= dotted, "{counted} < {dotted}: {keys:?}");

    // A library target's scope gets none: its own settings are not read.
    let fx = Fixture::new();
    let lib = fx.path("registry.yaml");
    ok(&fx.record(
        &lib,
        &["--classes", "rec.Registry", "--output-limit", "100"],
    ));
    let suite = Suite::load(&lib).unwrap();
    assert_eq!(suite.header.counts.get("config-keys"), Some(&0));
}

/// The lengths `Array.getLength` read from `getBytes()` of what `rec.Forge.getInstance(m)`
/// cast, by metal `m`: each length read traced back through the statements it uses.
fn ingot_lengths(suite: &Suite) -> std::collections::BTreeSet<(String, String)> {
    let mut out = std::collections::BTreeSet::new();
    for t in &suite.tests {
        // The statement whose value statement `i` takes from, if `i` is a call of `callee`.
        let input = |i: usize, callee: &str| match &t.statements[i] {
            s @ Statement::Call { receiver, args, .. } if s.callee().starts_with(callee) => {
                receiver.or(args.first().copied())
            }
            _ => None,
        };
        for (i, seen) in t.expected_steps.iter().enumerate() {
            let Some(Observed::Value { text, .. }) = seen else {
                continue;
            };
            let metal = input(i, "java.lang.reflect.Array.getLength(")
                .and_then(|bytes| input(bytes, "rec.Ingot.getBytes("))
                .and_then(|ingot| input(ingot, "rec.Forge.cast("))
                .and_then(|forge| input(forge, "rec.Forge.getInstance("))
                .and_then(|name| match &t.statements[name] {
                    Statement::Literal { value, .. } => Some(value.to_string()),
                    _ => None,
                });
            if let Some(metal) = metal {
                out.insert((metal, text.clone()));
            }
        }
    }
    out
}

#[test]
fn looked_up_objects_have_their_products_called_and_equal_keyed_lists_are_swept() {
    let fx = Fixture::new();
    let scope = [
        "--classes",
        "rec.Kinds,rec.Forge,rec.Mould,rec.Ingot",
        // The lengths are read by harvesting, whose queue is served last.
        "--output-limit",
        "10000",
        "--round-size",
        "100",
    ];
    let out = fx.path("products.yaml");
    ok(&fx.record(&out, &scope));
    let suite = Suite::load(&out).unwrap();
    // `Kinds.of("Mould")` lists what `Kinds.of("Forge")` listed: both lists are read
    // (harvesting reads a length, which random calls never do) and swept, each for its own
    // class, whichever came first.
    let read = ["rec.Kinds.of(", "java.lang.reflect.Array.getLength("];
    let keys = literals_in_tests_calling(&suite, &read, |v| v == "Forge" || v == "Mould");
    assert_eq!(keys.len(), 2, "{keys:?}");
    for class in ["rec.Forge", "rec.Mould"] {
        let metals = calls_with(
            &suite,
            &format!("{class}.getInstance("),
            0,
            |_| true,
            |_| true,
        );
        assert!(
            metals.contains("iron") && metals.contains("bronze"),
            "{class}: {metals:?}"
        );
    }
    // A forge's ingot (a product), the ingot's bytes (the product's product), their length.
    assert!(suite.header.counts["products"] >= 2);
    // Each length read must be its metal's. Without `java.util.Set` in scope (whose
    // `Set.of` orders differ by JVM) the rounds fall the same way on every run; with it,
    // a loaded CI machine once saw no length read at all.
    let lengths = ingot_lengths(&suite);
    let size = |metal: &str| if metal == "iron" { "32" } else { "16" };
    assert!(!lengths.is_empty(), "no ingot's bytes read");
    assert!(lengths.iter().all(|(m, n)| n == size(m)), "{lengths:?}");
    ok(&fx.replay(&out));
    let off = fx.path("no-products.yaml");
    ok(&fx.record(&off, &[&scope[..], &["--no-products"]].concat()));
    assert_eq!(Suite::load(&off).unwrap().header.counts["products"], 0);
}

#[test]
fn a_set_iterating_in_identity_hash_order_is_checked_by_content_not_by_text() {
    // Five badges hash by identity: the set's text is one of 120 orders in each JVM. No
    // rerun here, so only the worker's mark keeps it unchecked.
    let fx = Fixture::new();
    let out = fx.path("badges.yaml");
    let args = [
        "--classes",
        "rec.Badge,java.util.HashSet",
        "--output-limit",
        "400",
        "--reruns",
        "0",
    ];
    ok(&fx.record(&out, &args));
    let suite = Suite::load(&out).unwrap();
    let texts = suite.tests.iter().flat_map(|t| {
        let steps = t.expected_steps.iter().flatten();
        steps.chain(t.expected_observations.iter().flatten())
    });
    let mut sizes = 0;
    for o in texts {
        if let Observed::Value { text, .. } = o {
            assert!(
                text.matches("Badge(").count() < 2,
                "checked in order: {text}"
            );
            sizes += usize::from(text == "5");
        }
    }
    assert!(sizes > 0, "the set's size is still checked");
    for _ in 0..2 {
        ok(&fx.replay(&out));
    }
}

#[test]
fn a_catalogue_in_per_jvm_order_is_swept_in_one_order_for_one_seed() {
    // `Flags.names()` is a `Set.of` of forty names, read by index: each JVM draws another
    // order, so the names reached `Flags.of` in another order in every record. One worker:
    // with two, each JVM's set has its own text (another per-JVM effect, not this one).
    let fx = Fixture::new();
    let args = [
        "--jobs",
        "1",
        "--classes",
        "rec.Flags",
        "--output-limit",
        "100",
        "--round-size",
        "50",
        "--reruns",
        "0",
        "--seed",
        "3",
    ];
    let (a, b) = (fx.path("a.yaml"), fx.path("b.yaml"));
    ok(&fx.record(&a, &args));
    ok(&fx.record(&b, &args));
    let text = std::fs::read_to_string(&a).unwrap();
    let swept = |i: usize| text.contains(&format!("\"flag-{i}\""));
    assert!((0..40).all(swept), "every name is swept");
    assert!(text == std::fs::read_to_string(&b).unwrap(), "files differ");
}

/// The number in `line` right after `word` (`"of 12 tests"`, word `"of"`: 12).
fn count_after(line: &str, word: &str) -> usize {
    let rest = line
        .split(word)
        .nth(1)
        .unwrap_or_else(|| panic!("{word} in {line}"));
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("a count after {word} in {line}"))
}

#[test]
fn the_summary_follows_the_pipeline_and_its_counts_add_up() {
    let fx = Fixture::new();
    let suite = fx.path("summary.yaml");
    let args = [
        "--classes",
        "rec.Account",
        "--seed",
        "17",
        "--output-limit",
        "300",
    ];
    let out = fx.record(&suite, &args);
    ok(&out);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = |prefix: &str| {
        text.lines()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} line in\n{text}"))
    };
    let order = ["generated:", "reduced:", "reran:", "wrote ", "peak RSS:"].map(line);
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "order {order:?}:\n{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let (reduced, reran) = (lines[order[1]], lines[order[2]]);
    assert_eq!(count_after(reduced, "reduced:"), 300, "{reduced}");
    let kept = count_after(reduced, "→");
    assert_eq!(count_after(reran, "reran:"), kept, "{reran}");
    let dropped = count_after(reran, ";");
    let after_reruns = count_after(reran, "→");
    assert_eq!(after_reruns, kept - dropped, "{reran}");
    let written = count_after(lines[order[3]], ":");
    let again = text.lines().find(|l| l.starts_with("reduced again:"));
    match again {
        Some(l) => {
            assert_eq!(count_after(l, "again:"), after_reruns, "{l}");
            assert_eq!(count_after(l, "→"), written, "{l}");
        }
        None => assert_eq!(after_reruns, written, "{text}"),
    }
    assert_eq!(Suite::load(&suite).unwrap().tests.len(), written);
}
