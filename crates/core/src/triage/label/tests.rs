//! Tests of the labelling rules, one per kind of change.

use super::data::mentions;
use super::*;

fn value(class: &str, text: &str) -> Observed {
    Observed::Value {
        class: class.into(),
        text: text.into(),
    }
}

fn label(callee: &str, class: &str, a: &str, b: &str, java: &[&str]) -> (Label, Option<String>) {
    let (x, y) = (value(class, a), value(class, b));
    let show = |o: &Observed| crate::text::visible(&o.render());
    let java: Vec<String> = java.iter().map(|s| s.to_string()).collect();
    classify(&Evidence {
        callee,
        kind: Kind::Value,
        expected: Some(&x),
        actual: Some(&y),
        ref_value: &show(&x),
        tgt_value: &show(&y),
        java: &java,
        versions: None,
    })
}

#[test]
fn the_same_number_printed_otherwise_is_a_rendering() {
    let f = "java.lang.Float.MIN_NORMAL";
    let got = label(f, "float", "1.17549435E-38", "1.1754944E-38", &[]);
    assert_eq!(got.0, Label::Rendering);
    let d = label(
        "Math.x(double)",
        "double",
        "1.9999999999999998E23",
        "2.0E23",
        &[],
    );
    assert_eq!(d, got, "one rule, one change");
    let s = label(
        "S.f()",
        "java.lang.String",
        "[6.8719477E10]",
        "[6.871948E10]",
        &[],
    );
    assert_eq!(s.0, Label::Rendering, "floats inside text");
    let bd = label("B.f()", "java.math.BigDecimal", "1E+3", "1000", &[]);
    assert_eq!(bd, (Label::Rendering, Some("decimal notation".into())));
    let ulp = label(
        "Math.tan(double)",
        "double",
        "0.4355603999447874",
        "0.43556039994478735",
        &[],
    );
    assert_eq!(
        ulp.0,
        Label::LastPlace,
        "one ulp apart is another value, in the last place"
    );
    assert_eq!(
        label("S.size()", "int", "230", "233", &[]).0,
        Label::ValueDiffers
    );
}

#[test]
fn invisible_characters_and_spaces_are_one_change() {
    let a = label(
        "D.f()",
        "java.lang.String",
        "12:00 AM",
        "12:00\u{202F}AM",
        &[],
    );
    let b = label(
        "E.g(int)",
        "java.lang.String",
        "May 1, 4:02 PM",
        "May 1, 4:02\u{202F}PM",
        &[],
    );
    assert_eq!(a.0, Label::Invisible);
    assert_eq!(a, b);
    let other = label(
        "N.f()",
        "java.lang.String",
        "1\u{202F}000",
        "1\u{A0}000",
        &[],
    );
    assert_eq!(other.0, Label::Invisible);
    assert_ne!(other.1, a.1);
    assert_eq!(a.1.as_deref(), Some("'\\u202F' added or removed"));
    // One no-break space put in, taken out or dropped: one change, whichever way.
    let s = "java.lang.String";
    let out = label("F.f()", s, "1\u{A0}000 \u{20AC}", "1 000 \u{20AC}", &[]);
    let back = label("F.g()", s, "-1 \u{20AC}", "-1\u{A0}\u{20AC}", &[]);
    let gone = label("F.h()", s, "\u{20AC}\u{A0}5", "\u{20AC}5", &[]);
    assert_eq!(out.0, Label::Invisible);
    assert_eq!(out, back);
    assert_eq!(out, gone);
}

#[test]
fn large_values_differ_by_value_not_by_hash() {
    let big = |digest: u64| Observed::Large {
        class: "java.lang.String".into(),
        prefix: "xxxx".into(),
        length: 10_000_000,
        digest,
    };
    let (x, y) = (big(0x9d4ee80849a66b19), big(0x8eec707f50bd5a58));
    let (a, b) = (x.render(), y.render());
    assert!(crate::sequence::is_large_rendering(&a), "{a}");
    assert!(!crate::sequence::is_large_rendering(
        "\"a... (1 chars, digest x)"
    ));
    let got = classify(&Evidence {
        callee: "fixture.Big.big()",
        kind: Kind::Value,
        expected: Some(&x),
        actual: Some(&y),
        ref_value: &a,
        tgt_value: &b,
        java: &[],
        versions: None,
    });
    assert_eq!(got.0, Label::ValueDiffers);
}

#[test]
fn hash_only_is_earned_by_what_the_value_is() {
    let h = label(
        "java.util.AbstractMap.hashCode()",
        "int",
        "274641252",
        "-1511157762",
        &[],
    );
    assert_eq!(h, (Label::HashOnly, Some("hashCode() values".into())));
    let field = label("p.K.hash", "int", "12", "13", &[]);
    assert_eq!(field.0, Label::HashOnly, "a field named as a hash");
    let identity = label(
        "X.toString()",
        "java.lang.String",
        "java.lang.Object@1b6d3586",
        "java.lang.Object@4e3f7184",
        &[],
    );
    assert_eq!(identity.0, Label::HashOnly, "an identity hash");
    let other = label(
        "X.toString()",
        "java.lang.String",
        "java.lang.Object@1b6d3586",
        "java.lang.Object@d74f9ae",
        &[],
    );
    assert_eq!(identity, other, "other hashes in the same text: one change");
    let named = label(
        "X.toString()",
        "java.lang.String",
        "[hash=0x1401ad8b]",
        "[hash=0x4e3f7184]",
        &[],
    );
    assert_eq!(named.0, Label::HashOnly, "the value of a field named hash");
    let checksum = label(
        "X.toString()",
        "java.lang.String",
        "[checksum=0x1401ad8b]",
        "[checksum=0x4e3f7184]",
        &[],
    );
    assert_eq!(
        checksum.0,
        Label::ValueDiffers,
        "a checksum is not a hash because it looks hexadecimal"
    );
    let version = label(
        "java.util.TreeMap.firstKey()",
        "java.lang.String",
        "2023c",
        "2025b",
        &[],
    );
    assert_eq!(version.0, Label::ValueDiffers, "nor is a tz version");
    let map = label(
        "java.util.Hashtable.toString()",
        "java.lang.String",
        "{a=1, b=2}",
        "{b=2, a=1}",
        &[],
    );
    assert_eq!(map.0, Label::HashOnly, "a map's entries in another order");
    let list = label(
        "java.util.List.toString()",
        "java.lang.String",
        "[a, b]",
        "[b, a]",
        &[],
    );
    assert_eq!(list.0, Label::ValueDiffers, "a list's order is its value");
    let set = label(
        "java.util.HashSet.toString()",
        "java.lang.String",
        "[a, b]",
        "[b, a]",
        &[],
    );
    assert_eq!(set.0, Label::HashOnly);
    let tree = label(
        "java.util.TreeMap.toString()",
        "java.lang.String",
        "{a=1, b=2}",
        "{b=2, a=1}",
        &[],
    );
    assert_eq!(
        tree.0,
        Label::ValueDiffers,
        "a sorted map's order is its value"
    );
    assert_eq!(
        label("X.size()", "int", "12", "13", &[]).0,
        Label::ValueDiffers
    );
}

#[test]
fn data_classes_make_a_data_version() {
    let java = [
        "java.util.Set v0 = java.util.Currency.getAvailableCurrencies();",
        "v0.size();",
    ];
    let constant = [
        "var v0 = java.lang.Character.UnicodeScript.JAVANESE;",
        "var v1 = v0.ordinal();",
    ];
    let s = label(
        "java.util.Spliterator.getExactSizeIfKnown()",
        "long",
        "2",
        "-1",
        &constant,
    );
    assert_eq!(
        s.0,
        Label::ValueDiffers,
        "a constant used for its number is not data"
    );
    let nested = ["var v0 = java.lang.Character.UnicodeScript.forName(\"x\");"];
    let n = label("java.util.Set.size()", "int", "155", "162", &nested);
    assert_eq!(n.1.as_deref(), Some("Unicode data"));
    let c = label("java.util.Set.size()", "int", "230", "233", &java);
    assert_eq!(c, (Label::DataVersion, Some("currency data".into())));
    let l = label(
        "java.util.Currency.getDisplayName(java.util.Locale)",
        "java.lang.String",
        "Won",
        "Wn",
        &[],
    );
    assert_eq!(l.1.as_deref(), Some("locale data (CLDR)"));
    let u = label(
        "java.lang.Character.getName(int)",
        "java.lang.String",
        "A",
        "B",
        &[],
    );
    assert_eq!(u.1.as_deref(), Some("Unicode data"));
    let providers = [
        "var v0 = javax.crypto.KeyAgreement.getInstance(\"X25519\");",
        "var v1 = ((javax.crypto.KeyAgreement) v0).getProvider();",
        "var v2 = java.util.Map.copyOf((java.util.Map) v1);",
    ];
    let p = label("java.util.Map.size()", "int", "154", "158", &providers);
    assert_eq!(p, (Label::DataVersion, Some("security providers".into())));
    let algorithms = ["var v0 = java.security.Security.getAlgorithms(\"KeyFactory\");"];
    let a = label("java.util.TreeSet.size()", "int", "11", "12", &algorithms);
    assert_eq!(a, p, "the catalogue read through Security or a Provider");
    let key = ["var v0 = java.security.Security.getProperty(\"jdk.tls.disabledAlgorithms\");"];
    let setting = (Label::DataVersion, Some("security properties".into()));
    let callee = "java.security.Security.getProperty(java.lang.String)";
    assert_eq!(
        label(callee, "java.lang.String", "\"RC4\"", "\"RC4, ECDH\"", &key),
        setting
    );
    let read = label("java.lang.String.length()", "int", "3", "9", &key);
    assert_eq!(read, setting, "a value computed from a setting");
    assert!(!mentions("java.lang.CharacterData", "java.lang.Character"));
    assert!(mentions(
        "java.lang.Character$UnicodeScript",
        "java.lang.Character"
    ));
}

/// Classifies a value difference of `callee` (shown as `a` → `b`) read in `java`, with
/// Temurin 17 → 21's reported data versions.
fn label_with_versions(callee: &str, a: &str, b: &str, java: &[&str]) -> (Label, Option<String>) {
    let versions = Versions {
        reference: [("tzdata", "2023c"), ("unicode", "13.0")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
        target: [("tzdata", "2025b"), ("unicode", "15.0")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
        same_runtime: false,
    };
    let (x, y) = (value("java.lang.String", a), value("java.lang.String", b));
    let java: Vec<String> = java.iter().map(|s| s.to_string()).collect();
    classify(&Evidence {
        callee,
        kind: Kind::Value,
        expected: Some(&x),
        actual: Some(&y),
        ref_value: a,
        tgt_value: b,
        java: &java,
        versions: Some(&versions),
    })
}

#[test]
fn a_data_version_in_the_diff_names_the_change_whatever_shows_it() {
    let tz = (
        Label::DataVersion,
        Some("time-zone data 2023c → 2025b".to_string()),
    );
    let shown_by = [
        (
            "java.util.TreeMap.toString()",
            "{2023c=ZoneRules[currentStandardOffset=+06:00]}",
        ),
        (
            "java.util.Set.toString()",
            "[2023c=ZoneRules[currentStandardOffset=+03:00]]",
        ),
        (
            "java.util.AbstractMap$SimpleImmutableEntry.getKey()",
            "\"2023c\"",
        ),
        ("java.util.NavigableSet.toString()", "[2023c]"),
        (
            "java.lang.annotation.Annotation.toString()",
            "@A(value=\"2023c\")",
        ),
    ];
    for (callee, old) in shown_by {
        let new = old.replace("2023c", "2025b");
        assert_eq!(label_with_versions(callee, old, &new, &[]), tz, "{callee}");
    }
    let unicode = label_with_versions("p.Q.toString()", "Unicode 13.0", "Unicode 15.0", &[]);
    assert_eq!(
        unicode,
        (Label::DataVersion, Some("Unicode data 13.0 → 15.0".into())),
        "a version whose changed part is only some of its tokens"
    );
    let elsewhere = label_with_versions("p.Q.toString()", "2023c: 1", "2023c: 2", &[]);
    assert_eq!(
        elsewhere.0,
        Label::ValueDiffers,
        "a version the diff does not change names nothing"
    );
}

#[test]
fn a_checksum_or_hash_of_changed_data_is_that_data_change() {
    let unicode = Some("Unicode data 13.0 → 15.0".to_string());
    let checksum = label_with_versions(
        "java.text.BreakIterator.toString()",
        "[checksum=0x1401ad8b]",
        "[checksum=0x4e3f7184]",
        &[],
    );
    assert_eq!(checksum, (Label::DataVersion, unicode.clone()));
    let hash = label_with_versions(
        "java.text.BreakIterator.hashCode()",
        "1719620444",
        "-1117910979",
        &[],
    );
    assert_eq!(
        hash,
        (Label::DataVersion, unicode),
        "a hash of changed data"
    );
    let container = label_with_versions(
        "java.util.NavigableMap.hashCode()",
        "47655749",
        "47655808",
        &["var v0 = java.time.zone.ZoneRulesProvider.getVersions(\"UTC\");"],
    );
    assert_eq!(
        container.1.as_deref(),
        Some("time-zone data 2023c → 2025b"),
        "a container's hash goes under what it contains"
    );
    let plain = label_with_versions("java.util.AbstractMap.hashCode()", "1", "2", &[]);
    assert_eq!(plain.0, Label::HashOnly, "no data read: a hash");
}

#[test]
fn exceptions_and_artefacts() {
    let threw = |c: &str| Observed::Threw {
        class: c.into(),
        message: None,
        classpath: None,
    };
    let (a, b) = (
        threw("java.lang.ArrayIndexOutOfBoundsException"),
        threw("java.lang.IndexOutOfBoundsException"),
    );
    let ev = |k, x: &Observed, y: &Observed| {
        classify(&Evidence {
            callee: "C.f()",
            kind: k,
            expected: Some(x),
            actual: Some(y),
            ref_value: "",
            tgt_value: "",
            java: &[],
            versions: None,
        })
    };
    assert_eq!(
        ev(Kind::ExceptionClass, &a, &b).0,
        Label::PermittedNarrowing
    );
    assert_eq!(
        ev(Kind::ExceptionClass, &b, &a).0,
        Label::PermittedNarrowing
    );
    let cce = threw("java.lang.ClassCastException");
    assert_eq!(ev(Kind::ExceptionClass, &a, &cce).0, Label::Exception);
    let bridge = Observed::Missing {
        what: "invalid call: java.lang.IllegalArgumentException: argument type mismatch".into(),
    };
    assert_eq!(ev(Kind::Missing, &cce, &bridge).0, Label::ToolArtefact);
    let unsupported = |field: &str| Observed::Threw {
        class: "java.time.temporal.UnsupportedTemporalTypeException".into(),
        message: Some(format!("Unsupported field: {field}")),
        classpath: None,
    };
    let returns = value("long", "1");
    let quarter = ev(
        Kind::NormalVsException,
        &unsupported("QuarterOfYear"),
        &returns,
    );
    let week = ev(
        Kind::NormalVsException,
        &unsupported("WeekBasedYear"),
        &returns,
    );
    assert_eq!(
        quarter, week,
        "the field a message names is a detail of the call"
    );
    let sentence = Observed::Threw {
        class: "java.lang.IllegalStateException".into(),
        message: Some("state: not open yet".into()),
        classpath: None,
    };
    let other = Observed::Threw {
        class: "java.lang.IllegalStateException".into(),
        message: Some("state: closed".into()),
        classpath: None,
    };
    assert_ne!(
        ev(Kind::NormalVsException, &sentence, &returns),
        ev(Kind::NormalVsException, &other, &returns),
        "only a one-word name is masked"
    );
    let gone = Observed::Missing {
        what: "method C.f()".into(),
    };
    assert_eq!(ev(Kind::Missing, &cce, &gone).0, Label::ApiMissing);
}

#[test]
fn cause_ids_are_stable() {
    assert_eq!(
        cause_id(Label::Invisible, "x"),
        cause_id(Label::Invisible, "x")
    );
    assert_ne!(
        cause_id(Label::Invisible, "x"),
        cause_id(Label::Rendering, "x")
    );
    assert!(cause_id(Label::HashOnly, "x").starts_with("c-"));
}

#[test]
fn last_place_differences_of_any_callee_are_one_change() {
    let exp = label(
        "java.lang.Math.exp(double)",
        "double",
        "2.718281828459045",
        "2.7182818284590455",
        &[],
    );
    let pow = label(
        "java.lang.Math.pow(double,double)",
        "double",
        "561507.2778371334",
        "561507.2778371333",
        &[],
    );
    assert_eq!(exp.0, Label::LastPlace);
    assert_eq!(exp, pow, "one change over callees");
    let far = label(
        "java.lang.Math.exp(double)",
        "double",
        "2.718281828459045",
        "2.718281828459047",
        &[],
    );
    assert_eq!(far.0, Label::ValueDiffers, "more than two ulps apart");
    let f = label("F.f()", "float", "0.1", "0.10000001", &[]);
    assert_eq!(f.0, Label::LastPlace, "a float's ulp");
    let ints = label("M.round(double)", "long", "3", "4", &[]);
    assert_eq!(ints.0, Label::ValueDiffers, "integers are never last-place");
}

#[test]
fn a_listing_of_runtime_contents_is_data() {
    let java = [
        "var v0 = java.nio.charset.Charset.availableCharsets();",
        "v1.putAll((java.util.Map) v0);",
    ];
    let a = label("java.util.TreeMap.size()", "int", "63", "173", &java);
    let b = label(
        "java.util.IdentityHashMap.size()",
        "int",
        "65",
        "175",
        &java,
    );
    assert_eq!(a.0, Label::DataVersion);
    assert_eq!(a, b, "one listing, one change");
    assert_eq!(
        a.1.as_deref(),
        Some("runtime contents: java.nio.charset.Charset.availableCharsets()")
    );
    let instance = ["var v1 = v0.availableProcessors();"];
    assert_eq!(
        label("X.f()", "int", "2", "4", &instance).0,
        Label::ValueDiffers
    );
}

#[test]
fn reported_data_versions_name_the_change_or_rule_it_out() {
    let versions = |a: &str, b: &str| Versions {
        reference: [("unicode".to_string(), a.to_string())].into(),
        target: [("unicode".to_string(), b.to_string())].into(),
        same_runtime: false,
    };
    let (x, y) = (
        value("java.lang.String", "A"),
        value("java.lang.String", "B"),
    );
    let with = |v: &Versions| classify(&with_evidence(&x, &y, v));
    let newer = with(&versions("13.0", "15.0"));
    assert_eq!(
        newer,
        (Label::DataVersion, Some("Unicode data 13.0 → 15.0".into()))
    );
    assert_eq!(with(&versions("13.0", "16.0")).0, Label::DataVersion);
    assert_ne!(
        with(&versions("13.0", "16.0")).1,
        newer.1,
        "another pair, another cause"
    );
    let same = with(&versions("13.0", "13.0"));
    assert_eq!(
        same.0,
        Label::ValueDiffers,
        "the same data cannot explain it"
    );
    let java = [
        "var v0 = java.lang.Character.UnicodeBlock.forName(\"x\");",
        "var v1 = java.text.BreakIterator.getAvailableLocales();",
    ];
    let next = classify(&Evidence {
        callee: "java.beans.Expression.toString()",
        java: &java.map(String::from),
        ..with_evidence(&x, &y, &versions("13.0", "13.0"))
    });
    assert_eq!(
        next,
        (Label::DataVersion, Some("locale data (CLDR)".into())),
        "the next family the example reads"
    );
    let unknown = with(&Versions::default());
    assert_eq!(unknown.1.as_deref(), Some("Unicode data"));
    let one_jdk = Versions {
        same_runtime: true,
        ..Versions::default()
    };
    let library = classify(&Evidence {
        callee: "org.example.Zipf.sample()",
        java: &java.map(String::from),
        ..with_evidence(&x, &y, &one_jdk)
    });
    assert_eq!(
        library.0,
        Label::ValueDiffers,
        "one JDK on both sides: its data cannot be what changed"
    );
}

/// A value difference `"A"` → `"B"` of `Character.getName(int)` with these data versions.
fn with_evidence<'a>(x: &'a Observed, y: &'a Observed, v: &'a Versions) -> Evidence<'a> {
    Evidence {
        callee: "java.lang.Character.getName(int)",
        kind: Kind::Value,
        expected: Some(x),
        actual: Some(y),
        ref_value: "\"A\"",
        tgt_value: "\"B\"",
        java: &[],
        versions: Some(v),
    }
}

#[test]
fn the_runtime_release_counts_only_in_a_value_named_a_version() {
    let versions = super::Versions {
        reference: [(super::RUNTIME.to_string(), "17".to_string())].into(),
        target: [(super::RUNTIME.to_string(), "21".to_string())].into(),
        same_runtime: false,
    };
    let of = |callee: &str, a: &str, b: &str| {
        classify(&Evidence {
            callee,
            kind: Kind::Value,
            expected: None,
            actual: None,
            ref_value: a,
            tgt_value: b,
            java: &[],
            versions: Some(&versions),
        })
    };
    let runtime = Some("runtime version 17 → 21".to_string());
    assert_eq!(of("p.P.getVersion()", "17.0", "21.0").1, runtime);
    assert_eq!(
        of("p.P.toString()", "\"P version 17\"", "\"P version 21\"").1,
        runtime
    );
    assert_ne!(of("p.Q.size()", "17", "21").1, runtime, "a count");
    assert_ne!(
        of("p.P.getVersion()", "17.0", "25.0").1,
        runtime,
        "another release"
    );
    assert_eq!(
        super::feature_release("17.0.9+9 Eclipse Adoptium").as_deref(),
        Some("17")
    );
    assert_eq!(
        super::feature_release("1.8.0_392 Temurin").as_deref(),
        Some("8")
    );
    assert_eq!(super::feature_release("unknown"), None);
}
