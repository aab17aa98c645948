use super::*;

fn s<T: for<'a> From<&'a str>>(v: &str) -> T {
    v.into()
}

fn round_trip_statement(stmt: Statement, index: usize, line: &str) {
    let mut out = format!("v{index} = ");
    write_expr(&mut out, &stmt);
    assert_eq!(out, line);
    assert_eq!(parse_statement(&out, index), Ok(stmt));
}

#[test]
fn statements_round_trip() {
    let lit = Statement::literal;
    round_trip_statement(lit("java.lang.String", "hi!"), 0, r#"v0 = "hi!""#);
    round_trip_statement(
        lit("java.lang.String", r#"a"b\\c\u202F  // x"#),
        1,
        r#"v1 = "a\"b\\c\u202F  // x""#,
    );
    round_trip_statement(lit("char", "'"), 2, r#"v2 = (char) '\''"#);
    round_trip_statement(lit("char", " "), 2, "v2 = (char) ' '");
    round_trip_statement(lit("int", "-1"), 3, "v3 = (int) -1");
    round_trip_statement(lit("double", "1.0E10"), 3, "v3 = (double) 1.0E10");
    round_trip_statement(lit("int", "a b"), 3, r#"v3 = (int) "a b""#);
    round_trip_statement(
        Statement::Null {
            ty: s("java.util.List"),
        },
        4,
        "v4 = (java.util.List) null",
    );
    round_trip_statement(
        Statement::Enum {
            ty: s("java.math.RoundingMode"),
            constant: s("UP"),
        },
        5,
        "v5 = enum java.math.RoundingMode.UP",
    );
}

#[test]
fn constructors_and_calls_round_trip() {
    round_trip_statement(
        Statement::New {
            class: s("java.util.ArrayList"),
            params: vec![],
            args: vec![],
        },
        0,
        "v0 = new java.util.ArrayList()",
    );
    round_trip_statement(
        Statement::Call {
            class: s("java.util.Map$Entry"),
            method: s("setValue"),
            params: vec![s("java.lang.Object"), s("int[]")],
            receiver: Some(0),
            args: vec![1, 12],
        },
        13,
        "v13 = ((java.util.Map$Entry) v0).setValue((java.lang.Object) v1, (int[]) v12)",
    );
    round_trip_statement(
        Statement::Call {
            class: s("java.lang.Integer"),
            method: s("valueOf"),
            params: vec![s("int")],
            receiver: None,
            args: vec![0],
        },
        1,
        "v1 = java.lang.Integer.valueOf((int) v0)",
    );
}

#[test]
fn fields_and_arrays_round_trip() {
    round_trip_statement(
        Statement::Field {
            class: s("java.lang.Integer"),
            field: s("MAX_VALUE"),
            receiver: None,
        },
        0,
        "v0 = java.lang.Integer.MAX_VALUE",
    );
    round_trip_statement(
        Statement::Field {
            class: s("p.Point"),
            field: s("x"),
            receiver: Some(0),
        },
        1,
        "v1 = ((p.Point) v0).x",
    );
    round_trip_statement(
        Statement::Array {
            elem: s("java.lang.Object"),
            elems: vec![0, 1],
        },
        2,
        "v2 = new java.lang.Object[] {v0, v1}",
    );
    round_trip_statement(
        Statement::Array {
            elem: s("int[]"),
            elems: vec![],
        },
        0,
        "v0 = new int[][] {}",
    );
}

fn round_trip_observed(o: Observed, text: &str) {
    let mut out = String::new();
    write_observed(&mut out, &o);
    assert_eq!(out, text);
    assert_eq!(parse_observed(&out), Ok(o));
}

#[test]
fn observed_values_round_trip() {
    let v = |class: &str, text: &str| Observed::Value {
        class: s(class),
        text: s(text),
    };
    round_trip_observed(Observed::Void, "void");
    round_trip_observed(Observed::Null, "null");
    round_trip_observed(v("java.lang.Integer", "-3"), "-3");
    round_trip_observed(v("java.lang.Boolean", "true"), "true");
    round_trip_observed(v("java.lang.Long", "3"), "(long) 3");
    round_trip_observed(v("java.lang.Double", "NaN"), "(double) NaN");
    round_trip_observed(v("java.lang.String", ""), "\"\"");
    round_trip_observed(v("java.lang.Character", "\\n"), r"'\n'");
    round_trip_observed(
        v("java.math.RoundingMode", "UP"),
        "enum java.math.RoundingMode.UP",
    );
    round_trip_observed(v("x.Y", "a b"), r#"value x.Y "a b""#);
    round_trip_observed(
        Observed::Object {
            class: s("java.util.ArrayList"),
        },
        "object java.util.ArrayList",
    );
    round_trip_observed(
        Observed::Large {
            class: "java.lang.String".into(),
            prefix: "a \"b\" \\n".into(),
            length: 10_000_000,
            digest: 0x9d4ee80849a66b19,
        },
        r#"large java.lang.String 10000000 9d4ee80849a66b19 "a \"b\" \n""#,
    );
    round_trip_observed(
        Observed::Threw {
            class: s("java.lang.NumberFormatException"),
            message: Some(s("For input string: \"x\"")),
            classpath: None,
        },
        r#"throws java.lang.NumberFormatException("For input string: \"x\"")"#,
    );
    round_trip_observed(
        Observed::Threw {
            class: s("java.lang.ArithmeticException"),
            message: None,
            classpath: None,
        },
        "throws java.lang.ArithmeticException",
    );
    round_trip_observed(
        Observed::Missing {
            what: s("method a.B.c()"),
        },
        r#"missing "method a.B.c()""#,
    );
}

#[test]
fn expected_is_split_outside_quotes() {
    let line = r#"v1 = "a  // b\"  // c"  // "x  // y""#;
    let (code, expected) = split_expected(line);
    assert_eq!(code, r#"v1 = "a  // b\"  // c""#);
    assert_eq!(expected, Some(r#""x  // y""#));
    assert_eq!(split_expected("v0 = new A()"), ("v0 = new A()", None));
}

#[test]
fn observers_round_trip_and_errors_are_explained() {
    let o = ObserverCall {
        stmt: 3,
        class: s("java.util.List"),
        method: s("size"),
    };
    let mut out = String::new();
    write_observer(&mut out, &o);
    assert_eq!(out, "((java.util.List) v3).size()");
    assert_eq!(parse_observer(&out), Ok(o));
    assert!(
        parse_statement("v1 = new A()", 0)
            .unwrap_err()
            .contains("v1")
    );
    assert!(
        parse_statement("v0 = \"abc", 0)
            .unwrap_err()
            .contains("unterminated")
    );
    assert!(parse_observed("(int) 3").is_err());
}

#[test]
fn literals_at_the_edges_of_their_types_round_trip() {
    let unit = |u: u16| crate::sequence::escape([u]);
    let mut cases: Vec<(&str, String)> = [
        ("byte", "-128"),
        ("short", "32767"),
        ("int", "-2147483648"),
        ("long", "-9223372036854775808"),
        ("float", "NaN"),
        ("float", "-Infinity"),
        ("float", "-0.0"),
        ("float", "1e-45"),
        ("float", "3.4028235e38"),
        ("double", "Infinity"),
        ("double", "5e-324"),
        ("double", "-1.7976931348623157e308"),
        ("java.lang.String", "a\\u0000b"),
        ("java.lang.String", "\\uD800"),
    ]
    .into_iter()
    .map(|(ty, v)| (ty, v.to_string()))
    .collect();
    cases.extend([0x0000, 0x0301, 0xD800, 0xFEFF, 0xFFFF].map(|u| ("char", unit(u))));
    for (ty, value) in cases {
        let stmt = Statement::Literal {
            ty: s(ty),
            value: value.as_str().into(),
        };
        let mut out = "v0 = ".to_string();
        write_expr(&mut out, &stmt);
        assert_eq!(parse_statement(&out, 0), Ok(stmt), "{out}");
        if ty != "java.lang.String" {
            assert!(
                crate::export::java::primitive_literal(ty, &value).is_some(),
                "{value}"
            );
        }
    }
}
