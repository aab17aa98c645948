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
use std::io::{BufWriter, ErrorKind, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the writer waits for more answers after the first one handed over with
/// [`Answers::hand_over_soon`]: the longest an answer waits before it is written (far below
/// any per-call timeout).
pub(crate) const LINGER: Duration = Duration::from_millis(10);

/// What the runner hands the writer thread.
enum Handed {
    /// Bytes that may wait up to [`LINGER`] for more.
    Soon(Vec<u8>),
    /// Bytes to write at once, with whom to tell once they are written and flushed.
    Now(Vec<u8>, Option<Sender<()>>),
}

/// Buffers what is written; [`Write::flush`] hands the buffered bytes to the writer thread,
/// which writes them at once; [`Answers::hand_over_soon`] lets them wait up to [`LINGER`].
pub struct Answers {
    pending: Vec<u8>,
    to_writer: Option<Sender<Handed>>,
    writer: Option<JoinHandle<std::io::Result<()>>>,
}

impl Answers {
    /// Starts the writer thread over `output`.
    pub fn new(output: File) -> std::io::Result<Answers> {
        let (to_writer, handed) = mpsc::channel();
        let writer = std::thread::Builder::new()
            .name("difftest-answers".into())
            .spawn(move || write_all(&handed, BufWriter::with_capacity(1 << 16, output)))?;
        Ok(Answers {
            pending: Vec::new(),
            to_writer: Some(to_writer),
            writer: Some(writer),
        })
    }

    /// Hands over what is buffered and returns once it is written and flushed.
    pub fn flush_written(&mut self) -> std::io::Result<()> {
        let (done, written) = mpsc::channel();
        self.hand_over(|bytes| Handed::Now(bytes, Some(done)))?;
        written.recv().map_err(|_| ErrorKind::BrokenPipe.into())
    }

    /// Hands over what is buffered, to be written within [`LINGER`] together with whatever
    /// follows it meanwhile.
    pub fn hand_over_soon(&mut self) -> std::io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.hand_over(Handed::Soon)
    }

    /// Hands the buffered bytes to the writer; fails once the writer has ended (it could
    /// not write: the supervisor went away).
    fn hand_over(&mut self, handed: impl FnOnce(Vec<u8>) -> Handed) -> std::io::Result<()> {
        let bytes = std::mem::take(&mut self.pending);
        let sent = self.to_writer.as_ref().map(|w| w.send(handed(bytes)));
        match sent {
            Some(Ok(())) => Ok(()),
            _ => Err(ErrorKind::BrokenPipe.into()),
        }
    }

    /// Hands over what is buffered and waits until the writer thread has written it all.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.flush()?;
        drop(self.to_writer.take());
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
        self.hand_over(|bytes| Handed::Now(bytes, None))
    }
}

/// The writer thread: waits for bytes; unless they are to go now, gathers what else comes
/// within [`LINGER`]; writes and flushes all it has, and tells whoever waits. Ends when the
/// runner hangs up, after writing what it was given.
fn write_all(handed: &Receiver<Handed>, mut out: impl Write) -> std::io::Result<()> {
    while let Ok(first) = handed.recv() {
        let (mut bytes, mut done) = (Vec::new(), Vec::new());
        let mut linger = gather(first, &mut bytes, &mut done);
        let deadline = Instant::now() + LINGER;
        let mut hung_up = false;
        while linger {
            match handed.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(more) => linger = gather(more, &mut bytes, &mut done),
                Err(RecvTimeoutError::Timeout) => linger = false,
                Err(RecvTimeoutError::Disconnected) => (linger, hung_up) = (false, true),
            }
        }
        out.write_all(&bytes)?;
        out.flush()?;
        for d in done {
            let _ = d.send(());
        }
        if hung_up {
            break;
        }
    }
    out.flush()
}

/// Adds `h` to what the writer holds; whether it may still wait for more.
fn gather(h: Handed, bytes: &mut Vec<u8>, done: &mut Vec<Sender<()>>) -> bool {
    match h {
        Handed::Soon(b) => {
            bytes.extend_from_slice(&b);
            true
        }
        Handed::Now(b, d) => {
            bytes.extend_from_slice(&b);
            done.extend(d);
            false
        }
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
        drop(answers);
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
