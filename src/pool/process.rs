//! One worker process as the supervisor sees it: spawned in its own process group in an
//! empty working directory, fed requests on stdin, read line by line on a reader thread so
//! that every wait has a deadline, and killed with its whole group when it stops answering.

use crate::target::JvmSpec;
use crate::worker::protocol::{PROTOCOL_VERSION, Request, Response, send};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much of a worker's stderr is kept for crash reports.
const STDERR_TAIL: usize = 4096;

/// Why a worker stopped answering.
#[derive(Debug)]
pub enum Failure {
    /// Nothing arrived within the deadline; the worker has been killed.
    Timeout,
    /// The worker's output ended: it died.
    Died { exit: String, stderr_tail: String },
    /// It answered something that is not a protocol message.
    Garbled(String),
}

/// A live worker process.
pub struct WorkerProcess {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    _cwd: tempfile::TempDir,
    pub startup_ms: u64,
}

impl WorkerProcess {
    /// Spawns `exe __worker` and starts the JVM in it; fails with the worker's own words.
    pub fn spawn(exe: &Path, jvm: &JvmSpec, deadline: Duration) -> Result<Self, String> {
        let cwd = tempfile::Builder::new()
            .prefix("difftest-worker-")
            .tempdir()
            .map_err(|e| format!("cannot create a working directory: {e}"))?;
        let mut child = Command::new(exe)
            .arg("__worker")
            .current_dir(cwd.path())
            .env_remove("JAVA_TOOL_OPTIONS")
            .env_remove("_JAVA_OPTIONS")
            .env_remove("JDK_JAVA_OPTIONS")
            .envs(&jvm.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        let lines = read_lines(child.stdout.take().expect("piped stdout"));
        let stderr = keep_tail(child.stderr.take().expect("piped stderr"));
        let stdin = BufWriter::with_capacity(1 << 20, child.stdin.take().expect("piped stdin"));
        let mut worker = WorkerProcess {
            child,
            stdin,
            lines,
            stderr,
            _cwd: cwd,
            startup_ms: 0,
        };
        worker.hello(jvm, deadline)?;
        Ok(worker)
    }

    fn hello(&mut self, jvm: &JvmSpec, deadline: Duration) -> Result<(), String> {
        let hello = Request::Hello {
            version: PROTOCOL_VERSION,
            jvm: jvm.clone(),
        };
        self.send(&hello).map_err(|e| self.explain(e))?;
        match self.receive(deadline).map_err(|e| self.explain(e))? {
            Response::Ready { millis, .. } => {
                self.startup_ms = millis;
                Ok(())
            }
            Response::Failed { error } => Err(error),
            other => Err(format!("unexpected answer to hello: {other:?}")),
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
        }
    }

    /// Sends a request (flushed).
    pub fn send(&mut self, req: &Request) -> Result<(), Failure> {
        let sent = send(&mut self.stdin, req).and_then(|_| self.stdin.flush());
        sent.map_err(|_| self.died())
    }

    /// Waits up to `deadline` for the next message; kills the worker on timeout.
    pub fn receive(&mut self, deadline: Duration) -> Result<Response, Failure> {
        match self.lines.recv_timeout(deadline) {
            Ok(Some(line)) => serde_json::from_str(&line)
                .map_err(|e| Failure::Garbled(format!("bad worker message ({e}): {line}"))),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(self.died()),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Failure::Timeout)
            }
        }
    }

    /// Kills the worker's whole process group and reaps it.
    pub fn kill(&mut self) {
        // SAFETY: the worker leads its own process group (spawned with process_group(0)).
        unsafe {
            libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }

    /// Peak resident set size of the worker, in KiB, from /proc.
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
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
    pub fn stderr_tail(&self) -> String {
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

fn read_lines(stdout: impl Read + Send + 'static) -> Receiver<Option<String>> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 20, stdout);
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(n) if n > 0 && line.ends_with('\n') => {
                    if tx.send(Some(line)).is_err() {
                        return;
                    }
                }
                _ => {
                    let _ = tx.send(None);
                    return;
                }
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
