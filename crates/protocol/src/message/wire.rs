//! Flat read forms of the supervisor's requests and the worker's responses (see
//! [`crate::sequence::wire`] for why: serde buffers an internally tagged enum whole before
//! reading it; these read in one pass and are checked into their enums by `TryFrom`).

use super::{Request, Response, SeqRequest};
use crate::jvm::JvmSpec;
use crate::model::ApiModel;
use crate::sequence::SeqResult;
use crate::sequence::wire::need;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum RequestMsg {
    Hello,
    Describe,
    Properties,
    Constants,
    Coverage,
    Timings,
    Run,
    Bye,
}

#[derive(Deserialize)]
pub struct RequestWire {
    msg: RequestMsg,
    version: Option<u32>,
    jvm: Option<JvmSpec>,
    classes: Option<Vec<String>>,
    packages: Option<Vec<String>>,
    jars: Option<Vec<std::path::PathBuf>>,
    names: Option<Vec<String>>,
    first_id: Option<u64>,
    isolate: Option<bool>,
    contracts: Option<bool>,
    max_value_bytes: Option<u64>,
    plain_class_text: Option<bool>,
    sequences: Option<Vec<SeqRequest>>,
}

impl TryFrom<RequestWire> for Request {
    type Error = String;

    fn try_from(w: RequestWire) -> Result<Request, String> {
        Ok(match w.msg {
            RequestMsg::Hello => Request::Hello {
                version: need(w.version, "version", "hello")?,
                jvm: need(w.jvm, "jvm", "hello")?,
            },
            RequestMsg::Describe => Request::Describe {
                classes: need(w.classes, "classes", "describe")?,
                packages: need(w.packages, "packages", "describe")?,
                jars: w.jars.unwrap_or_default(),
            },
            RequestMsg::Properties => Request::Properties {
                names: need(w.names, "names", "properties")?,
            },
            RequestMsg::Constants => Request::Constants {
                classes: need(w.classes, "classes", "constants")?,
            },
            RequestMsg::Run => Request::Run {
                first_id: need(w.first_id, "first_id", "run")?,
                isolate: need(w.isolate, "isolate", "run")?,
                contracts: need(w.contracts, "contracts", "run")?,
                max_value_bytes: w.max_value_bytes,
                plain_class_text: w.plain_class_text.unwrap_or(false),
                sequences: need(w.sequences, "sequences", "run")?,
            },
            RequestMsg::Coverage => Request::Coverage,
            RequestMsg::Timings => Request::Timings,
            RequestMsg::Bye => Request::Bye,
        })
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum ResponseMsg {
    Ready,
    Failed,
    Model,
    Properties,
    Constants,
    Coverage,
    Timings,
    Result,
    RunDone,
}

#[derive(Deserialize)]
pub struct ResponseWire {
    msg: ResponseMsg,
    version: Option<u32>,
    millis: Option<u64>,
    #[serde(default)]
    warnings: Vec<String>,
    thread: Option<u32>,
    #[serde(default)]
    can_stop: bool,
    error: Option<String>,
    model: Option<ApiModel>,
    unknown: Option<Vec<String>>,
    #[serde(default)]
    missing: BTreeMap<String, String>,
    values: Option<BTreeMap<String, String>>,
    classes: Option<BTreeMap<String, Vec<String>>>,
    id: Option<u64>,
    result: Option<SeqResult>,
    hex: Option<String>,
    table: Option<String>,
}

impl TryFrom<ResponseWire> for Response {
    type Error = String;

    fn try_from(w: ResponseWire) -> Result<Response, String> {
        Ok(match w.msg {
            ResponseMsg::Ready => Response::Ready {
                version: need(w.version, "version", "ready")?,
                millis: need(w.millis, "millis", "ready")?,
                warnings: w.warnings,
                thread: w.thread,
                can_stop: w.can_stop,
            },
            ResponseMsg::Failed => Response::Failed {
                error: need(w.error, "error", "failed")?,
            },
            ResponseMsg::Model => Response::Model {
                model: need(w.model, "model", "model")?,
                unknown: need(w.unknown, "unknown", "model")?,
                missing: w.missing,
            },
            ResponseMsg::Properties => Response::Properties {
                values: need(w.values, "values", "properties")?,
            },
            ResponseMsg::Constants => Response::Constants {
                classes: need(w.classes, "classes", "constants")?,
            },
            ResponseMsg::Result => Response::Result {
                id: need(w.id, "id", "result")?,
                result: need(w.result, "result", "result")?,
            },
            ResponseMsg::Coverage => Response::Coverage {
                hex: need(w.hex, "hex", "coverage")?,
            },
            ResponseMsg::Timings => Response::Timings {
                table: need(w.table, "table", "timings")?,
            },
            ResponseMsg::RunDone => Response::RunDone,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::message::{Request, Response, SeqRequest};
    use crate::sequence::{SeqResult, Statement};

    fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T) -> T {
        serde_json::from_str(&serde_json::to_string(v).unwrap()).unwrap()
    }

    #[test]
    fn requests_and_responses_read_back_what_was_written() {
        let run = Request::Run {
            first_id: 4,
            isolate: true,
            contracts: false,
            max_value_bytes: Some(65536),
            plain_class_text: true,
            sequences: vec![SeqRequest {
                statements: vec![Statement::literal("int", "3")],
                observers: vec![],
            }],
        };
        let back = round_trip(&run);
        assert_eq!(format!("{back:?}"), format!("{run:?}"));
        let result = Response::Result {
            id: 9,
            result: SeqResult::Timeout { millis: 5 },
        };
        assert_eq!(format!("{:?}", round_trip(&result)), format!("{result:?}"));
        assert!(matches!(round_trip(&Response::RunDone), Response::RunDone));
        assert!(matches!(round_trip(&Request::Bye), Request::Bye));
        assert!(matches!(round_trip(&Request::Timings), Request::Timings));
        let timings = Response::Timings {
            table: "statement\tjava.lang.String.trim\t3\t1200\n".into(),
        };
        assert_eq!(
            format!("{:?}", round_trip(&timings)),
            format!("{timings:?}")
        );
    }
}
