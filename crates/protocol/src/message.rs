//! The private protocol between the supervisor (the library's `pool`) and a worker process:
//! one JSON message per line over the worker's stdin and stdout. The first exchange is
//! `Hello`/`Ready`, which checks [`PROTOCOL_VERSION`]; runs are batched, and the worker
//! answers each sequence as it finishes so that a hang or crash is pinned to one sequence.

use crate::jvm::JvmSpec;
use crate::model::ApiModel;
use crate::sequence::{ObserverCall, SeqResult, Statement};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

mod wire;

/// Bumped whenever a message changes shape (7 added `Timings`, 8 `Run`'s `plain_class_text`).
pub const PROTOCOL_VERSION: u32 = 9;

/// The signal the supervisor queues to a worker (`sigqueue`, the value the index of the
/// sequence in the current run it waits for) to stop that sequence without killing the JVM;
/// only a worker that said `can_stop` in its `Ready` gets it.
pub const STOP_SIGNAL: i32 = 10; // SIGUSR1 on Linux

/// One sequence to run, with the observers to call after it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SeqRequest {
    pub statements: Vec<Statement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observers: Vec<ObserverCall>,
}

/// Supervisor to worker.
#[derive(Serialize, Deserialize, Debug)]
#[serde(tag = "msg", rename_all = "snake_case", try_from = "wire::RequestWire")]
pub enum Request {
    /// Start the JVM described by `jvm`.
    Hello { version: u32, jvm: JvmSpec },
    /// Describe these classes, every public class of these packages (`p` alone, `p.*` with
    /// its subpackages) and every public class in these jars or class folders.
    Describe {
        classes: Vec<String>,
        packages: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        jars: Vec<PathBuf>,
    },
    /// Read system properties.
    Properties { names: Vec<String> },
    /// The literal constants of these classes' class files.
    Constants { classes: Vec<String> },
    /// Run sequences; `first_id` numbers them. Every answer is sent as soon as it is
    /// complete; with `isolate`, it is written before the next sequence runs, so that even a
    /// crash is pinned to one sequence (used after a crash).
    Run {
        first_id: u64,
        isolate: bool,
        contracts: bool,
        /// Values whose escaped text is longer come back as `Observed::Large`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_value_bytes: Option<u64>,
        /// The `toString()` observer of an object whose class keeps `Object.toString()` is
        /// answered as `Class@0`, without calling the class's `hashCode()`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        plain_class_text: bool,
        sequences: Vec<SeqRequest>,
    },
    /// The execution data of the JaCoCo agent the JVM was started with, since the last ask.
    Coverage,
    /// Where the worker's time went since the last ask (`difftest bench attribute`); the
    /// first ask turns the timing on and answers an empty table.
    Timings,
    /// Leave.
    Bye,
}

/// Worker to supervisor.
#[derive(Serialize, Deserialize, Debug)]
#[serde(
    tag = "msg",
    rename_all = "snake_case",
    try_from = "wire::ResponseWire"
)]
pub enum Response {
    Ready {
        version: u32,
        millis: u64,
        /// What the sandbox could not do on this kernel, one line each.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        warnings: Vec<String>,
        /// The kernel's id of the thread that runs the sequences: the supervisor reads how
        /// long it waited for a CPU, so a machine's load does not count against a call's
        /// timeout.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thread: Option<u32>,
        /// Whether a sequence past its timeout can be stopped with [`STOP_SIGNAL`] (JVMTI
        /// `StopThread`) instead of killing the worker.
        #[serde(default)]
        can_stop: bool,
    },
    /// The worker could not do what was asked; it stays usable unless it said so at start-up.
    Failed {
        error: String,
    },
    Model {
        model: ApiModel,
        unknown: Vec<String>,
        /// Classes of the scope left out because loading or describing them needs a class
        /// the class path lacks: class → the missing class.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        missing: BTreeMap<String, String>,
    },
    Properties {
        values: BTreeMap<String, String>,
    },
    /// Per class, its constants as a type letter (`S I J F D`) and the rendered value.
    Constants {
        classes: BTreeMap<String, Vec<String>>,
    },
    /// JaCoCo execution data (the `.exec` format), as hex.
    Coverage {
        hex: String,
    },
    /// Time per part of a run, one `part<TAB>key<TAB>count<TAB>nanoseconds` line each.
    Timings {
        table: String,
    },
    /// The result of sequence `id`; then `RunDone` after the last one.
    Result {
        id: u64,
        result: SeqResult,
    },
    RunDone,
}

/// Writes one message as a line.
pub fn send<T: Serialize>(out: &mut impl Write, msg: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, msg)?;
    out.write_all(b"\n")
}

/// Reads one message; `Ok(None)` at end of input.
pub fn receive<T: for<'de> Deserialize<'de>>(input: &mut impl BufRead) -> io::Result<Option<T>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    decode(&line)
        .map(Some)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Decodes one message from its line (the supervisor's and the worker's one decoder).
/// Its error is one line, whatever the message quoted.
pub fn decode<T: for<'de> Deserialize<'de>>(line: &str) -> Result<T, String> {
    serde_json::from_str(line).map_err(|e| difftest_base::line::escaped_line(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::Observed;

    #[test]
    fn messages_round_trip_as_single_lines() {
        let msg = Response::Result {
            id: 7,
            result: SeqResult::Done {
                steps: vec![Observed::Value {
                    class: "java.lang.String".into(),
                    text: "a\\nb".into(),
                }],
                observations: vec![],
                violations: vec![],
                contents: vec![],
            },
        };
        let mut buf = Vec::new();
        send(&mut buf, &msg).unwrap();
        assert_eq!(buf.iter().filter(|&&b| b == b'\n').count(), 1);
        let back: Option<Response> = receive(&mut &buf[..]).unwrap();
        assert!(matches!(back, Some(Response::Result { id: 7, .. })));
    }
}
