//! Unit tests of the export: Java literals and names, imports, declared types and casts,
//! assertions, whole methods, and the parsing of JUnit's results.

use super::java::*;
use super::junit_runner::{parse_junit4, parse_junit5_reports};
use super::names::{Locals, resolve, type_ref};
use super::*;
use crate::model::{ApiClass, ApiModel, Callable};
use crate::suite::syntax::{parse_observed, parse_observer, parse_statement};
use crate::suite::{Header, Test};
use std::collections::BTreeMap;

fn resolved(text: &str) -> String {
    resolve(text, &[]).0
}

#[test]
fn strings_are_java_literals_with_escapes() {
    assert_eq!(
        string_from_suite(r"12:00\u202FAM").unwrap(),
        r#""12:00\u202FAM""#
    );
    assert_eq!(
        string_from_suite(r#"a\nb"c\\d\t"#).unwrap(),
        r#""a\nb\"c\\d\t""#
    );
    // Line breaks never become \u000A, which javac would read as a real line break.
    assert_eq!(string_literal(&[0x0a, 0x0d, 0xD800]), r#""\n\r\uD800""#);
    assert_eq!(char_from_suite(r"\n").unwrap(), r"'\n'");
    assert_eq!(char_from_suite("'").unwrap(), r"'\''");
    assert_eq!(char_from_suite(r"\uD800").unwrap(), r"'\uD800'");
    assert_eq!(char_from_suite("ab"), None);
    let long = vec![u16::from(b'x'); 45_000];
    let joined = resolved(&string_literal(&long));
    assert!(
        joined.starts_with("String.join(\"\", \"xxx"),
        "{}",
        &joined[..40]
    );
    assert_eq!(joined.matches('"').count(), 2 + 3 * 2);
    assert!(joined.ends_with("\").intern()"), "interned as a literal is");
}

#[test]
fn numbers_are_java_literals() {
    let lit = |ty: &str, text: &str| resolved(&primitive_literal(ty, text).unwrap());
    assert_eq!(lit("double", "2.0E23"), "2.0E23");
    assert_eq!(lit("double", "-0.0"), "-0.0");
    assert_eq!(lit("double", "3"), "3.0");
    assert_eq!(lit("double", "NaN"), "Double.NaN");
    assert_eq!(lit("double", "-Infinity"), "Double.NEGATIVE_INFINITY");
    assert_eq!(lit("float", "-0.0"), "-0.0f");
    assert_eq!(lit("float", "1.0E10"), "1.0E10f");
    assert_eq!(lit("float", "Infinity"), "Float.POSITIVE_INFINITY");
    // javac refuses float literals that round to zero or overflow; Java parses them.
    assert_eq!(lit("float", "1e-50"), "Float.parseFloat(\"1e-50\")");
    assert_eq!(lit("double", "0x1p3"), "Double.parseDouble(\"0x1p3\")");
    assert_eq!(lit("long", "-9223372036854775808"), "Long.MIN_VALUE");
    assert_eq!(lit("long", "5"), "5L");
    assert_eq!(lit("int", "-2147483648"), "Integer.MIN_VALUE");
    assert_eq!(lit("int", "+7"), "7");
    assert_eq!(lit("byte", "-1"), "(byte) -1");
    assert_eq!(lit("short", "300"), "(short) 300");
    assert_eq!(lit("char", r"\t"), r"'\t'");
    assert_eq!(lit("boolean", "true"), "true");
    assert!(is_zero("-0.0") && !is_zero("1.0E-300"));
}

#[test]
fn names_packages_and_releases() {
    assert_eq!(variable_base("java.util.ArrayList"), "arrayList");
    assert_eq!(variable_base("java.net.URLConnection"), "urlConnection");
    assert_eq!(variable_base("java.net.URL"), "url");
    assert_eq!(variable_base("java.util.Map$Entry"), "entry");
    assert_eq!(variable_base("int[][]"), "intArrayArray");
    assert_eq!(variable_base("java.lang.String"), "string");
    assert!(check_package("org.example.regression").is_ok());
    assert!(check_package("org..x").unwrap_err().contains("empty"));
    assert!(check_package("org.class").unwrap_err().contains("`class`"));
    assert!(check_package("9lives").is_err());
    assert_eq!(major_release("17.0.9"), Some(17));
    assert_eq!(major_release("1.8.0_292"), Some(8));
    assert_eq!(major_release("21"), Some(21));
    let mut locals = Locals::default();
    assert_eq!(locals.numbered("string", 1), "string1");
    assert_eq!(locals.numbered("string", 1), "string1_");
    assert_eq!(locals.plain("thrown"), "thrown");
    assert_eq!(locals.plain("thrown"), "thrown2");
}

#[test]
fn imports_avoid_collisions() {
    let text = format!(
        "{} {} {} {} {}",
        type_ref("java.util.Date"),
        type_ref("java.sql.Date"),
        type_ref("java.lang.Character$UnicodeBlock"),
        type_ref("java.util.List"),
        type_ref("org.junit.Test"),
    );
    let (out, imports) = resolve(&text, &["List"]);
    assert_eq!(
        out,
        "java.util.Date java.sql.Date Character.UnicodeBlock java.util.List Test"
    );
    assert_eq!(imports, vec!["java.lang.Character", "org.junit.Test"]);
    let (out, imports) = resolve(&type_ref("Foo$Bar"), &[]);
    assert_eq!((out.as_str(), imports.len()), ("Foo.Bar", 0));
}

fn callable(name: &str, params: &[&str], returns: &str) -> Callable {
    Callable::new(name, params, returns, false)
}

fn class(name: &str, supertypes: &[&str], methods: Vec<Callable>) -> ApiClass {
    ApiClass::with_methods(name, supertypes, methods)
}

fn model() -> ApiModel {
    let byte = class(
        "java.lang.Byte",
        &[
            "java.lang.Number",
            "java.lang.Comparable",
            "java.lang.Object",
        ],
        vec![
            callable("compareTo", &["java.lang.Byte"], "int"),
            callable("compareTo", &["java.lang.Object"], "int"),
        ],
    );
    let comparable = class(
        "java.lang.Comparable",
        &["java.lang.Object"],
        vec![callable("compareTo", &["java.lang.Object"], "int")],
    );
    let list = class(
        "java.util.ArrayList",
        &["java.util.List", "java.lang.Object"],
        vec![
            callable("add", &["java.lang.Object"], "boolean"),
            callable("size", &[], "int"),
            callable("clear", &[], "void"),
        ],
    );
    let cce = class(
        "java.lang.ClassCastException",
        &["java.lang.Object"],
        vec![],
    );
    let mut m = ApiModel::default();
    for c in [byte, comparable, list, cce] {
        m.classes.insert(c.name.clone(), c);
    }
    m
}

fn suite(tests: Vec<Test>) -> Suite {
    let header: Header = serde_yaml::from_str(
        "format: 1\ntool: difftest\nreference: temurin17\nfingerprint:\n  java_version: 17.0.9\n  \
         java_vendor: Eclipse Adoptium\n  vm_name: VM\n  runtime_version: 17.0.9+9\nseed: 0\n\
         classes: []\npackages: []\noptions: {}\ncounts: {}\n",
    )
    .unwrap();
    Suite {
        header,
        tests,
        error_revealing: vec![],
        exceptions: BTreeMap::new(),
    }
}

/// A test from suite lines: `code  // expected` statements, then observers.
fn test(id: u64, code: &[&str], observe: &[&str]) -> Test {
    let mut t = Test {
        id,
        statements: vec![],
        observers: vec![],
        expected_steps: vec![],
        expected_observations: vec![],
        varies: vec![],
    };
    for (i, line) in code.iter().enumerate() {
        let (c, e) = crate::suite::syntax::split_expected(line);
        t.statements.push(parse_statement(c, i).unwrap());
        if e == Some(crate::suite::syntax::VARIES) {
            t.varies.push(i);
            t.expected_steps.push(None);
        } else {
            t.expected_steps.push(e.map(|e| parse_observed(e).unwrap()));
        }
    }
    for line in observe {
        let (c, e) = crate::suite::syntax::split_expected(line);
        t.observers.push(parse_observer(c).unwrap());
        t.expected_observations
            .push(Some(parse_observed(e.unwrap()).unwrap()));
    }
    t
}

fn render(t: &Test, with_model: bool, junit: Junit) -> String {
    let s = suite(vec![t.clone()]);
    let types = Types::new(&s, with_model.then(model));
    let style = Style {
        junit,
        strict_messages: false,
    };
    let m = method::regression(t, &types, style, &type_ref(junit.test_class())).unwrap();
    resolved(&m)
}

#[test]
fn a_test_declares_names_casts_and_asserts() {
    let t = test(
        12,
        &[
            "v0 = new java.util.ArrayList()",
            "v1 = \"hi!\"",
            "v2 = ((java.util.ArrayList) v0).add((java.lang.Object) v1)  // true",
            "v3 = ((java.util.ArrayList) v0).clear()",
            "v4 = (byte) -1",
            "v5 = ((java.lang.Byte) v4).compareTo((java.lang.Object) v1)  // throws java.lang.ClassCastException",
        ],
        &[],
    );
    let with = render(&t, true, Junit::Four);
    assert!(
        with.contains("ArrayList arrayList0 = new ArrayList();"),
        "{with}"
    );
    assert!(with.contains("boolean boolean2 = arrayList0.add((Object) string1);"));
    assert!(with.contains("assertTrue(boolean2);"));
    assert!(with.contains("        arrayList0.clear();\n"));
    assert!(with.contains(
        "ClassCastException thrown = assertThrows(ClassCastException.class, () -> \
         ((Comparable) byte4).compareTo((Object) string1));"
    ));
    assert!(with.contains("assertEquals(ClassCastException.class, thrown.getClass());"));
    let without = render(&t, false, Junit::Five);
    assert!(
        without.contains("var boolean2 = arrayList0.add((Object) string1);"),
        "{without}"
    );
    assert!(without.contains("        arrayList0.clear();\n"));
    assert!(without.contains("assertTrue((boolean) boolean2);"));
    // Without a model, the export cannot tell the exception class is public.
    assert!(without.contains(
        "Throwable thrown = assertThrows(Throwable.class, () -> ((Comparable) byte4).compareTo"
    ));
    assert!(
        without.contains(
            "assertEquals(\"java.lang.ClassCastException\", thrown.getClass().getName());"
        )
    );
}

#[test]
fn observations_compare_exactly() {
    let t = test(
        3,
        &["v0 = new java.util.ArrayList()", "v1 = (double) -0.0"],
        &[
            "((java.util.ArrayList) v0).size()  // 0",
            "((java.util.AbstractList) v0).hashCode()  // (long) -9223372036854775808",
            "((java.lang.Double) v1).doubleValue()  // (double) -0.0",
            "((java.util.ArrayList) v0).clone()  // object java.util.ArrayList",
            "((java.util.ArrayList) v0).iterator()  // object java.util.ArrayList$Itr",
        ],
    );
    let four = render(&t, true, Junit::Four);
    assert!(
        four.contains("assertEquals(0, arrayList0.size());"),
        "{four}"
    );
    // AbstractList is not in the model: ArrayList is not known to be a subtype.
    assert!(
        four.contains(
            "assertEquals(Long.MIN_VALUE, (long) ((AbstractList) arrayList0).hashCode());"
        )
    );
    assert!(four.contains(
        "assertEquals(Double.valueOf(-0.0), Double.valueOf((double) ((Double) double1).doubleValue()));"
    ));
    assert!(four.contains("assertEquals(ArrayList.class, arrayList0.clone().getClass());"));
    assert!(four.contains(
        "assertEquals(\"java.util.ArrayList$Itr\", arrayList0.iterator().getClass().getTypeName());"
    ));
    let five = render(&t, true, Junit::Five);
    assert!(
        five.contains("assertEquals(-0.0, (double) ((Double) double1).doubleValue());"),
        "{five}"
    );
}

#[test]
fn junit_results_are_parsed() {
    let out = "JUnit version 4.13.2\n..E.\nTime: 0.1\nThere was 1 failure:\n\
               1) test42(p.Regression0Test)\njava.lang.AssertionError\n\nFAILURES!!!\n\
               Tests run: 4,  Failures: 1\n";
    let (n, failed) = parse_junit4(out).unwrap();
    assert_eq!(n, 4);
    assert_eq!(
        failed.into_iter().collect::<Vec<_>>(),
        vec!["p.Regression0Test.test42"]
    );
    assert_eq!(parse_junit4("OK (7 tests)\n").unwrap().0, 7);
    let dir = tempfile::tempdir().unwrap();
    let xml = "<testsuite><testcase name=\"test1()\" classname=\"A\" time=\"0\"/>\
               <testcase name=\"test2()\" classname=\"A\" time=\"0\">\
               <failure message=\"x\" type=\"T\">boom</failure></testcase></testsuite>";
    std::fs::write(dir.path().join("TEST-junit-jupiter.xml"), xml).unwrap();
    let (n, failed) = parse_junit5_reports(dir.path()).unwrap();
    assert_eq!(n, 2);
    assert_eq!(failed.into_iter().collect::<Vec<_>>(), vec!["A.test2"]);
}

#[test]
fn checks_that_depend_on_the_callers_stack_are_dropped() {
    let t = test(
        5,
        &[
            "v0 = new java.lang.IllegalStateException()",
            "v1 = ((java.lang.Throwable) v0).getStackTrace()",
            "v2 = java.util.Arrays.asList((java.lang.Object[]) v1)",
            "v3 = new java.util.ArrayList()",
            "v4 = ((java.util.ArrayList) v3).addAll((java.util.Collection) v2)  // true",
            "v5 = ((java.lang.Throwable) v0).getMessage()  // null",
        ],
        &[
            "((java.util.ArrayList) v3).size()  // 11",
            "((java.lang.Throwable) v0).toString()  // \"java.lang.IllegalStateException\"",
        ],
    );
    assert_eq!(
        crate::sequence::caller_stack(&t.statements),
        vec![false, true, true, true, true, false]
    );
    let java = render(&t, true, Junit::Four);
    assert!(!java.contains("assertTrue(boolean4)"), "{java}");
    let size = java
        .lines()
        .find(|l| l.contains(".size()"))
        .unwrap_or_default();
    assert!(
        size.trim_start().starts_with("try {") && !java.contains("11"),
        "the size runs unchecked (a later observer was recorded after it): {java}"
    );
    assert!(java.contains("assertNull(message5);"), "{java}");
    assert!(
        java.contains("\"java.lang.IllegalStateException\""),
        "{java}"
    );
    let mut throws = t.clone();
    throws.observers.clear();
    throws.expected_observations.clear();
    throws.expected_steps[5] = None;
    let s = suite(vec![throws.clone()]);
    let types = Types::new(&s, None);
    let style = Style {
        junit: Junit::Four,
        strict_messages: false,
    };
    let why = method::regression(&throws, &types, style, "Test").unwrap_err();
    assert!(why.contains("caller's stack"), "{why}");
}
