use super::*;
use crate::targets::Fingerprint;

fn s<T: for<'a> From<&'a str>>(v: &str) -> T {
    v.into()
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
        Statement::new("java.util.ArrayList", &[], &[]),
        Statement::literal("java.lang.String", "a\"b\\u00E9  // c"),
        Statement::call(
            "java.util.ArrayList",
            "add",
            &["java.lang.Object"],
            Some(0),
            &[1],
        ),
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
        expected_observations: vec![Some(Observed::Value {
            class: s("java.lang.Integer"),
            text: s("1"),
        })],
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
fn an_unchecked_observer_is_written_as_varies_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("varies.yaml");
    let mut suite = sample();
    let t = &mut suite.tests[0];
    t.observers.insert(0, t.observers[0].clone());
    t.expected_observations.insert(0, None);
    suite.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("    ((java.util.ArrayList) v0).size()  // varies\n"),
        "{text}"
    );
    assert_eq!(Suite::load(&path).unwrap(), suite);
    assert_eq!(
        suite.tests[0].check_count(),
        2,
        "the step and the checked observer"
    );
}

#[test]
fn a_test_left_with_nothing_to_check_is_written_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("checkless.yaml");
    let mut suite = sample();
    let t = &mut suite.tests[0];
    t.expected_steps.iter_mut().for_each(|e| *e = None);
    t.observers.clear();
    t.expected_observations.clear();
    assert_eq!(t.check_count(), 0);
    suite.save(&path).unwrap();
    assert_eq!(Suite::load(&path).unwrap(), suite);
}

#[test]
fn empty_lists_are_written_and_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.yaml");
    let mut suite = sample();
    suite.tests.clear();
    suite.error_revealing.clear();
    suite.header.counts.clear();
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
    std::fs::write(
        &path,
        text.replace(&format!("format: {FORMAT_VERSION}"), "format: 99"),
    )
    .unwrap();
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

/// The sample with a second regression test (id 4), as saved text.
fn two_tests_text(dir: &std::path::Path) -> String {
    let mut suite = sample();
    let mut second = suite.tests[0].clone();
    second.id = 4;
    // Not a copy of the first, which would share a block with it.
    second.statements[1] = Statement::literal("java.lang.String", "other");
    suite.tests.push(second);
    suite.header.counts.insert(s("tests"), 2);
    let path = dir.join("two.yaml");
    suite.save(&path).unwrap();
    std::fs::read_to_string(&path).unwrap()
}

fn load_text(dir: &std::path::Path, text: &str) -> Result<Suite, SuiteError> {
    let path = dir.join("edited.yaml");
    std::fs::write(&path, text).unwrap();
    Suite::load(&path)
}

#[test]
fn every_changed_byte_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let text = two_tests_text(dir.path());
    let mut caught = 0;
    for i in 0..text.len() {
        let mut bytes = text.clone().into_bytes();
        bytes[i] ^= if bytes[i] == b'\n' { 0x2a } else { 0x01 };
        let edited = String::from_utf8(bytes).unwrap();
        let err = load_text(dir.path(), &edited).expect_err(&format!("byte {i} changed"));
        assert!(err.to_string().contains("edited.yaml"), "{err}");
        caught += 1;
    }
    assert_eq!(caught, text.len());
}

#[test]
fn a_test_edited_after_recording_is_named_by_id_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = two_tests_text(dir.path());
    let edited = text.replacen("a\\\"b", "x\\\"b", 1);
    assert_ne!(edited, text);
    let err = load_text(dir.path(), &edited).unwrap_err().to_string();
    let line = text.lines().position(|l| l == "- id: 3").unwrap() + 1;
    assert!(
        err.contains(&format!("edited.yaml:{line}: test 3")),
        "{err}"
    );
    assert!(err.contains("checksum"), "{err}");
}

#[test]
fn duplicate_ids_are_refused_even_when_resealed() {
    let dir = tempfile::tempdir().unwrap();
    let text = two_tests_text(dir.path());
    // Different content, same id.
    let dup = checksum::seal(&text.replace("- id: 4", "- id: 3"));
    let err = load_text(dir.path(), &dup).unwrap_err().to_string();
    let second = dup.lines().filter(|l| *l == "- id: 3").count();
    assert_eq!(second, 2);
    assert!(err.contains("test id 3 appears twice"), "{err}");
    // An exact copy of an entry, with the header's count raised.
    let start = text.find("- id: 3\n").unwrap();
    let end = text.find("- id: 4\n").unwrap();
    let mut copy = text.clone();
    copy.insert_str(end, &text[start..end]);
    let copy = checksum::seal(&copy.replace("  tests: 2\n", "  tests: 3\n"));
    let err = load_text(dir.path(), &copy).unwrap_err().to_string();
    assert!(err.contains("test id 3 appears twice"), "{err}");
    // The same copy without resealing.
    let mut raw = text.clone();
    raw.insert_str(end, &text[start..end]);
    assert!(load_text(dir.path(), &raw).is_err());
}

#[test]
fn deleted_tests_cut_files_and_edited_headers_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let text = two_tests_text(dir.path());
    let start = text.find("- id: 4\n").unwrap();
    let end = text.find("error_revealing:").unwrap();
    let deleted = format!("{}{}", &text[..start], &text[end..]);
    let err = load_text(dir.path(), &deleted).unwrap_err().to_string();
    assert!(err.contains("tests were deleted or added"), "{err}");
    let cut = &text[..end];
    let err = load_text(dir.path(), cut).unwrap_err().to_string();
    assert!(err.contains("truncated"), "{err}");
    let seed = text.replace("seed: 7", "seed: 8");
    let err = load_text(dir.path(), &seed).unwrap_err().to_string();
    assert!(err.contains("header"), "{err}");
}

#[test]
fn formats_outside_the_supported_range_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = two_tests_text(dir.path());
    let zero = checksum::seal(&text.replace(&format!("format: {FORMAT_VERSION}"), "format: 0"));
    let err = load_text(dir.path(), &zero).unwrap_err();
    assert!(matches!(err, SuiteError::NoSuchFormat { .. }), "{err}");
    let two = text.replace(&format!("format: {FORMAT_VERSION}"), "format: 2");
    let err = load_text(dir.path(), &two).unwrap_err();
    assert!(
        matches!(err, SuiteError::Unchecked { found: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("no checksums"), "{err}");
    let sealed = checksum::seal(&text);
    assert_eq!(sealed, text, "sealing a sealed suite changes nothing");
}

#[test]
fn plain_objects_are_answered_as_their_class_only_when_the_header_says_so() {
    let mut h = header();
    assert_eq!(
        h.plain_class_text(),
        Ok(false),
        "older suites called toString()"
    );
    h.options
        .insert(s(PLAIN_OBJECT_TEXT_OPTION), s("class-only"));
    assert_eq!(h.plain_class_text(), Ok(true));
    h.options.insert(s(PLAIN_OBJECT_TEXT_OPTION), s("hash"));
    let message = h.plain_class_text().unwrap_err();
    assert!(message.contains("plain-object-text"), "{message}");
}
