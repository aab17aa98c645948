//! The worker's own share of a run's time, for `difftest bench attribute`: encoding each
//! sequence for the agent, the JNI call that runs it, reading its answer, handing the answer
//! to the writer, and waiting for (and reading) the next request. Off until the supervisor
//! first asks for timings; then each part is two clock reads.

use std::time::{Duration, Instant};

/// The parts of a run the worker's Rust side times, in table order.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Part {
    /// The sequence encoded in the agent's line format.
    Encode,
    /// The JNI call into the agent, the Java run included (strings converted both ways).
    Call,
    /// The agent's JSON answer read into a result.
    Parse,
    /// The result written as a message (JSON).
    Send,
    /// The message handed to the writer thread.
    Flush,
    /// Blocked on the next request, and reading its line.
    Wait,
    /// The request's line decoded.
    Decode,
}

const PARTS: [(Part, &str); 7] = [
    (Part::Encode, "encode"),
    (Part::Call, "jni call"),
    (Part::Parse, "parse answer"),
    (Part::Send, "answer to JSON"),
    (Part::Flush, "hand answer over"),
    (Part::Wait, "wait for request"),
    (Part::Decode, "decode request"),
];

/// Totals per part since the last [`Clock::take`]; `None` while off.
#[derive(Debug, Default)]
pub(crate) struct Clock {
    totals: Option<[(u64, Duration); 7]>,
}

impl Clock {
    /// Whether the parts are being timed.
    pub(crate) fn on(&self) -> bool {
        self.totals.is_some()
    }

    /// Adds the time since `began` to `part`, when on.
    pub(crate) fn add(&mut self, part: Part, began: Instant) {
        if let Some(totals) = &mut self.totals {
            let t = &mut totals[part as usize];
            t.0 += 1;
            t.1 += began.elapsed();
        }
    }

    /// The totals as `worker<TAB>part<TAB>count<TAB>nanoseconds` lines (none the first time,
    /// which turns the clock on); starts again from zero.
    pub(crate) fn take(&mut self) -> String {
        let lines = self.totals.map_or_else(String::new, |totals| {
            PARTS
                .iter()
                .map(|&(part, name)| {
                    let (count, spent) = totals[part as usize];
                    format!("worker\t{name}\t{count}\t{}\n", spent.as_nanos())
                })
                .collect()
        });
        self.totals = Some(Default::default());
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_until_the_first_take_then_counts_each_part_and_starts_again() {
        let mut clock = Clock::default();
        clock.add(Part::Call, Instant::now());
        assert!(!clock.on());
        assert_eq!(clock.take(), "");
        assert!(clock.on());
        clock.add(Part::Call, Instant::now());
        clock.add(Part::Call, Instant::now());
        clock.add(Part::Wait, Instant::now());
        let table = clock.take();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 7);
        assert!(lines[1].starts_with("worker\tjni call\t2\t"), "{table}");
        assert!(
            lines[5].starts_with("worker\twait for request\t1\t"),
            "{table}"
        );
        assert!(clock.take().lines().all(|l| l.contains("\t0\t0")));
    }
}
