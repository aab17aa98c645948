//! The worker's answer channel: a thread of its own writes the answers, so an answer is on
//! its way to the supervisor soon after it is complete, even while the next call hangs.
//!
//! The supervisor relies on this: when it waits longer than the per-call timeout for the
//! next answer, every earlier answer has arrived, so the call that hangs is the first one
//! not answered, and it can be blamed without running the rest again one by one. A crash
//! is different: the process may die before the writer wrote the last answer, so the
//! supervisor finds the call that crashed by asking again with `isolate`, where
//! [`Answers::flush_written`] waits until each answer is written before the next call runs.
//!
//! A run's answers are handed over with [`Answers::hand_over_soon`]: the writer writes them
//! once the oldest is [`LINGER`] old, together with those handed over since, so a run of
//! thousands of short sequences costs the worker and the supervisor one wake-up and one
//! pipe write per [`LINGER`] instead of one per answer (measured with `difftest bench
//! attribute`: the hand-over was 6 % of a replaying worker's time). Everything else
//! ([`Write::flush`]) is written at once.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the writer waits for more answers after the first one handed over with
/// [`Answers::hand_over_soon`]: the longest an answer waits before it is written (far below
/// any per-call timeout).
pub(crate) const LINGER: Duration = Duration::from_millis(10);

/// What the runner has handed over and the writer has not written yet.
#[derive(Default)]
struct Handed {
    bytes: Vec<u8>,
    /// Whom to tell once the bytes are written and flushed.
    done: Vec<Sender<()>>,
    /// Write now, without lingering.
    urgent: bool,
    /// When the oldest of `bytes` was handed over.
    since: Option<Instant>,
    /// The writer sleeps until told: the next hand-over must wake it.
    asleep: bool,
    /// No more bytes will come: write what is left and end.
    closed: bool,
    /// The writer ended (it could not write: the supervisor went away).
    failed: bool,
}

/// The state the runner and the writer thread share.
#[derive(Default)]
struct Channel {
    handed: Mutex<Handed>,
    wake: Condvar,
}

impl Channel {
    fn lock(&self) -> MutexGuard<'_, Handed> {
        self.handed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Buffers what is written; [`Write::flush`] hands the buffered bytes to the writer thread,
/// which writes them at once; [`Answers::hand_over_soon`] lets them wait up to [`LINGER`].
pub struct Answers {
    pending: Vec<u8>,
    channel: Arc<Channel>,
    writer: Option<JoinHandle<std::io::Result<()>>>,
}

impl Answers {
    /// Starts the writer thread over `output`.
    pub fn new(output: File) -> std::io::Result<Answers> {
        let channel = Arc::new(Channel::default());
        let shared = Arc::clone(&channel);
        let writer = std::thread::Builder::new()
            .name("difftest-answers".into())
            .spawn(move || {
                let result = write_all(&shared, BufWriter::with_capacity(1 << 16, output));
                let mut handed = shared.lock();
                handed.failed = true;
                for done in handed.done.drain(..) {
                    drop(done); // the runner waiting on it learns the writer ended
                }
                result
            })?;
        Ok(Answers {
            pending: Vec::new(),
            channel,
            writer: Some(writer),
        })
    }

    /// Hands over what is buffered and returns once it is written and flushed.
    pub fn flush_written(&mut self) -> std::io::Result<()> {
        let (done, written) = std::sync::mpsc::channel();
        self.hand_over(true, Some(done))?;
        written
            .recv()
            .map_err(|_| std::io::ErrorKind::BrokenPipe.into())
    }

    /// Hands over what is buffered, to be written within [`LINGER`] together with whatever
    /// follows it meanwhile.
    pub fn hand_over_soon(&mut self) -> std::io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.hand_over(false, None)
    }

    fn hand_over(&mut self, urgent: bool, done: Option<Sender<()>>) -> std::io::Result<()> {
        let mut handed = self.channel.lock();
        if handed.failed {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        if handed.bytes.is_empty() {
            handed.since = Some(Instant::now());
        }
        handed.bytes.append(&mut self.pending);
        handed.done.extend(done);
        handed.urgent |= urgent;
        if urgent || handed.asleep {
            handed.asleep = false;
            self.channel.wake.notify_one();
        }
        Ok(())
    }

    /// Hands over what is buffered and waits until the writer thread has written it all.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.flush()?;
        {
            let mut handed = self.channel.lock();
            handed.closed = true;
            self.channel.wake.notify_one();
        }
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(std::io::Error::other("the answer writer panicked")),
            None => Ok(()),
        }
    }
}

impl Write for Answers {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.hand_over(true, None)
    }
}

/// The writer thread: sleeps until bytes are handed over; unless they are urgent, waits
/// until the oldest of them is [`LINGER`] old; writes and flushes all it has, and tells
/// whoever waits.
fn write_all(channel: &Channel, mut out: impl Write) -> std::io::Result<()> {
    let mut handed = channel.lock();
    loop {
        if handed.bytes.is_empty() && handed.done.is_empty() {
            if handed.closed {
                return out.flush();
            }
            handed.asleep = true;
            handed = channel
                .wake
                .wait_while(handed, |h| h.asleep && !h.closed)
                .unwrap_or_else(|p| p.into_inner());
            continue;
        }
        let age = handed.since.map_or(LINGER, |t| t.elapsed());
        if !handed.urgent && !handed.closed && age < LINGER {
            handed = channel
                .wake
                .wait_timeout_while(handed, LINGER - age, |h| !h.urgent && !h.closed)
                .unwrap_or_else(|p| p.into_inner())
                .0;
            continue;
        }
        let bytes = std::mem::take(&mut handed.bytes);
        let done = std::mem::take(&mut handed.done);
        handed.urgent = false;
        handed.since = None;
        drop(handed);
        out.write_all(&bytes)?;
        out.flush()?;
        for d in done {
            let _ = d.send(());
        }
        handed = channel.lock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{PipeReader, Read};

    /// Answers writing into a pipe, and the pipe's reading end.
    fn piped() -> (Answers, PipeReader) {
        let (read, write) = std::io::pipe().expect("pipe");
        let file = File::from(std::os::fd::OwnedFd::from(write));
        (Answers::new(file).expect("writer"), read)
    }

    #[test]
    fn a_flushed_answer_arrives_while_the_runner_is_busy() {
        let (mut answers, mut read) = piped();
        answers.write_all(b"one\n").unwrap();
        answers.flush().unwrap();
        // No further write and no finish: the runner "hangs"; the answer is there anyway.
        let mut got = [0u8; 4];
        read.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"one\n");
        answers.write_all(b"two\n").unwrap();
        answers.finish().unwrap();
        let mut rest = String::new();
        read.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "two\n");
    }

    #[test]
    fn a_written_flush_returns_after_the_bytes_are_in_the_pipe() {
        let (mut answers, mut read) = piped();
        answers.write_all(b"sure\n").unwrap();
        answers.flush_written().unwrap();
        // As if the process died right after: the writer ends without another flush.
        answers.channel.lock().closed = true;
        answers.channel.wake.notify_one();
        let mut all = String::new();
        read.read_to_string(&mut all).unwrap();
        assert_eq!(all, "sure\n");
    }

    #[test]
    fn an_answer_handed_over_soon_arrives_while_the_runner_is_busy_with_those_after_it() {
        let (mut answers, mut read) = piped();
        answers.write_all(b"one\n").unwrap();
        answers.hand_over_soon().unwrap();
        answers.write_all(b"two\n").unwrap();
        answers.hand_over_soon().unwrap();
        // No flush and no finish: the runner "hangs"; both answers are there anyway.
        let began = std::time::Instant::now();
        let mut got = [0u8; 8];
        read.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"one\ntwo\n");
        assert!(began.elapsed() < LINGER * 100, "{:?}", began.elapsed());
        answers.write_all(b"three\n").unwrap();
        answers.hand_over_soon().unwrap();
        let mut got = [0u8; 6];
        read.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"three\n");
        answers.finish().unwrap();
    }

    #[test]
    fn answers_handed_over_soon_are_written_together_after_the_linger() {
        let (mut answers, mut read) = piped();
        let began = std::time::Instant::now();
        for k in 0..50 {
            answers.write_all(format!("{k:02}\n").as_bytes()).unwrap();
            answers.hand_over_soon().unwrap();
        }
        let mut first = [0u8; 3];
        read.read_exact(&mut first).unwrap();
        let waited = began.elapsed();
        answers.finish().unwrap();
        let mut rest = String::new();
        read.read_to_string(&mut rest).unwrap();
        assert_eq!(&first, b"00\n");
        assert_eq!(rest.lines().count(), 49);
        // The first answer waited for the others rather than going out alone at once.
        assert!(waited >= LINGER / 2, "{waited:?}");
    }

    #[test]
    fn unflushed_bytes_stay_until_flushed() {
        let (mut answers, mut read) = piped();
        answers.write_all(b"partial").unwrap();
        answers.finish().unwrap();
        let mut all = String::new();
        read.read_to_string(&mut all).unwrap();
        assert_eq!(all, "partial");
    }
}
