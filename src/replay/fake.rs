//! A fake implementation for unit tests: a tiny interpreter over a `Counter` class whose
//! `get()` returns the sum of what was `add`ed, with injectable bugs (the target adds one
//! when 7 was ever added; `spin()` hangs; `boom()` crashes; `flaky()` alternates).

use crate::pool::PoolError;
use crate::pool::{Executor, Lane};
use crate::sequence::{Observed, ObserverCall, SeqResult, Statement};
use crate::suite::Test;
use crate::worker::protocol::SeqRequest;
use std::sync::atomic::{AtomicU64, Ordering};

/// Which implementation the fake plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    Reference,
    Target,
}

pub struct Fake {
    pub flavor: Flavor,
    pub name: String,
    /// Counts `flaky()` calls, so consecutive runs disagree.
    pub calls: AtomicU64,
    /// Counts sequences run, for budget checks.
    pub sequences: AtomicU64,
    /// Set by `poison()` on the target: later `get()`s in this JVM are off by 100.
    pub poisoned: std::sync::atomic::AtomicBool,
}

impl Fake {
    pub fn new(flavor: Flavor) -> Fake {
        let name = match flavor {
            Flavor::Reference => "ref",
            Flavor::Target => "tgt",
        };
        Fake {
            flavor,
            name: name.into(),
            calls: AtomicU64::new(0),
            sequences: AtomicU64::new(0),
            poisoned: Default::default(),
        }
    }

    fn int(v: i64) -> Observed {
        Observed::Value {
            class: "int".into(),
            text: v.to_string(),
        }
    }

    fn step(
        &self,
        s: &Statement,
        values: &mut Vec<i64>,
        sums: &mut [i64],
        sevens: &mut [bool],
    ) -> Result<Observed, SeqResult> {
        values.push(0);
        Ok(match s {
            Statement::Literal { value, .. } => {
                *values.last_mut().unwrap() = value.parse().unwrap_or(0);
                Observed::Void
            }
            Statement::New { .. } => Observed::Object {
                class: "Counter".into(),
            },
            Statement::Call {
                method,
                receiver,
                args,
                ..
            } => {
                let r = receiver.unwrap_or(0);
                let v = args.first().map_or(0, |&a| values[a]);
                self.call(method, r, v, sums, sevens)?
            }
            _ => Observed::Void,
        })
    }

    /// `receiver.method(v)` on the fake counter `r`.
    fn call(
        &self,
        method: &str,
        r: usize,
        v: i64,
        sums: &mut [i64],
        sevens: &mut [bool],
    ) -> Result<Observed, SeqResult> {
        let target = self.flavor == Flavor::Target;
        Ok(match method {
            "add" => {
                sums[r] += v;
                sevens[r] |= v == 7;
                Observed::Void
            }
            "get" => {
                let poison = if self.poisoned.load(Ordering::Relaxed) {
                    100
                } else {
                    0
                };
                Fake::int(sums[r] + i64::from(target && sevens[r]) + poison)
            }
            "poison" if target => {
                self.poisoned.store(true, Ordering::Relaxed);
                Observed::Void
            }
            "check" if target => Observed::Threw {
                class: "java.lang.IllegalStateException".into(),
                message: Some("x".into()),
            },
            "check" => Observed::Void,
            "describe" => Observed::Threw {
                class: "java.lang.RuntimeException".into(),
                message: Some(if target { "b" } else { "a" }.into()),
            },
            "newer" if target => Observed::Missing {
                what: "method Counter.newer()".into(),
            },
            "newer" => Observed::Void,
            "spin" if target => return Err(SeqResult::Timeout { millis: 100 }),
            "boom" if target => {
                return Err(SeqResult::Crash {
                    exit: "signal 11".into(),
                    stderr_tail: "SIGSEGV".into(),
                });
            }
            "flaky" if target => {
                Fake::int(1 - (self.calls.fetch_add(1, Ordering::Relaxed) % 2) as i64)
            }
            _ => Fake::int(0),
        })
    }

    fn observe(&self, o: &ObserverCall, sums: &[i64], sevens: &[bool]) -> Observed {
        let target = self.flavor == Flavor::Target;
        match o.method.as_str() {
            "size" => Fake::int(sums[o.stmt] + i64::from(target && sevens[o.stmt])),
            _ => Fake::int(1),
        }
    }

    fn execute(&self, seq: &SeqRequest) -> SeqResult {
        self.sequences.fetch_add(1, Ordering::Relaxed);
        let n = seq.statements.len();
        let (mut values, mut sums, mut sevens) = (Vec::new(), vec![0; n], vec![false; n]);
        let mut steps = Vec::new();
        for s in &seq.statements {
            match self.step(s, &mut values, &mut sums, &mut sevens) {
                Ok(o) => {
                    let stop = o.is_abnormal();
                    steps.push(o);
                    if stop {
                        return SeqResult::Done {
                            steps,
                            observations: vec![],
                            violations: vec![],
                        };
                    }
                }
                Err(r) => return r,
            }
        }
        let observations = seq
            .observers
            .iter()
            .map(|o| self.observe(o, &sums, &sevens))
            .collect();
        SeqResult::Done {
            steps,
            observations,
            violations: vec![],
        }
    }
}

impl Executor for Fake {
    fn target(&self) -> &str {
        &self.name
    }

    fn run(&self, seqs: &[SeqRequest], _contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        Ok(seqs.iter().map(|s| self.execute(s)).collect())
    }
}

/// A lane whose every start shares one fake (so `flaky()` keeps alternating).
pub struct FakeLane(pub std::sync::Arc<Fake>, pub AtomicU64);

impl Lane for FakeLane {
    fn name(&self) -> &str {
        &self.0.name
    }

    fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.1.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Shared(self.0.clone())))
    }

    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.start()
    }

    fn jobs(&self) -> usize {
        2
    }
}

/// A lane whose every start is a fresh fake (a fresh JVM), `jobs` at a time.
pub struct FreshLane {
    pub jobs: usize,
    pub starts: AtomicU64,
}

impl Lane for FreshLane {
    fn name(&self) -> &str {
        "tgt"
    }

    fn start(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.starts.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Fake::new(Flavor::Target)))
    }

    fn start_single(&self) -> Result<Box<dyn Executor>, PoolError> {
        self.start()
    }

    fn jobs(&self) -> usize {
        self.jobs
    }
}

struct Shared(std::sync::Arc<Fake>);

impl Executor for Shared {
    fn target(&self) -> &str {
        self.0.target()
    }

    fn run(&self, seqs: &[SeqRequest], contracts: bool) -> Result<Vec<SeqResult>, PoolError> {
        self.0.run(seqs, contracts)
    }
}

/// A counter test: `new Counter()`, then for each value `add(value)`, then `method()`;
/// with noise (other counters and literals) interleaved. Expectations from the reference.
pub fn counter_test(id: u64, values: &[i64], noise: usize, method: &str) -> Test {
    let mut s = vec![Statement::new("Counter", &[], &[])];
    for (k, v) in values.iter().enumerate() {
        for m in 0..noise {
            s.push(Statement::new("Counter", &[], &[]));
            s.push(Statement::literal("int", &(k * 10 + m).to_string()));
            let (c, l) = (s.len() - 2, s.len() - 1);
            s.push(Statement::call("Counter", "add", &["int"], Some(c), &[l]));
        }
        s.push(Statement::literal("int", &v.to_string()));
        let l = s.len() - 1;
        s.push(Statement::call("Counter", "add", &["int"], Some(0), &[l]));
    }
    s.push(Statement::call("Counter", method, &[], Some(0), &[]));
    let request = SeqRequest {
        statements: s,
        observers: vec![],
    };
    expect(id, request)
}

/// The test of `request` with the reference fake's results as expectations.
pub fn expect(id: u64, request: SeqRequest) -> Test {
    let reference = Fake::new(Flavor::Reference);
    let SeqResult::Done {
        steps,
        observations,
        ..
    } = reference.execute(&request)
    else {
        unreachable!("the reference fake never hangs")
    };
    Test {
        id,
        expected_steps: steps
            .into_iter()
            .map(|o| (!matches!(o, Observed::Object { .. })).then_some(o))
            .collect(),
        expected_observations: observations,
        statements: request.statements,
        observers: request.observers,
        varies: Vec::new(),
    }
}
