//! The worker's answer channel: a thread of its own writes the answers, so an answer is on
//! its way to the supervisor as soon as it is complete, even while the next call hangs.
//!
//! The supervisor relies on this: when it waits longer than the per-call timeout for the
//! next answer, every earlier answer has arrived, so the call that hangs is the first one
//! not answered, and it can be blamed without running the rest again one by one. A crash
//! is different: the process may die before the writer wrote the last answer, so the
//! supervisor finds the call that crashed by asking again with `isolate`, where
//! [`Answers::flush_written`] waits until each answer is written before the next call runs.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// Bytes for the writer thread, and whom to tell once they are written and flushed.
type Message = (Vec<u8>, Option<Sender<()>>);

/// Buffers what is written; [`Write::flush`] hands the buffered bytes to the writer thread,
/// which writes them at once and flushes the pipe whenever nothing more is waiting.
pub struct Answers {
    pending: Vec<u8>,
    to_writer: Option<Sender<Message>>,
    writer: Option<JoinHandle<std::io::Result<()>>>,
}

impl Answers {
    /// Starts the writer thread over `output`.
    pub fn new(output: File) -> std::io::Result<Answers> {
        let (to_writer, from_runner) = channel();
        let writer = std::thread::Builder::new()
            .name("difftest-answers".into())
            .spawn(move || write_all(from_runner, BufWriter::with_capacity(1 << 16, output)))?;
        Ok(Answers {
            pending: Vec::new(),
            to_writer: Some(to_writer),
            writer: Some(writer),
        })
    }

    /// Hands over what is buffered and returns once it is written and flushed.
    pub fn flush_written(&mut self) -> std::io::Result<()> {
        let (done, written) = channel();
        self.hand_over(Some(done))?;
        written
            .recv()
            .map_err(|_| std::io::ErrorKind::BrokenPipe.into())
    }

    fn hand_over(&mut self, done: Option<Sender<()>>) -> std::io::Result<()> {
        let bytes = std::mem::take(&mut self.pending);
        match &self.to_writer {
            Some(tx) if tx.send((bytes, done)).is_ok() => Ok(()),
            // The writer ended: it failed to write (the supervisor went away).
            _ => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }

    /// Hands over what is buffered and waits until the writer thread has written it all.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.flush()?;
        self.to_writer = None;
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
        self.hand_over(None)
    }
}

/// The writer thread: writes each message as it comes and flushes when none is waiting.
fn write_all(from_runner: Receiver<Message>, mut out: impl Write) -> std::io::Result<()> {
    while let Ok(first) = from_runner.recv() {
        let mut waiting = Vec::new();
        let mut next = Some(first);
        while let Some((bytes, done)) = next {
            out.write_all(&bytes)?;
            waiting.extend(done);
            next = from_runner.try_recv().ok();
        }
        out.flush()?;
        for done in waiting {
            let _ = done.send(());
        }
    }
    out.flush()
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
        drop(answers.to_writer.take()); // as if the process died right after
        let mut all = String::new();
        read.read_to_string(&mut all).unwrap();
        assert_eq!(all, "sure\n");
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
