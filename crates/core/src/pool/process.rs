//! One worker process as the supervisor sees it: spawned in its own process group in an
//! empty working directory, fed requests on stdin, read line by line on a reader thread so
//! that every wait has a deadline, and killed with its whole group when it stops answering,
//! grows past its memory bound, or the run is stopped.
//!
//! Every worker is spawned from one long-lived thread (the *keeper*): the worker asks for
//! `PR_SET_PDEATHSIG`, which fires when the thread that forked it ends, not the process, so
//! spawning from a pool thread that later exits would kill a worker still in use.

use super::clock::CallClock;
use crate::message::{PROTOCOL_VERSION, Request, Response, STOP_SIGNAL, decode, send};
use crate::targets::JvmSpec;
use crate::text::clip;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How much of a worker's stderr is kept for crash reports.
const STDERR_TAIL: usize = 4096;

/// Why a worker stopped answering.
#[derive(Debug)]
pub(super) enum Failure {
    /// Nothing arrived within the deadline; the worker has been killed.
    Timeout,
    /// The worker's output ended: it died.
    Died { exit: String, stderr_tail: String },
    /// It answered something that is not a protocol message.
    Garbled(String),
    /// Its resident memory grew past the bound (KiB seen); the worker has been killed.
    Memory { rss_kib: u64, limit_kib: u64 },
    /// The run was stopped (interrupt or hard deadline); the worker has been killed.
    Stopped,
}

/// What else ends a wait besides an answer or the per-call timeout.
#[derive(Clone, Copy, Default)]
pub(super) struct Watch<'a> {
    /// Set when the whole run must stop at once.
    pub abort: Option<&'a AtomicBool>,
    /// The run must end by then.
    pub deadline: Option<Instant>,
    /// Largest resident set allowed, in KiB.
    pub max_rss_kib: Option<u64>,
}

impl Watch<'_> {
    pub(super) fn stopped(&self) -> bool {
        self.abort.is_some_and(|a| a.load(Ordering::SeqCst))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// How often a wait looks at the abort flag, the deadline and the worker's memory.
const WATCH_EVERY: Duration = Duration::from_millis(25);

/// How a worker is started.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Launch {
    /// Apply the sandbox in the worker.
    pub sandbox: bool,
    /// Kernel bound on the worker's writable private memory (RLIMIT_DATA), in bytes.
    pub data_limit: Option<u64>,
}

/// Why a worker could not be started.
#[derive(Debug)]
pub(super) struct SpawnError {
    pub message: String,
    /// It was killed from outside (SIGKILL) while starting: another try may work.
    pub killed: bool,
}

impl Failure {
    /// The worker was killed by SIGKILL from outside (the OOM killer, an operator), not by
    /// anything it did itself that difftest noticed.
    pub(super) fn killed_from_outside(&self) -> bool {
        matches!(self, Failure::Died { exit, .. } if exit.contains("(SIGKILL)"))
    }
}

/// A live worker process.
pub(super) struct WorkerProcess {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    lines: Receiver<Frame>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    _cwd: tempfile::TempDir,
    pub startup_ms: u64,
    /// The thread that runs the sequences, as the worker said (`Response::Ready`).
    java_thread: Option<u32>,
    /// Whether a sequence past its timeout can be stopped instead of killing the worker
    /// (`Response::Ready`).
    can_stop: bool,
}

/// How long a worker asked to stop a sequence has to answer before it is killed, in parts
/// of the timeout (at least [`MIN_STOP_GRACE`]).
const STOP_GRACE_DIVISOR: u32 = 4;
const MIN_STOP_GRACE: Duration = Duration::from_millis(100);

impl WorkerProcess {
    /// Spawns `exe __worker` and starts the JVM in it; fails with the worker's own words.
    pub(super) fn spawn(
        exe: &Path,
        jvm: &JvmSpec,
        deadline: Duration,
        launch: Launch,
    ) -> Result<Self, SpawnError> {
        let plain = |message: String| SpawnError {
            message,
            killed: false,
        };
        let cwd = tempfile::Builder::new()
            .prefix("difftest-worker-")
            .tempdir()
            .map_err(|e| plain(format!("cannot create a working directory: {e}")))?;
        let mut command = Command::new(exe);
        command
            .arg("__worker")
            .arg(format!("--parent={}", std::process::id()))
            .current_dir(cwd.path())
            .env_remove("JAVA_TOOL_OPTIONS")
            .env_remove("_JAVA_OPTIONS")
            .env_remove("JDK_JAVA_OPTIONS")
            .envs(&jvm.env)
            .env("TMPDIR", cwd.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if launch.sandbox {
            command.arg("--sandbox");
        }
        if let Some(bytes) = launch.data_limit {
            command.arg(format!("--data-limit={bytes}"));
        }
        let mut child = spawn_from_keeper(command)
            .map_err(|e| plain(format!("cannot run {}: {e}", exe.display())))?;
        let lines = read_lines(child.stdout.take().expect("piped stdout"), MAX_MESSAGE);
        let stderr = keep_tail(child.stderr.take().expect("piped stderr"));
        let stdin = BufWriter::with_capacity(1 << 20, child.stdin.take().expect("piped stdin"));
        let mut worker = WorkerProcess {
            child,
            stdin,
            lines,
            stderr,
            _cwd: cwd,
            startup_ms: 0,
            java_thread: None,
            can_stop: false,
        };
        worker.hello(jvm, deadline)?;
        Ok(worker)
    }

    fn hello(&mut self, jvm: &JvmSpec, deadline: Duration) -> Result<(), SpawnError> {
        let hello = Request::Hello {
            version: PROTOCOL_VERSION,
            jvm: jvm.clone(),
        };
        let ready = self
            .send(&hello)
            .and_then(|_| self.receive(deadline, &Watch::default()));
        let plain = |message: String| SpawnError {
            message,
            killed: false,
        };
        let ready = match ready {
            Ok(r) => r,
            Err(f) => {
                let killed = f.killed_from_outside();
                let message = self.explain(f);
                return Err(SpawnError { message, killed });
            }
        };
        match ready {
            Response::Ready {
                millis,
                warnings,
                thread,
                can_stop,
                ..
            } => {
                self.startup_ms = millis;
                self.java_thread = thread;
                self.can_stop = can_stop;
                warn_once(&warnings);
                Ok(())
            }
            Response::Failed { error } => Err(plain(error)),
            other => Err(plain(format!("unexpected answer to hello: {other:?}"))),
        }
    }

    fn explain(&mut self, failure: Failure) -> String {
        match failure {
            Failure::Timeout => "the worker did not start in time".into(),
            Failure::Died { exit, stderr_tail } => {
                format!(
                    "the worker died at start-up ({exit}): {}",
                    last_line(&stderr_tail)
                )
            }
            Failure::Garbled(e) => e,
            Failure::Memory { rss_kib, .. } => {
                format!("the worker used {} MiB at start-up", rss_kib / 1024)
            }
            Failure::Stopped => "stopped".into(),
        }
    }

    /// Sends a request (flushed).
    pub(super) fn send(&mut self, req: &Request) -> Result<(), Failure> {
        let sent = send(&mut self.stdin, req).and_then(|_| self.stdin.flush());
        sent.map_err(|_| self.died())
    }

    /// Waits up to `timeout` for the next message (on the [`CallClock`]: time a loaded machine
    /// kept the worker's Java thread from a CPU does not count); kills the worker on
    /// timeout, or as soon as `watch` says the run stops or the worker's memory is past its
    /// bound.
    pub(super) fn receive(
        &mut self,
        timeout: Duration,
        watch: &Watch,
    ) -> Result<Response, Failure> {
        self.receive_stoppable(timeout, watch, None)
    }

    /// [`WorkerProcess::receive`] for the answer to sequence `index` of a run: when the
    /// timeout passes, a worker that can stop it is asked to (it then answers that the
    /// sequence timed out and goes on with the run), and killed only if no answer comes
    /// within a grace period.
    pub(super) fn receive_stoppable(
        &mut self,
        timeout: Duration,
        watch: &Watch,
        index: Option<u32>,
    ) -> Result<Response, Failure> {
        let thread = self.java_thread.map(|tid| (self.child.id(), tid));
        let mut clock = CallClock::start(timeout, thread);
        let mut stop = index.filter(|_| self.can_stop);
        loop {
            match self.lines.recv_timeout(WATCH_EVERY.min(timeout)) {
                Ok(Frame::Line(line)) => {
                    return decode(&line).map_err(|e| {
                        let line = clip(line.trim_end());
                        Failure::Garbled(format!("bad worker message ({e}): {line}"))
                    });
                }
                Ok(Frame::TooLong) => {
                    self.kill();
                    let mib = MAX_MESSAGE >> 20;
                    return Err(Failure::Garbled(format!(
                        "a worker message longer than {mib} MiB"
                    )));
                }
                Ok(Frame::End) | Err(RecvTimeoutError::Disconnected) => return Err(self.died()),
                Err(RecvTimeoutError::Timeout) if clock.expired() => {
                    if let Some(index) = stop.take()
                        && self.ask_to_stop(index)
                    {
                        let grace = (timeout / STOP_GRACE_DIVISOR).max(MIN_STOP_GRACE);
                        clock = CallClock::start(grace, thread);
                        continue;
                    }
                    self.kill();
                    return Err(Failure::Timeout);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if watch.stopped() {
                self.kill();
                return Err(Failure::Stopped);
            }
            if let Some(limit_kib) = watch.max_rss_kib {
                let rss_kib = self.rss_kib().unwrap_or(0);
                if rss_kib > limit_kib {
                    self.kill();
                    return Err(Failure::Memory { rss_kib, limit_kib });
                }
            }
        }
    }

    /// Queues the stop signal for sequence `index` to the worker; false if it cannot be sent.
    fn ask_to_stop(&self, index: u32) -> bool {
        let value = libc::sigval {
            sival_ptr: index as usize as *mut libc::c_void,
        };
        // SAFETY: sigqueue to our own child, with a plain value.
        let sent = unsafe { libc::sigqueue(self.child.id() as libc::pid_t, STOP_SIGNAL, value) };
        sent == 0
    }

    /// Kills the worker's whole process group and reaps it.
    pub(super) fn kill(&mut self) {
        // SAFETY: the worker leads its own process group (spawned with process_group(0)).
        unsafe {
            libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }

    /// Resident set size of the worker now, in KiB, from /proc.
    pub(super) fn rss_kib(&self) -> Option<u64> {
        crate::usage::rss_kib(self.child.id())
    }

    /// Peak resident set size of the worker, in KiB, from /proc.
    pub(super) fn peak_rss_kib(&self) -> Option<u64> {
        crate::usage::peak_rss_kib(self.child.id())
    }

    fn died(&mut self) -> Failure {
        let waited = Instant::now();
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if waited.elapsed() < Duration::from_secs(2) => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => break None,
            }
        };
        if status.is_none() {
            self.kill();
        }
        std::thread::sleep(Duration::from_millis(20)); // let the stderr reader drain
        Failure::Died {
            exit: describe_exit(status),
            stderr_tail: self.stderr_tail(),
        }
    }

    /// The last few KiB the worker wrote to stderr.
    pub(super) fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        String::from_utf8_lossy(&Vec::from(tail)).into_owned()
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        let _ = send(&mut self.stdin, &Request::Bye).and_then(|_| self.stdin.flush());
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(1));
            self.kill();
        }
    }
}

/// Spawns `command` from the keeper thread, which lives as long as the process.
fn spawn_from_keeper(mut command: Command) -> std::io::Result<Child> {
    type Job = (Command, Sender<std::io::Result<Child>>);
    static KEEPER: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    let keeper = KEEPER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        let started = std::thread::Builder::new()
            .name("difftest-spawner".into())
            .spawn(move || {
                for (mut command, answer) in rx {
                    let _ = answer.send(command.spawn());
                }
            });
        if let Err(e) = started {
            eprintln!("difftest: warning: no spawner thread ({e}); workers may outlive a pool");
        }
        Mutex::new(tx)
    });
    let (tx, rx) = channel();
    let Ok(keeper) = keeper.lock() else {
        return command.spawn();
    };
    match keeper.send((command, tx)) {
        Ok(()) => rx
            .recv()
            .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string()))),
        // No keeper thread: spawn here (the worker then dies with this thread at the latest).
        Err(mut back) => (back.0).0.spawn(),
    }
}

/// Prints each sandbox warning a worker reports, once per process.
fn warn_once(warnings: &[String]) {
    static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let Ok(mut seen) = SEEN.lock() else { return };
    for w in warnings {
        if !seen.contains(w) {
            eprintln!("difftest: warning: {w}");
            seen.push(w.clone());
        }
    }
}

/// The longest message read from a worker. Its answers are bounded by what it was asked
/// (values by `--max-value-bytes`, except in suites recorded before that cap), but library
/// code runs inside it: output without a newline must not grow the supervisor unbounded.
pub(super) const MAX_MESSAGE: u64 = 1 << 30;

/// What the reader of a worker's output hands on.
#[derive(Debug, PartialEq)]
enum Frame {
    /// One whole message, its newline included.
    Line(String),
    /// A message longer than the bound: the reader stopped.
    TooLong,
    /// The output ended, or was not text.
    End,
}

/// Reads the worker's output line by line on a thread of its own, each line at most `max`
/// bytes.
fn read_lines(stdout: impl Read + Send + 'static, max: u64) -> Receiver<Frame> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 20, stdout);
        loop {
            let mut line = String::new();
            let frame = match (&mut reader).take(max).read_line(&mut line) {
                Ok(_) if line.ends_with('\n') => Frame::Line(line),
                Ok(n) if n as u64 == max => Frame::TooLong,
                _ => Frame::End,
            };
            let more = matches!(frame, Frame::Line(_));
            if tx.send(frame).is_err() || !more {
                return;
            }
        }
    });
    rx
}

fn keep_tail(stderr: impl Read + Send + 'static) -> Arc<Mutex<VecDeque<u8>>> {
    let tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
    let shared = Arc::clone(&tail);
    std::thread::spawn(move || {
        let mut stderr = stderr;
        let mut buf = [0u8; 4096];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                return;
            }
            let Ok(mut tail) = shared.lock() else { return };
            tail.extend(&buf[..n]);
            let excess = tail.len().saturating_sub(STDERR_TAIL);
            tail.drain(..excess);
        }
    });
    tail
}

fn describe_exit(status: Option<std::process::ExitStatus>) -> String {
    match status {
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => format!("exit code {code}"),
            (_, Some(sig)) => format!("killed by signal {sig} ({})", signal_name(sig)),
            _ => "ended".into(),
        },
        None => "stopped answering".into(),
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGTERM => "SIGTERM",
        _ => "signal",
    }
}

fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no output")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn a_message_longer_than_the_bound_stops_the_reader() {
        let lines = read_lines(Cursor::new(b"abc\nxxxxxxxxxxxxxxxxxxxx\n".to_vec()), 8);
        assert_eq!(lines.recv().unwrap(), Frame::Line("abc\n".into()));
        assert_eq!(lines.recv().unwrap(), Frame::TooLong);
        assert!(lines.recv().is_err(), "the reader stopped");
    }

    #[test]
    fn a_message_of_the_bound_with_its_newline_is_read() {
        let lines = read_lines(Cursor::new(b"abcdefg\nxy".to_vec()), 8);
        assert_eq!(lines.recv().unwrap(), Frame::Line("abcdefg\n".into()));
        assert_eq!(lines.recv().unwrap(), Frame::End, "no newline: cut off");
    }
}
