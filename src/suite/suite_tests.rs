use super::*;
use crate::target::Fingerprint;

fn s(v: &str) -> String {
    v.to_string()
}

pub(crate) fn header() -> Header {
    Header {
        format: FORMAT_VERSION,
        tool: s("difftest 0.1.0"),
        reference: s("temurin17"),
        fingerprint: serde_yaml::from_str(
            "{java_version: '17.0.9', java_vendor: Eclipse Adoptium, vm_name: x, runtime_version: '17.0.9+9'}",
        )
        .map(|f: Fingerprint| f)
        .expect("fingerprint"),
        seed: 7,
        classes: vec![],
        packages: vec![s("java.util")],
        options: [(s("time-limit"), s("120"))].into_iter().collect(),
        counts: [(s("tests"), 1)].into_iter().collect(),
        partial: false,
    }
}

pub(crate) fn sample() -> Suite {
    let statements = vec![
        Statement::New {
            class: s("java.util.ArrayList"),
            params: vec![],
            args: vec![],
        },
        Statement::Literal {
            ty: s("java.lang.String"),
            value: s("a\"b\\u00E9  // c"),
        },
        Statement::Call {
            class: s("java.util.ArrayList"),
            method: s("add"),
            params: vec![s("java.lang.Object")],
            receiver: Some(0),
            args: vec![1],
        },
    ];
    let test = Test {
        id: 3,
        statements: statements.clone(),
        observers: vec![ObserverCall {
            stmt: 0,
            class: s("java.util.ArrayList"),
            method: s("size"),
        }],
        expected_steps: vec![
            None,
            None,
            Some(Observed::Value {
                class: s("java.lang.Boolean"),
                text: s("true"),
            }),
        ],
        expected_observations: vec![Observed::Value {
            class: s("java.lang.Integer"),
            text: s("1"),
        }],
        varies: vec![],
    };
    let error = ErrorTest {
        id: 9,
        statements,
        violation: Violation {
            stmt: 0,
            contract: s("equals-reflexive"),
            detail: s("it's false"),
        },
    };
    Suite {
        header: header(),
        tests: vec![test],
        error_revealing: vec![error],
        exceptions: [(
            s("java.lang.ArithmeticException"),
            ExceptionKind::PossibleBug,
        )]
        .into_iter()
        .collect(),
    }
}

#[test]
fn save_then_load_gives_the_same_suite_and_valid_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/ref.yaml");
    let suite = sample();
    suite.save(&path).unwrap();
    assert_eq!(Suite::load(&path).unwrap(), suite);
    let text = std::fs::read_to_string(&path).unwrap();
    let yaml: serde_yaml::Value = serde_yaml::from_str(&text).expect("valid YAML");
    let code = yaml["tests"][0]["code"].as_str().unwrap();
    assert!(code.starts_with("v0 = new java.util.ArrayList()\n"));
    assert_eq!(
        yaml["error_revealing"][0]["detail"].as_str(),
        Some("it's false")
    );
    assert!(text.contains("v2 = ((java.util.ArrayList) v0).add((java.lang.Object) v1)  // true"));
}

#[test]
fn varying_steps_are_written_as_varies_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("varies.yaml");
    let mut suite = sample();
    let test = &mut suite.tests[0];
    test.statements.push(Statement::Call {
        class: s("java.lang.Math"),
        method: s("random"),
        params: vec![],
        receiver: None,
        args: vec![],
    });
    test.expected_steps.push(None);
    test.varies = vec![3];
    suite.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("v3 = java.lang.Math.random()  // varies\n"),
        "{text}"
    );
    let loaded = Suite::load(&path).unwrap();
    assert_eq!(loaded, suite);
    assert!(loaded.tests[0].varies_at(3) && !loaded.tests[0].varies_at(2));
}

#[test]
fn empty_lists_are_written_and_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.yaml");
    let mut suite = sample();
    suite.tests.clear();
    suite.error_revealing.clear();
    suite.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\ntests: []\nerror_revealing: []\n"));
    assert_eq!(Suite::load(&path).unwrap(), suite);
    suite.error_revealing = sample().error_revealing;
    suite.save(&path).unwrap();
    assert_eq!(Suite::load(&path).unwrap(), suite);
}

#[test]
fn newer_format_is_refused_and_errors_name_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ref.yaml");
    sample().save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("format: 2", "format: 99")).unwrap();
    let err = Suite::load(&path).unwrap_err();
    assert!(matches!(err, SuiteError::Format { found: 99, .. }), "{err}");
    let broken = text.replace("v2 = ((java", "v2 = ((java bad");
    std::fs::write(&path, &broken).unwrap();
    let err = Suite::load(&path).unwrap_err().to_string();
    let line = broken.lines().position(|l| l.contains("java bad")).unwrap() + 1;
    assert!(
        err.starts_with(&format!("{}:{line}:", path.display())),
        "{err}"
    );
}
