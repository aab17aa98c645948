//! The fake's world: its API model, the interpreter of its classes, and the fixtures built
//! on it (counter tests with the reference's results as expectations; a generated recording
//! is `generate::on_fake`, above the pool).

use super::{Fake, Flavor};
use crate::message::SeqRequest;
use crate::model::{ApiClass, ApiModel, Callable, ClassKind};
use crate::sequence::{Observed, SeqResult, Statement, Violation};
use crate::suite::Test;
use std::sync::atomic::{AtomicU64, Ordering};

const COUNTER: &str = "t.Counter";
const INT: &str = "java.lang.Integer";
const STRING: &str = "java.lang.String";

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

/// The model of the world the module doc describes.
pub(crate) fn model() -> ApiModel {
    let nullary = |name: &str, returns: &str| Callable::new(name, &[], returns, false);
    let counter = class(
        COUNTER,
        vec![Callable::new("<init>", &[], COUNTER, false)],
        vec![
            Callable::new("add", &["int"], "int", false),
            nullary("inc", "void"),
            nullary("get", "int"),
            nullary("getName", STRING),
            nullary("size", "int"),
            nullary("check", "void"),
            nullary("describe", "void"),
            nullary("newer", "void"),
            nullary("flaky", "int"),
            nullary("poison", "int"),
            nullary("spin", "void"),
            nullary("boom", "void"),
        ],
    );
    let util = class(
        "t.Util",
        vec![],
        vec![
            Callable::new("div", &["int", "int"], "int", true),
            Callable::new("concat", &[STRING, STRING], STRING, true),
        ],
    );
    let clock = class(
        "t.Clock",
        vec![],
        vec![Callable::new("now", &[], "long", true)],
    );
    let weird = class(
        "t.Weird",
        vec![Callable::new("<init>", &[], "t.Weird", false)],
        vec![],
    );
    ApiModel {
        classes: [counter, util, clock, weird]
            .into_iter()
            .map(|c| (c.name.clone(), c))
            .collect(),
    }
}

/// A counter test: `new t.Counter()`, then for each value `add(value)`, then `method()`;
/// with noise (other counters and literals) interleaved. Expectations from the reference.
pub(crate) fn counter_test(id: u64, values: &[i64], noise: usize, method: &str) -> Test {
    let mut s = vec![Statement::new(COUNTER, &[], &[])];
    for (k, v) in values.iter().enumerate() {
        for m in 0..noise {
            s.push(Statement::new(COUNTER, &[], &[]));
            s.push(Statement::literal("int", &(k * 10 + m).to_string()));
            let (c, l) = (s.len() - 2, s.len() - 1);
            s.push(Statement::call(COUNTER, "add", &["int"], Some(c), &[l]));
        }
        s.push(Statement::literal("int", &v.to_string()));
        let l = s.len() - 1;
        s.push(Statement::call(COUNTER, "add", &["int"], Some(0), &[l]));
    }
    s.push(Statement::call(COUNTER, method, &[], Some(0), &[]));
    let request = SeqRequest {
        statements: s,
        observers: vec![],
    };
    expect(id, request)
}

/// The test of `request` with the reference fake's results as expectations.
pub(crate) fn expect(id: u64, request: SeqRequest) -> Test {
    let SeqResult::Done {
        steps,
        observations,
        ..
    } = Fake::reference().execute(&request, false)
    else {
        unreachable!("the reference fake never hangs")
    };
    Test {
        id,
        expected_steps: steps
            .into_iter()
            .map(|o| (!matches!(o, Observed::Object { .. })).then_some(o))
            .collect(),
        expected_observations: observations.into_iter().map(Some).collect(),
        statements: request.statements,
        observers: request.observers,
        varies: Vec::new(),
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

/// A counter's state: its total, and whether 7 was ever added.
#[derive(Clone, Copy, Default)]
struct State {
    total: i64,
    seven: bool,
}

/// The fake clock, shared by every fake so that `now()` differs on every call.
static CLOCK: AtomicU64 = AtomicU64::new(0);

/// Why a sequence stopped early: an abnormal step, or a hang or crash of the whole JVM.
enum Stop {
    Step(Observed),
    Whole(SeqResult),
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
        Val::Str(s) => value(STRING, s.clone()),
        Val::Counter(_) => Observed::Object {
            class: COUNTER.into(),
        },
        Val::Weird => Observed::Object {
            class: "t.Weird".into(),
        },
    }
}

fn threw(class: &str, message: Option<&str>) -> Stop {
    Stop::Step(Observed::Threw {
        class: class.into(),
        message: message.map(str::to_string),
        classpath: None,
    })
}

fn npe() -> Stop {
    threw("java.lang.NullPointerException", None)
}

impl Fake {
    /// Runs one sequence in this fake JVM.
    pub(super) fn execute(&self, seq: &SeqRequest, contracts: bool) -> SeqResult {
        self.sequences.fetch_add(1, Ordering::Relaxed);
        let mut vals: Vec<Val> = Vec::new();
        let mut counters: Vec<State> = Vec::new();
        let mut steps = Vec::new();
        for s in &seq.statements {
            match self.step(s, &vals, &mut counters) {
                Ok(v) => {
                    steps.push(shown(&v));
                    vals.push(v);
                }
                Err(Stop::Step(o)) => {
                    steps.push(o);
                    return done(steps, vec![], vec![]);
                }
                Err(Stop::Whole(r)) => return r,
            }
        }
        let mut observations = Vec::new();
        for o in &seq.observers {
            let seen = match vals[o.stmt] {
                Val::Counter(c) => self.method(&o.method, c, None, &mut counters),
                _ => Err(Stop::Step(Observed::Missing {
                    what: o.method.to_string(),
                })),
            };
            observations.push(match seen {
                Ok(v) => shown(&v),
                Err(Stop::Step(o)) => o,
                Err(Stop::Whole(r)) => return r,
            });
        }
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

    fn step(&self, s: &Statement, vals: &[Val], counters: &mut Vec<State>) -> Result<Val, Stop> {
        let int = |i: usize| match &vals[i] {
            Val::Int(n, _) => Ok(*n),
            _ => Err(npe()),
        };
        let text = |i: usize| match &vals[i] {
            Val::Str(s) => Ok(s.clone()),
            _ => Err(npe()),
        };
        Ok(match s {
            Statement::Literal { ty, value } if &**ty == STRING => Val::Str(value.to_string()),
            Statement::Literal { value, .. } => {
                Val::Int(value.trim_end_matches(".0").parse().unwrap_or(0), INT)
            }
            Statement::Null { .. } => Val::Null,
            Statement::New { class, .. } if &**class == COUNTER => {
                counters.push(State::default());
                Val::Counter(counters.len() - 1)
            }
            Statement::New { class, .. } if &**class == "t.Weird" => Val::Weird,
            Statement::Call {
                method,
                receiver: Some(r),
                args,
                ..
            } => {
                let Val::Counter(c) = vals[*r] else {
                    return Err(npe());
                };
                let arg = args.first().map(|&a| int(a)).transpose()?;
                self.method(method, c, arg, counters)?
            }
            Statement::Call { method, args, .. } => match &**method {
                "div" if int(args[1])? == 0 => {
                    return Err(threw("java.lang.ArithmeticException", None));
                }
                "div" => Val::Int(int(args[0])? / int(args[1])?, INT),
                "concat" => Val::Str(text(args[0])? + &text(args[1])?),
                "now" => Val::Int(
                    CLOCK.fetch_add(7, Ordering::Relaxed) as i64,
                    "java.lang.Long",
                ),
                _ => return Err(Stop::Step(Observed::Missing { what: s.callee() })),
            },
            _ => return Err(Stop::Step(Observed::Missing { what: s.callee() })),
        })
    }

    /// `method(arg)` on counter `c`, as this flavor does it.
    fn method(
        &self,
        method: &str,
        c: usize,
        arg: Option<i64>,
        counters: &mut [State],
    ) -> Result<Val, Stop> {
        let target = self.flavor == Flavor::Target;
        let state = &mut counters[c];
        Ok(match method {
            "add" => {
                let v = arg.unwrap_or(0);
                state.total += v;
                state.seven |= v == 7;
                Val::Int(state.total, INT)
            }
            "inc" => {
                state.total += 1;
                Val::Void
            }
            "get" | "size" => {
                let poison = if self.poisoned.load(Ordering::Relaxed) {
                    100
                } else {
                    0
                };
                let bug = i64::from(target && state.seven);
                Val::Int(state.total + bug + poison, INT)
            }
            "getName" => Val::Str(format!("counter{}", state.total)),
            "check" if target => return Err(threw("java.lang.IllegalStateException", Some("x"))),
            "describe" => {
                let message = if target { "b" } else { "a" };
                return Err(threw("java.lang.RuntimeException", Some(message)));
            }
            "newer" if target => {
                let what = format!("method {COUNTER}.newer()");
                return Err(Stop::Step(Observed::Missing { what }));
            }
            "flaky" if target => Val::Int(
                1 - (self.flaky.fetch_add(1, Ordering::Relaxed) % 2) as i64,
                INT,
            ),
            "flaky" => Val::Int(0, INT),
            "poison" if target => {
                self.poisoned.store(true, Ordering::Relaxed);
                Val::Int(100, INT)
            }
            "poison" => Val::Int(0, INT),
            "spin" if target => return Err(Stop::Whole(SeqResult::Timeout { millis: 100 })),
            "boom" if target => {
                return Err(Stop::Whole(SeqResult::Crash {
                    exit: "signal 11".into(),
                    stderr_tail: "SIGSEGV".into(),
                }));
            }
            "check" | "newer" | "spin" | "boom" => Val::Void,
            _ => {
                let what = format!("method {COUNTER}.{method}()");
                return Err(Stop::Step(Observed::Missing { what }));
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
        contents: Vec::new(),
    }
}
