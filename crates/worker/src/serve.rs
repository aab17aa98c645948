//! The worker's main loop: takes the protocol channel away from stdin/stdout (so the code
//! under test can neither read our requests nor print into our answers), starts the JVM on
//! a thread with a large stack, and answers requests until `Bye` or end of input.

use super::agent;
use super::answers::Answers;
use super::clock::{Clock, Part};
use super::encode::{Encoding, encode};
use super::jvm::{Entry, Jvm};
use super::sandbox;
use super::stop::{self, Stopper};
use super::wall_clock;
use crate::message::{PROTOCOL_VERSION, Request, Response, SeqRequest, decode, receive, send};
use crate::model::ApiModel;
use crate::sequence::SeqResult;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::FromRawFd;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Native stack of the thread that runs Java code: deep recursion in the code under test
/// must end in a `StackOverflowError`, not in a crash of the worker.
const JAVA_THREAD_STACK: usize = 16 << 20;

/// How the supervisor asked this worker to run (the flags of `difftest __worker`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// The supervisor's process id: the worker dies with it.
    pub parent: Option<i32>,
    /// Apply the sandbox before the JVM starts.
    pub sandbox: bool,
    /// Kernel bound on the worker's writable private memory (RLIMIT_DATA), in bytes.
    pub data_limit: Option<u64>,
}

/// Entry point of `difftest __worker`; returns the process exit code.
pub fn main(args: &Options) -> i32 {
    let began = Instant::now(); // start-up as reported counts the sandbox too
    if let Some(parent) = args.parent {
        sandbox::die_with_parent(parent);
    }
    // Still one thread here, as a new user namespace requires.
    let warnings = match args.sandbox {
        true => match std::env::current_dir() {
            Ok(dir) => sandbox::apply(&dir),
            Err(e) => vec![format!("sandbox: not applied: no working directory ({e})")],
        },
        false => Vec::new(),
    };
    let data_limit = args.data_limit;
    give_fatal_signals_to_the_jvm();
    stop::block_signal();
    let (input, output) = match take_protocol_channel() {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("difftest worker: cannot set up its channel: {e}");
            return 3;
        }
    };
    let thread = std::thread::Builder::new()
        .name("difftest-java".into())
        .stack_size(JAVA_THREAD_STACK)
        .spawn(move || serve(input, output, began, warnings, data_limit));
    match thread.map(|t| t.join()) {
        Ok(Ok(code)) => code,
        _ => 3,
    }
}

/// Rust's runtime installs SIGSEGV/SIGBUS handlers (for its own stack overflows). The JVM
/// would chain to them for faults it cannot handle, and Rust's handler then ends the
/// process silently. Without them the JVM reports a fatal error (hs_err) on stderr.
fn give_fatal_signals_to_the_jvm() {
    // SAFETY: restoring default dispositions before any other thread exists.
    unsafe {
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
    }
}

/// Moves the protocol to fresh descriptors; stdout then points at stderr, stdin at /dev/null.
fn take_protocol_channel() -> std::io::Result<(File, File)> {
    // SAFETY: plain descriptor juggling on descriptors this process owns; no Rust object
    // holds descriptors 0 or 1 across these calls.
    unsafe {
        let input = libc::dup(0);
        let output = libc::dup(1);
        if input < 0 || output < 0 || libc::dup2(2, 1) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        if null >= 0 {
            libc::dup2(null, 0);
            libc::close(null);
        }
        Ok((File::from_raw_fd(input), File::from_raw_fd(output)))
    }
}

fn serve(
    input: File,
    output: File,
    began: Instant,
    warnings: Vec<String>,
    data_limit: Option<u64>,
) -> i32 {
    let mut input = BufReader::with_capacity(1 << 20, input);
    let mut out = match Answers::new(output) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("difftest worker: cannot start its answer writer: {e}");
            return 3;
        }
    };
    let (jvm, stopper) = match start(&mut input, &mut out, began, warnings, data_limit) {
        Some(started) => started,
        None => return 3,
    };
    let mut clock = Clock::default();
    loop {
        let waiting = Instant::now();
        let mut line = String::new();
        if !matches!(input.read_line(&mut line), Ok(n) if n > 0) {
            break;
        }
        clock.add(Part::Wait, waiting);
        let decoding = Instant::now();
        let Ok(req) = decode::<Request>(&line) else {
            break;
        };
        clock.add(Part::Decode, decoding);
        let ok = match req {
            Request::Bye => break,
            Request::Timings => timings(&jvm, &mut clock, &mut out).is_ok(),
            other => answer(&jvm, stopper.as_ref(), other, &mut clock, &mut out).is_ok(),
        };
        if !ok {
            return 3;
        }
    }
    let _ = out.finish();
    // The JVM cannot be unloaded, and DestroyJavaVM may wait forever for a stuck thread.
    // SAFETY: ends the process without running destructors, which is what we want here.
    unsafe { libc::_exit(0) }
}

fn start(
    input: &mut impl std::io::BufRead,
    out: &mut impl Write,
    began: Instant,
    mut warnings: Vec<String>,
    data_limit: Option<u64>,
) -> Option<(Arc<Jvm>, Option<Stopper>)> {
    let spec = match receive::<Request>(input) {
        Ok(Some(Request::Hello { version, jvm })) if version == PROTOCOL_VERSION => jvm,
        Ok(Some(Request::Hello { version, .. })) => {
            fail(
                out,
                format!("protocol version {version}, worker speaks {PROTOCOL_VERSION}"),
            );
            return None;
        }
        _ => {
            fail(out, "expected hello".into());
            return None;
        }
    };
    // An Espresso guest loads the agent lazily, so its copy lives in the worker's own folder
    // (removed with the worker); a plain JVM loads it at once and the copy is deleted.
    let espresso = spec.espresso.as_ref();
    let dir = match (espresso, std::env::current_dir()) {
        (Some(_), Ok(cwd)) => cwd.join("difftest-agent"),
        _ => std::env::temp_dir().join(format!("difftest-agent-{}", std::process::id())),
    };
    // Java's temporary files go to the worker's own folder: the one place it may write in the
    // sandbox, and removed with the worker.
    let mut options = spec.options.clone();
    if let Ok(cwd) = std::env::current_dir() {
        options.push(format!("-Djava.io.tmpdir={}", cwd.display()));
    }
    wall_clock::set(spec.clock_shift_ms, spec.clock_rate);
    let started = agent::install(&dir)
        .map_err(|e| format!("cannot write the agent to {}: {e}", dir.display()))
        .and_then(|_| match espresso {
            Some(rt) => Jvm::start_espresso(&spec.libjvm, &options, &dir, &spec.classpath, rt),
            None => Jvm::start(&spec.libjvm, &options, &dir, &spec.classpath),
        });
    if espresso.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    if let (Ok(_), Some(bytes)) = (&started, data_limit)
        && let Err(e) = sandbox::limit_data(bytes)
    {
        warnings.push(format!(
            "sandbox: worker memory not bounded by the kernel: {e}"
        ));
    }
    match started {
        Ok(jvm) => {
            let jvm = Arc::new(jvm);
            // An Espresso guest runs on a host thread that must not be stopped.
            let stopper = match espresso {
                Some(_) => None,
                None => Stopper::start(&jvm)
                    .map_err(|e| {
                        warnings.push(format!("stops: timed-out calls kill the worker: {e}"))
                    })
                    .ok(),
            };
            if wall_clock::is_set() {
                let before = wall_clock::real_millis();
                let java = jvm.current_time_millis();
                warnings.extend(java.map_or_else(Some, |ms| wall_clock::check(ms, before)));
            }
            let millis = began.elapsed().as_millis() as u64;
            let ready = Response::Ready {
                version: PROTOCOL_VERSION,
                millis,
                warnings,
                thread: Some(this_thread_id()),
                can_stop: stopper.is_some(),
            };
            (send(out, &ready).is_ok() && out.flush().is_ok()).then_some((jvm, stopper))
        }
        Err(e) => {
            fail(out, e);
            None
        }
    }
}

/// The kernel's id of the calling thread (the one that runs the sequences).
fn this_thread_id() -> u32 {
    // SAFETY: gettid has no preconditions and cannot fail.
    unsafe { libc::gettid() as u32 }
}

fn fail(out: &mut impl Write, error: String) {
    let _ = send(out, &Response::Failed { error });
    let _ = out.flush();
}

/// The agent's table of the time spent since the last ask, then the worker's own.
fn timings(jvm: &Jvm, clock: &mut Clock, out: &mut Answers) -> std::io::Result<()> {
    let resp = match jvm.call(Entry::Timings, "") {
        Ok(java) => Response::Timings {
            table: java + &clock.take(),
        },
        Err(error) => Response::Failed { error },
    };
    send(out, &resp)?;
    out.flush()
}

fn answer(
    jvm: &Jvm,
    stopper: Option<&Stopper>,
    req: Request,
    clock: &mut Clock,
    out: &mut Answers,
) -> std::io::Result<()> {
    let resp = match req {
        Request::Describe {
            classes,
            packages,
            jars,
        } => describe(jvm, &classes, &packages, &jars),
        Request::Properties { names } => properties(jvm, &names),
        Request::Constants { classes } => constants(jvm, &classes),
        Request::Coverage => coverage(jvm),
        Request::Run {
            first_id,
            isolate,
            contracts,
            max_value_bytes,
            plain_class_text,
            sequences,
        } => {
            // Only generation's runs check the contracts; they also end a sequence at a
            // repeat of a call that returned a value too large to store whole.
            let encoding = Encoding {
                contracts,
                max_value_bytes,
                end_large_repeats: contracts,
                plain_class_text,
            };
            let runner = Runner {
                jvm,
                stopper,
                encoding,
            };
            return run(&runner, first_id, isolate, &sequences, clock, out);
        }
        Request::Hello { .. } | Request::Bye | Request::Timings => Response::Failed {
            error: "unexpected message".into(),
        },
    };
    send(out, &resp)?;
    out.flush()
}

#[derive(serde::Deserialize)]
struct Described {
    classes: BTreeMap<String, crate::model::ApiClass>,
    unknown: Vec<String>,
    #[serde(default)]
    missing: BTreeMap<String, String>,
}

fn describe(jvm: &Jvm, classes: &[String], packages: &[String], jars: &[PathBuf]) -> Response {
    let mut lines: Vec<String> = classes.iter().map(|c| format!("class {c}")).collect();
    lines.extend(packages.iter().map(|p| match p.strip_suffix(".*") {
        Some(tree) => format!("tree {tree}"),
        None => format!("package {p}"),
    }));
    lines.extend(jars.iter().map(|j| format!("jar {}", j.display())));
    let answer = jvm.call(Entry::Describe, &lines.join("\n"));
    match answer
        .and_then(|text| serde_json::from_str::<Described>(&text).map_err(|e| e.to_string()))
    {
        Ok(d) => Response::Model {
            model: ApiModel { classes: d.classes },
            unknown: d.unknown,
            missing: d.missing,
        },
        Err(error) => Response::Failed { error },
    }
}

fn constants(jvm: &Jvm, classes: &[String]) -> Response {
    let answer = jvm.call(Entry::Constants, &classes.join("\n"));
    match answer.and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string())) {
        Ok(classes) => Response::Constants { classes },
        Err(error) => Response::Failed { error },
    }
}

fn properties(jvm: &Jvm, names: &[String]) -> Response {
    let answer = jvm.call(Entry::Properties, &names.join("\n"));
    match answer.and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string())) {
        Ok(values) => Response::Properties { values },
        Err(error) => Response::Failed { error },
    }
}

fn coverage(jvm: &Jvm) -> Response {
    match jvm.call(Entry::Coverage, "") {
        Ok(text) => match text.strip_prefix('!') {
            Some(error) => Response::Failed {
                error: error.to_string(),
            },
            None => Response::Coverage { hex: text },
        },
        Err(error) => Response::Failed { error },
    }
}

/// Runs the sequences, each answer handed to the writer as soon as it is complete (written
/// within `answers::LINGER`, with those that follow it meanwhile; `RunDone` at once); with
/// `isolate`, each is written before the next call runs (see [`Answers`]).
/// What runs a request's sequences.
struct Runner<'a> {
    jvm: &'a Jvm,
    stopper: Option<&'a Stopper>,
    encoding: Encoding,
}

fn run(
    runner: &Runner,
    first_id: u64,
    isolate: bool,
    sequences: &[SeqRequest],
    clock: &mut Clock,
    out: &mut Answers,
) -> std::io::Result<()> {
    for (i, seq) in sequences.iter().enumerate() {
        let (result, trusted) = run_stoppable(runner, i as u32, seq, clock);
        let began = Instant::now();
        send(
            out,
            &Response::Result {
                id: first_id + i as u64,
                result,
            },
        )?;
        clock.add(Part::Send, began);
        let began = Instant::now();
        match isolate {
            true => out.flush_written()?,
            false => out.hand_over_soon()?,
        }
        clock.add(Part::Flush, began);
        if !trusted {
            // A stop that never arrived may still hit a later sequence: end here, after the
            // answer, and let the supervisor start another worker.
            out.flush()?;
            // SAFETY: ends the process at once, as `serve` does.
            unsafe { libc::_exit(3) }
        }
    }
    send(out, &Response::RunDone)?;
    out.flush()
}

/// Runs sequence `index` of a request where the stopper can stop it: a stopped sequence is
/// reported as timed out. False when the JVM is no longer to be trusted (`stop::settle`).
fn run_stoppable(
    runner: &Runner,
    index: u32,
    seq: &SeqRequest,
    clock: &mut Clock,
) -> (SeqResult, bool) {
    let Some(stopper) = runner.stopper else {
        return (run_one(runner.jvm, seq, runner.encoding, clock), true);
    };
    stopper.begin(index);
    let result = run_one(runner.jvm, seq, runner.encoding, clock);
    if !stopper.end() {
        return (result, true);
    }
    (SeqResult::Timeout { millis: 0 }, stop::settle(runner.jvm))
}

fn run_one(jvm: &Jvm, seq: &SeqRequest, encoding: Encoding, clock: &mut Clock) -> SeqResult {
    if !clock.on() {
        let answer = jvm.call(Entry::Run, &encode(seq, encoding));
        return parse_answer(answer);
    }
    let began = Instant::now();
    let encoded = encode(seq, encoding);
    clock.add(Part::Encode, began);
    let began = Instant::now();
    let answer = jvm.call(Entry::Run, &encoded);
    clock.add(Part::Call, began);
    let began = Instant::now();
    let result = parse_answer(answer);
    clock.add(Part::Parse, began);
    result
}

fn parse_answer(answer: Result<String, String>) -> SeqResult {
    match answer.and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string())) {
        Ok(result) => result,
        Err(e) => SeqResult::Crash {
            exit: "agent error".into(),
            stderr_tail: e,
        },
    }
}
