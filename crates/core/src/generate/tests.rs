use super::*;
use crate::generate::components::ValueRef;
use crate::model::{ApiClass, Callable};
use crate::pool::fake::{self, Fake};
use crate::sequence::Statement;
use crate::suite::Test;

fn config(seed: u64, limit: usize) -> GenConfig {
    GenConfig {
        seed,
        output_limit: Some(limit),
        round_size: 50,
        time_limit: Duration::from_secs(60),
        ..GenConfig::default()
    }
}

fn generate(model: &ApiModel, cfg: GenConfig) -> (Recorded, StopReason) {
    let mut g = Generator::new(model, cfg).expect("scope");
    let stop = AtomicBool::new(false);
    let reason = g.run(&Fake::reference(), &stop, |_| {}).expect("run");
    (g.finish(), reason)
}

fn expand(r: &Recorded) -> Vec<Test> {
    r.tests
        .all()
        .iter()
        .map(|t| t.expand(&r.templates, &r.names))
        .collect()
}

#[test]
fn same_seed_same_tests_and_the_output_limit_stops_generation() {
    let model = fake::model();
    let (a, reason) = generate(&model, config(5, 200));
    assert_eq!(reason, StopReason::OutputLimit);
    assert!(a.tests.len() >= 200);
    // t.Clock.now() differs run to run; everything else must not.
    let code = |r: &Recorded| -> Vec<(u64, Vec<Statement>)> {
        expand(r)
            .into_iter()
            .map(|t| (t.id, t.statements))
            .collect()
    };
    let (b, _) = generate(&model, config(5, 200));
    assert!(code(&a) == code(&b), "same seed, same sequences");
    let (c, _) = generate(&model, config(6, 200));
    assert!(code(&a) != code(&c));
}

#[test]
fn non_reflexive_equals_is_error_revealing_never_a_regression_test() {
    let model = fake::model();
    let (r, _) = generate(&model, config(1, 100));
    assert!(!r.errors.is_empty());
    assert_eq!(r.error_groups, 1);
    let e = &r.errors[0];
    assert_eq!(e.violation.contract, "equals-reflexive");
    let mentions_weird = |t: &Test| {
        t.statements
            .iter()
            .any(|s| s.callee().starts_with("t.Weird"))
    };
    assert!(!expand(&r).iter().any(mentions_weird));
}

#[test]
fn exceptions_are_checked_and_never_extended() {
    let model = fake::model();
    let (r, _) = generate(&model, config(2, 300));
    let tests = expand(&r);
    let arith = tests.iter().find(|t| {
        matches!(t.expected_steps.last(), Some(Some(Observed::Threw { class, .. })) if class == "java.lang.ArithmeticException")
    });
    let arith = arith.expect("a test that divides by zero");
    assert!(
        matches!(arith.statements.last(), Some(Statement::Call { method, .. }) if &**method == "div")
    );
    for t in &tests {
        let threw_at = t
            .expected_steps
            .iter()
            .position(|s| matches!(s, Some(Observed::Threw { .. })));
        assert!(
            threw_at.is_none_or(|i| i + 1 == t.statements.len()),
            "{t:?}"
        );
    }
}

#[test]
fn repetition_and_observers_show_up() {
    let model = fake::model();
    let cfg = GenConfig {
        repeat_probability: 0.5,
        repeat_max: 10,
        ..config(3, 200)
    };
    let (r, _) = generate(&model, cfg);
    let tests = expand(&r);
    let repeated = tests.iter().any(|t| {
        let n = t.statements.len();
        n >= 3 && t.statements[n - 1] == t.statements[n - 2]
    });
    assert!(repeated, "some test repeats its last call");
    let observed = tests.iter().any(|t| {
        t.observers.iter().any(|o| &*o.method == "getName")
            && t.expected_observations.len() == t.observers.len()
    });
    assert!(observed);
}

#[test]
fn lexically_redundant_tests_are_left_out_unless_they_observe_values() {
    let model = fake::model();
    let mut g = Generator::new(&model, config(4, 300)).expect("scope");
    g.run(&Fake::reference(), &AtomicBool::new(false), |_| {})
        .expect("run");
    let seqs = |id| g.store.node(id).parts.seqs().collect();
    let parts: Vec<Vec<SeqId>> = (0..g.store.len() as u32).map(seqs).collect();
    let r = g.finish();
    let tests = r.tests.all();
    let out: std::collections::HashMap<u32, &kept::KeptTest> =
        tests.iter().map(|t| (t.seq, t)).collect();
    let mut observing_parts = 0;
    for t in &tests {
        for id in &parts[t.seq as usize] {
            if let Some(inner) = out.get(id) {
                // A longer test observes only its own call's values: the inner test's
                // observations would be lost with it.
                assert!(
                    !inner.observers.is_empty(),
                    "test {} contains test {}, which checks steps only",
                    t.id,
                    inner.id
                );
                observing_parts += 1;
            }
        }
    }
    assert!(r.redundant > 0, "tests that check steps only are left out");
    assert!(
        observing_parts > 0,
        "observing tests inside longer ones stay"
    );
}

#[test]
fn literals_are_used() {
    let model = fake::model();
    let cfg = GenConfig {
        literals: vec![literals::Literal {
            ty: "int".into(),
            value: "4242".into(),
        }],
        ..config(8, 200)
    };
    let (r, _) = generate(&model, cfg);
    let uses = expand(&r).iter().any(|t| {
        t.statements
            .iter()
            .any(|s| matches!(s, Statement::Literal { value, .. } if &**value == "4242"))
    });
    assert!(uses);
}

#[test]
fn null_once_passes_null_to_each_reference_parameter_once() {
    // `t.Util.concat(String, String)`: the pool always holds Strings (the literals), so
    // without `null_once` no call of it gets `null`; with it, each parameter gets it once.
    let model = fake::model();
    let concat_nulls = |cfg: GenConfig| -> (Vec<(bool, bool)>, u64) {
        let mut g = Generator::new(&model, cfg).expect("scope");
        let stop = AtomicBool::new(false);
        g.run(&Fake::reference(), &stop, |_| {}).expect("run");
        let nulls = g.stats.nulls_once;
        let r = g.finish();
        let mut calls = Vec::new();
        for t in expand(&r) {
            let is_null = |k: usize| matches!(t.statements[k], Statement::Null { .. });
            for s in &t.statements {
                if let Statement::Call { method, args, .. } = s
                    && &**method == "concat"
                    && (is_null(args[0]) || is_null(args[1]))
                {
                    calls.push((is_null(args[0]), is_null(args[1])));
                }
            }
        }
        (calls, nulls)
    };
    let off = GenConfig {
        null_once: false,
        ..config(3, 300)
    };
    let (off, nulls) = concat_nulls(off);
    assert!(off.is_empty(), "{off:?}");
    assert_eq!(nulls, 0);
    let on = GenConfig {
        null_once: true,
        ..config(3, 300)
    };
    let (on, nulls) = concat_nulls(on);
    assert!(on.contains(&(true, false)), "{on:?}");
    assert!(on.contains(&(false, true)), "{on:?}");
    assert!(!on.contains(&(true, true)), "{on:?}");
    assert!(nulls >= 2, "{nulls}");
}

#[test]
fn interrupt_stops_at_once() {
    let model = fake::model();
    let mut g = Generator::new(&model, config(1, 1000)).unwrap();
    let stop = AtomicBool::new(true);
    assert_eq!(
        g.run(&Fake::reference(), &stop, |_| {}).unwrap(),
        StopReason::Interrupted
    );
}

fn model_of<const N: usize>(classes: [ApiClass; N]) -> ApiModel {
    ApiModel {
        classes: classes.into_iter().map(|c| (c.name.clone(), c)).collect(),
    }
}

#[test]
fn a_member_omitted_on_a_class_is_not_reached_through_its_supertype() {
    // `t.Registry` extends `t.Table`, whose `put` the omit list took out of the registry's
    // own methods (as `java.security.Provider.put*` is, beside `Properties.put`).
    let put = Callable::new("put", &["int"], "void", false);
    let size = Callable::new("size", &[], "int", false);
    let classes = [
        ApiClass::with_methods("t.Table", &[], vec![put, size.clone()]),
        ApiClass::with_methods("t.Registry", &["t.Table"], vec![size]),
    ];
    let model = model_of(classes);
    let mut g = Generator::new(&model, config(1, 10)).expect("scope");
    let op = |g: &Generator, method: &str| {
        (0..g.random_ops)
            .find(|&op| g.op_class[op] == "t.Table" && g.member_name(op) == method)
            .expect("op")
    };
    let (put, size) = (op(&g, "put"), op(&g, "size"));
    let (registry, table) = (g.names.intern("t.Registry"), g.names.intern("t.Table"));
    assert!(g.omitted_on(put, registry), "Table.put on a registry");
    assert!(!g.omitted_on(size, registry), "Table.size on a registry");
    assert!(!g.omitted_on(put, table), "Table.put on a table");
    let other = g.names.intern("t.Undescribed");
    assert!(
        !g.omitted_on(put, other),
        "a class the scope does not describe"
    );
}

#[test]
fn a_keyed_catalogue_is_swept_once_per_key_for_the_class_the_key_names() {
    // `t.Registry.names(String)` lists what `t.Widget`'s factory accepts, as
    // `Security.getAlgorithms("KeyGenerator")` lists what `KeyGenerator.getInstance` does.
    let string = "java.lang.String";
    let names = Callable::new("names", &[string], "java.util.Set", true);
    let of = Callable::new("of", &[string], "t.Widget", true);
    let model = model_of([
        ApiClass::with_methods("t.Registry", &[], vec![names]),
        ApiClass::with_methods("t.Widget", &[], vec![of]),
    ]);
    let mut g = Generator::new(&model, config(1, 10)).expect("scope");
    g.queue_keyed_catalogues();
    let names_op = (0..g.random_ops)
        .find(|&op| g.member_name(op) == "names")
        .expect("op");
    let keyed = |g: &mut Generator, key: &str| {
        let ty = g.names.intern(string);
        let lit = g.literal_template(ty, key);
        let mut b = Builder::default();
        let at = b.push_stmt(lit, &[]);
        b.push_stmt(g.ops[names_op].tmpl, &[at]);
        let seq = g.push_node(b, Role::Component);
        // A keyed list equal to one already in the pool is still swept for its own key.
        let unswept = g.unswept_keyed(seq, 1);
        let owner = g.sweep_owner(seq, 1).map(|c| g.names.name(c).to_string());
        assert_eq!(unswept, owner.is_some() && key != "x", "{key}");
        assert!(!g.unswept_keyed(seq, 1), "{key}");
        owner
    };
    assert_eq!(keyed(&mut g, "Widget").as_deref(), Some("t.Widget"));
    assert_eq!(keyed(&mut g, "Widget"), None, "swept once per key");
    assert_eq!(keyed(&mut g, "Registry").as_deref(), Some("t.Registry"));
    // Any other argument: the callee's first catalogue, for its own class, as before.
    assert_eq!(keyed(&mut g, "x").as_deref(), Some("t.Registry"));
    assert_eq!(keyed(&mut g, "y"), None, "the callee was swept");
}

#[test]
fn an_installed_provider_is_never_passed_where_a_map_is_expected() {
    // `t.Maps.wrap(Map)` stands for `Collections.synchronizedMap`, whose `put` would write
    // to a provider the whole JVM shares; `t.Maps.named(Provider)` expects one.
    let class = |name: &str, supertypes: &[&str], methods: Vec<Callable>| ApiClass {
        supertypes: supertypes.iter().map(|s| s.to_string()).collect(),
        ..ApiClass::with_methods(name, &[], methods)
    };
    let provider = "java.security.Provider";
    let model = ApiModel {
        classes: [
            class(provider, &["java.util.Map", "java.lang.Object"], vec![]),
            class("t.Table", &["java.util.Map", "java.lang.Object"], vec![]),
            class(
                "t.Maps",
                &[],
                vec![
                    Callable::new("installed", &[], provider, true),
                    Callable::new("table", &[], "t.Table", true),
                    Callable::new("wrap", &["java.util.Map"], "java.lang.String", true),
                    Callable::new("named", &[provider], "java.lang.String", true),
                ],
            ),
        ]
        .into_iter()
        .map(|c| (c.name.clone(), c))
        .collect(),
    };
    let mut g = Generator::new(&model, config(3, 100)).expect("scope");
    let op = |g: &Generator, name: &str| (0..g.random_ops).find(|&o| g.member_name(o) == name);
    for made in ["installed", "table"] {
        let op = op(&g, made).expect("maker");
        let mut b = Builder::default();
        b.push_stmt(g.ops[op].tmpl, &[]);
        let seq = g.push_node(b, Role::Component);
        let ty = g.ops[op].result.expect("an object");
        g.comps.add(
            &g.names,
            ValueRef {
                seq,
                pos: 0,
                ty,
                len: 1,
            },
        );
    }
    let (wrap, named) = (op(&g, "wrap").unwrap(), op(&g, "named").unwrap());
    let installed = g.names.intern(provider);
    let (mut wrapped, mut provided) = (0, 0);
    for _ in 0..2000 {
        let Some(c) = g.draft() else { continue };
        let gets_provider = c.inputs.iter().any(|i| i.1 == installed);
        if c.op == wrap {
            assert!(!gets_provider, "a provider went where a Map is expected");
            wrapped += 1;
        }
        provided += usize::from(c.op == named && gets_provider);
    }
    assert!(
        wrapped > 0 && provided > 0,
        "{wrapped} maps wrapped, {provided} providers named"
    );
}

/// The executor behind generation, counting what each batch sent: sequences and statements.
struct Counting {
    inner: Fake,
    batches: std::sync::Mutex<Vec<(u64, u64)>>,
}

impl Executor for Counting {
    fn run(
        &self,
        seqs: &[SeqRequest],
        contracts: bool,
    ) -> Result<Vec<crate::sequence::SeqResult>, PoolError> {
        let statements = seqs.iter().map(|s| s.statements.len() as u64).sum();
        let mut batches = self.batches.lock().expect("not poisoned");
        batches.push((seqs.len() as u64, statements));
        drop(batches);
        self.inner.run(seqs, contracts)
    }
}

#[test]
fn statements_count_every_statement_of_the_sequences_folded_prefixes_included() {
    let model = fake::model();
    let counting = Counting {
        inner: Fake::reference(),
        batches: Default::default(),
    };
    let mut g = Generator::new(&model, config(3, 150)).expect("scope");
    let stop = AtomicBool::new(false);
    g.run(&counting, &stop, |_| {}).expect("run");
    let stats = g.finish().stats;
    // Batches are folded whole and in the order sent; the last ones sent (two at most, the
    // rounds in flight) may be drained unfolded when generation stops. The executor hears
    // the two in flight in whichever order their threads start, so the unfolded ones are
    // some of the last three it heard.
    let batches = counting.batches.into_inner().expect("not poisoned");
    let total = |b: &[(u64, u64)]| b.iter().fold((0, 0), |(s, t), x| (s + x.0, t + x.1));
    let all = total(&batches);
    let last = &batches[batches.len().saturating_sub(3)..];
    let unfolded: Vec<(u64, u64)> = (0..1 << last.len())
        .filter(|m: &usize| m.count_ones() <= 2)
        .map(|m| {
            let left_out: Vec<_> = (0..last.len()).filter(|i| m >> i & 1 == 1).collect();
            total(&left_out.iter().map(|&i| last[i]).collect::<Vec<_>>())
        })
        .collect();
    assert!(
        (unfolded.iter()).any(|u| (all.0 - u.0, all.1 - u.1) == (stats.executed, stats.statements)),
        "{:?} folded, batches {batches:?}",
        (stats.executed, stats.statements)
    );
    assert!(
        stats.statements > stats.executed,
        "sequences of one statement only"
    );
}
