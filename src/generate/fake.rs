//! A fake reference for unit tests: a handful of classes interpreted in Rust with the
//! agent's semantics (stop at the first abnormal step, observers only after a normal run,
//! contracts on object values), including one nondeterministic method and one class whose
//! `equals` is not reflexive.

use crate::model::{ApiClass, ApiModel, Callable, ClassKind};
use crate::pool::Executor;
use crate::pool::PoolError;
use crate::sequence::{Observed, SeqResult, Statement, Violation};
use crate::worker::protocol::SeqRequest;
use std::sync::atomic::{AtomicU64, Ordering};

fn callable(name: &str, params: &[&str], returns: &str, is_static: bool) -> Callable {
    Callable {
        name: name.into(),
        params: params.iter().map(|p| p.to_string()).collect(),
        returns: returns.into(),
        is_static,
        deprecated_for_removal: false,
    }
}

fn class(name: &str, constructors: Vec<Callable>, methods: Vec<Callable>) -> ApiClass {
    ApiClass {
        name: name.into(),
        kind: ClassKind::Class,
        supertypes: vec![],
        constructors,
        methods,
        fields: vec![],
        enum_constants: vec![],
        deprecated_for_removal: false,
    }
}

/// `t.Counter` (new, add(int) -> int, inc(), get() -> int, getName() -> String),
/// `t.Util` (static div(int,int) -> int, concat(String,String) -> String),
/// `t.Clock` (static now() -> long, nondeterministic), `t.Weird` (equals not reflexive).
/// What generation on [`model`] keeps with this seed, stopping at `limit` tests, rounds of 50.
pub fn recorded(seed: u64, limit: usize) -> super::Recorded {
    let model = model();
    let cfg = super::GenConfig {
        seed,
        output_limit: Some(limit),
        round_size: 50,
        ..super::GenConfig::default()
    };
    let mut g = super::Generator::new(&model, cfg).expect("the fake model has a scope");
    let stop = std::sync::atomic::AtomicBool::new(false);
    g.run(&Fake::default(), &stop, |_| {})
        .expect("the fake runs");
    g.finish()
}

pub fn model() -> ApiModel {
    let counter = class(
        "t.Counter",
        vec![callable("<init>", &[], "t.Counter", false)],
        vec![
            callable("add", &["int"], "int", false),
            callable("inc", &[], "void", false),
            callable("get", &[], "int", false),
            callable("getName", &[], "java.lang.String", false),
        ],
    );
    let util = class(
        "t.Util",
        vec![],
        vec![
            callable("div", &["int", "int"], "int", true),
            callable(
                "concat",
                &["java.lang.String", "java.lang.String"],
                "java.lang.String",
                true,
            ),
        ],
    );
    let clock = class("t.Clock", vec![], vec![callable("now", &[], "long", true)]);
    let weird = class(
        "t.Weird",
        vec![callable("<init>", &[], "t.Weird", false)],
        vec![],
    );
    ApiModel {
        classes: [counter, util, clock, weird]
            .into_iter()
            .map(|c| (c.name.clone(), c))
            .collect(),
    }
}

#[derive(Clone, Debug)]
enum Val {
    Null,
    Void,
    Int(i64, &'static str),
    Str(String),
    Counter(usize),
    Weird,
}

/// The fake clock, shared by every fake so that `now()` differs on every call.
static CLOCK: AtomicU64 = AtomicU64::new(0);

/// Interprets sequences.
#[derive(Default)]
pub struct Fake {
    pub calls: AtomicU64,
}

impl Executor for Fake {
    fn target(&self) -> &str {
        "ref"
    }

    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        Ok(seqs.iter().map(|s| self.run_one(s, contracts)).collect())
    }
}

fn shown(v: &Val) -> Observed {
    let value = |class: &str, text: String| Observed::Value {
        class: class.into(),
        text,
    };
    match v {
        Val::Null => Observed::Null,
        Val::Void => Observed::Void,
        Val::Int(i, class) => value(class, i.to_string()),
        Val::Str(s) => value("java.lang.String", s.clone()),
        Val::Counter(_) => Observed::Object {
            class: "t.Counter".into(),
        },
        Val::Weird => Observed::Object {
            class: "t.Weird".into(),
        },
    }
}

fn threw(class: &str) -> Observed {
    Observed::Threw {
        class: class.into(),
        message: None,
    }
}

impl Fake {
    fn run_one(&self, seq: &SeqRequest, contracts: bool) -> SeqResult {
        let mut vals: Vec<Val> = Vec::new();
        let mut counters: Vec<i64> = Vec::new();
        let mut steps = Vec::new();
        for s in &seq.statements {
            match self.step(s, &vals, &mut counters) {
                Ok(v) => {
                    steps.push(shown(&v));
                    vals.push(v);
                }
                Err(o) => {
                    steps.push(o);
                    return done(steps, vec![], vec![]);
                }
            }
        }
        let observations = seq
            .observers
            .iter()
            .map(|o| match (&vals[o.stmt], o.method.as_str()) {
                (Val::Counter(c), "get") => shown(&Val::Int(counters[*c], "java.lang.Integer")),
                (Val::Counter(c), "getName") => {
                    shown(&Val::Str(format!("counter{}", counters[*c])))
                }
                _ => Observed::Missing {
                    what: o.method.clone(),
                },
            })
            .collect();
        let violations = vals
            .iter()
            .enumerate()
            .filter(|(_, v)| contracts && matches!(v, Val::Weird))
            .map(|(stmt, _)| Violation {
                stmt,
                contract: "equals-reflexive".into(),
                detail: "equals returned false".into(),
            })
            .collect();
        done(steps, observations, violations)
    }

    fn step(&self, s: &Statement, vals: &[Val], counters: &mut Vec<i64>) -> Result<Val, Observed> {
        let int = |i: usize| match &vals[i] {
            Val::Int(n, _) => Ok(*n),
            _ => Err(threw("java.lang.NullPointerException")),
        };
        let text = |i: usize| match &vals[i] {
            Val::Str(s) => Ok(s.clone()),
            _ => Err(threw("java.lang.NullPointerException")),
        };
        Ok(match s {
            Statement::Literal { ty, value } if ty == "java.lang.String" => Val::Str(value.clone()),
            Statement::Literal { value, .. } => Val::Int(
                value.trim_end_matches(".0").parse().unwrap_or(0),
                "java.lang.Integer",
            ),
            Statement::Null { .. } => Val::Null,
            Statement::New { class, .. } if class == "t.Counter" => {
                counters.push(0);
                Val::Counter(counters.len() - 1)
            }
            Statement::New { .. } => Val::Weird,
            Statement::Call {
                method,
                receiver: Some(r),
                args,
                ..
            } => {
                let Val::Counter(c) = vals[*r] else {
                    return Err(threw("java.lang.NullPointerException"));
                };
                match method.as_str() {
                    "add" => {
                        counters[c] += int(args[0])?;
                        Val::Int(counters[c], "java.lang.Integer")
                    }
                    "inc" => {
                        counters[c] += 1;
                        Val::Void
                    }
                    "get" => Val::Int(counters[c], "java.lang.Integer"),
                    _ => Val::Str(format!("counter{}", counters[c])),
                }
            }
            Statement::Call { method, args, .. } => match method.as_str() {
                "div" if int(args[1])? == 0 => return Err(threw("java.lang.ArithmeticException")),
                "div" => Val::Int(int(args[0])? / int(args[1])?, "java.lang.Integer"),
                "concat" => Val::Str(text(args[0])? + &text(args[1])?),
                _ => Val::Int(
                    CLOCK.fetch_add(7, Ordering::Relaxed) as i64,
                    "java.lang.Long",
                ),
            },
            _ => {
                return Err(Observed::Missing { what: s.callee() });
            }
        })
    }
}

fn done(
    steps: Vec<Observed>,
    observations: Vec<Observed>,
    violations: Vec<Violation>,
) -> SeqResult {
    SeqResult::Done {
        steps,
        observations,
        violations,
    }
}
