use super::*;
use crate::replay::samples::{double_test, string, time_format_test};

fn done(steps: Vec<Observed>) -> SeqResult {
    SeqResult::Done {
        steps,
        observations: vec![],
        violations: vec![],
        contents: vec![],
    }
}

fn threw(class: &str, message: &str) -> Observed {
    Observed::Threw {
        class: class.into(),
        message: Some(message.into()),
        classpath: None,
    }
}

fn object() -> Observed {
    Observed::Object {
        class: "java.lang.Object".into(),
    }
}

#[test]
fn equal_results_pass_and_unchecked_values_are_ignored() {
    let t = time_format_test(1);
    let mut steps = vec![Observed::Void, object(), object(), Observed::Void, object()];
    steps.push(string("12:00 AM"));
    assert_eq!(compare(&t, &done(steps.clone())), Verdict::Pass);
    steps[3] = Observed::Value {
        class: "long".into(),
        text: "1".into(),
    };
    assert_eq!(
        compare(&t, &done(steps)),
        Verdict::Pass,
        "step 3 is not checked"
    );
}

#[test]
fn the_narrow_no_break_space_is_a_value_difference_at_format() {
    let t = time_format_test(1);
    let mut steps = vec![Observed::Void, object(), object(), Observed::Void, object()];
    steps.push(string("12:00\\u202FAM"));
    let d = compare(&t, &done(steps)).divergence().cloned().unwrap();
    assert_eq!(d.kind, Kind::Value);
    assert_eq!(d.site, Site::Step(5));
    assert_eq!(d.callee, "java.text.DateFormat.format(java.util.Date)");
    assert_eq!(d.actual, Some(string("12:00\\u202FAM")));
}

#[test]
fn classify_names_each_kind() {
    let v = string("a");
    assert_eq!(classify(&v, &v), None);
    assert_eq!(classify(&v, &string("b")), Some(Kind::Value));
    assert_eq!(
        classify(&v, &threw("E", "m")),
        Some(Kind::NormalVsException)
    );
    assert_eq!(
        classify(&threw("E", "m"), &v),
        Some(Kind::NormalVsException)
    );
    assert_eq!(
        classify(&threw("E", "m"), &threw("F", "m")),
        Some(Kind::ExceptionClass)
    );
    assert_eq!(
        classify(&threw("E", "m"), &threw("E", "n")),
        Some(Kind::ExceptionMessage)
    );
    let missing = Observed::Missing {
        what: "method X.y()".into(),
    };
    assert_eq!(classify(&threw("E", "m"), &missing), Some(Kind::Missing));
    assert_eq!(classify(&missing, &v), Some(Kind::Missing));
}

#[test]
fn an_exception_at_an_unchecked_step_is_still_a_difference() {
    let t = double_test(2, "2.0E23", "1.9999999999999998E23");
    let r = done(vec![threw("java.lang.NumberFormatException", "bad")]);
    let d = compare(&t, &r).divergence().cloned().unwrap();
    assert_eq!((d.kind, d.site), (Kind::NormalVsException, Site::Step(0)));
    assert_eq!(d.callee, "java.lang.String.valueOf(double)");
}

#[test]
fn a_step_that_varies_on_the_reference_ends_the_comparison_if_it_throws() {
    let mut t = time_format_test(1);
    t.varies = vec![3];
    let mut steps = vec![Observed::Void, object(), object(), Observed::Void, object()];
    steps.push(string("12:00 AM"));
    assert_eq!(compare(&t, &done(steps.clone())), Verdict::Pass);
    steps.truncate(3);
    steps.push(threw("java.lang.IllegalArgumentException", "random input"));
    assert_eq!(compare(&t, &done(steps)), Verdict::Pass, "throws at step 3");
    t.varies.clear();
    let steps = vec![Observed::Void, object(), object(), threw("E", "m")];
    let d = compare(&t, &done(steps)).divergence().cloned();
    assert_eq!(d.map(|d| d.site), Some(Site::Step(3)), "without the mark");
}

#[test]
fn the_reference_throwing_where_the_target_does_not_is_a_difference() {
    let mut t = double_test(3, "1", "x");
    t.expected_steps[1] = Some(threw("java.lang.IllegalStateException", "no"));
    let d = compare(&t, &done(vec![Observed::Void, string("1.0")]))
        .divergence()
        .cloned();
    assert_eq!(d.map(|d| d.kind), Some(Kind::NormalVsException));
    let same = done(vec![
        Observed::Void,
        threw("java.lang.IllegalStateException", "no"),
    ]);
    assert_eq!(compare(&t, &same), Verdict::Pass);
}

#[test]
fn timeouts_and_crashes_are_charged_to_the_last_call() {
    let t = time_format_test(4);
    let d = compare(&t, &SeqResult::Timeout { millis: 5000 })
        .divergence()
        .cloned()
        .unwrap();
    assert_eq!((d.kind, d.site), (Kind::Timeout, Site::Whole));
    assert_eq!(d.callee, "java.text.DateFormat.format(java.util.Date)");
    assert_eq!(d.detail.as_deref(), Some("no answer in 5000 ms"));
    let crash = SeqResult::Crash {
        exit: "signal 11".into(),
        stderr_tail: "a\n# SIGSEGV\n".into(),
    };
    let d = compare(&t, &crash).divergence().cloned().unwrap();
    assert_eq!(d.kind, Kind::Crash);
    assert_eq!(d.detail.as_deref(), Some("signal 11: # SIGSEGV"));
}

#[test]
fn observers_are_compared_only_after_normal_steps() {
    let mut t = double_test(5, "1", "1.0");
    t.observers = vec![crate::sequence::ObserverCall::new(
        1,
        "java.lang.String",
        "length",
    )];
    t.expected_observations = vec![Some(Observed::Value {
        class: "int".into(),
        text: "3".into(),
    })];
    let run = |obs: Vec<Observed>| SeqResult::Done {
        steps: vec![Observed::Void, string("1.0")],
        observations: obs,
        violations: vec![],
        contents: vec![],
    };
    let three = Observed::Value {
        class: "int".into(),
        text: "3".into(),
    };
    assert_eq!(compare(&t, &run(vec![three])), Verdict::Pass);
    let four = Observed::Value {
        class: "int".into(),
        text: "4".into(),
    };
    let d = compare(&t, &run(vec![four])).divergence().cloned().unwrap();
    assert_eq!((d.kind, d.site), (Kind::Value, Site::Observer(0)));
    assert_eq!(d.callee, "java.lang.String.length()");
    let missing = Observed::Missing {
        what: "method".into(),
    };
    assert_eq!(
        compare(&t, &run(vec![missing]))
            .divergence()
            .map(|d| d.kind),
        Some(Kind::Missing)
    );
}

#[test]
fn message_differences_count_only_when_strict() {
    assert!(!Kind::ExceptionMessage.counts(false));
    assert!(Kind::ExceptionMessage.counts(true));
    assert!(Kind::Value.counts(false));
    for k in Kind::ALL {
        assert_eq!(Kind::from_name(k.name()), Some(k));
    }
}

#[test]
fn an_expected_exception_without_message_checks_the_class_only() {
    let class_only = Observed::Threw {
        class: "E".into(),
        message: None,
        classpath: None,
    };
    assert_eq!(classify(&class_only, &threw("E", "anything")), None);
    assert_eq!(
        classify(&class_only, &threw("F", "anything")),
        Some(Kind::ExceptionClass)
    );
    assert_eq!(
        classify(&threw("E", "m"), &class_only),
        Some(Kind::ExceptionMessage)
    );
}

#[test]
fn an_observer_of_a_collection_copy_reads_the_copied_call() {
    let call = Statement::Call {
        class: "java.security.Security".into(),
        method: "getAlgorithms".into(),
        params: vec!["java.lang.String".into()],
        receiver: None,
        args: vec![0],
    };
    let copy = |class: &str, param: &str, arg: usize| Statement::New {
        class: class.into(),
        params: vec![param.into()],
        args: vec![arg],
    };
    let statements = vec![
        Statement::literal("java.lang.String", "KDF"),
        call,
        copy("java.util.TreeSet", "java.util.Collection", 1),
        copy("java.util.ArrayList", "java.util.Collection", 2),
        copy("java.lang.StringBuilder", "java.lang.String", 0),
    ];
    let getter = "java.security.Security.getAlgorithms(java.lang.String)";
    assert_eq!(read_call(&statements, 3).as_deref(), Some(getter));
    assert_eq!(read_call(&statements, 1).as_deref(), Some(getter));
    assert_eq!(
        read_call(&statements, 4).as_deref(),
        Some("java.lang.StringBuilder.<init>(java.lang.String)"),
        "only copies of collections and maps are looked through"
    );
    assert_eq!(read_call(&statements, 9), None);
}

#[test]
fn a_set_seen_in_identity_hash_order_is_the_same_object_as_one_that_was_not() {
    let set = |suffix: &str| Observed::Object {
        class: format!("java.util.HashSet{suffix}"),
    };
    let marked = set(crate::generate::taint::IDENTITY_ORDER);
    // A suite recorded before the worker marked such sets, or a target whose keys hash by
    // value: the class is what is checked.
    assert_eq!(classify(&set(""), &marked), None);
    assert_eq!(classify(&marked, &set("")), None);
    let other = Observed::Object {
        class: "java.util.TreeSet".into(),
    };
    assert_eq!(classify(&marked, &other), Some(Kind::Value));
}
