//! `difftest export` end to end: suites exported as JUnit 4 and 5 classes, compiled with a
//! real javac against JUnit jars from Maven Central (cached), and run on the reference
//! (Temurin 17: everything passes) and on Temurin 21 (exactly the tests whose values
//! changed fail, the same tests `difftest replay` reports as differing); error-revealing
//! classes fail by design; bad input exits 2.

mod common;

use difftest::export::Junit;
use difftest::export::junit_runner::{self, JunitRun};
use difftest::report::{Report, TestStatus};
use difftest::sequence::Observed;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn difftest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_difftest"))
        .args(args)
        .output()
        .expect("difftest runs")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", text(o));
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn fixture(name: &str) -> PathBuf {
    common::repo().join("tests/fixtures/export").join(name)
}

/// The JUnit jars of a flavour, from the cache.
fn jars(junit: Junit) -> Vec<PathBuf> {
    let store = common::store();
    junit_runner::junit_jars(store.cache_dir(), junit, false).expect("JUnit jars")
}

/// Compiles the sources under `src` with javac `--release 17` against JUnit and `extra`.
fn compile(src: &Path, junit: Junit, extra: &[PathBuf]) -> PathBuf {
    let javac = junit_runner::find_javac(17).expect("a javac for --release 17");
    let mut classpath = jars(junit);
    classpath.extend(extra.iter().cloned());
    let classes = src.with_extension("classes");
    junit_runner::javac(&javac, 17, &classpath, src, &classes).expect("the export compiles");
    classes
}

/// Runs `classes` with JUnit on `java`, with the compiled tests and `extra` on the classpath.
fn junit_on(
    java: &Path,
    junit: Junit,
    compiled: &Path,
    extra: &[PathBuf],
    classes: &[String],
) -> JunitRun {
    let mut classpath = vec![compiled.to_path_buf()];
    classpath.extend(jars(junit));
    classpath.extend(extra.iter().cloned());
    junit_runner::junit(java, junit, &classpath, classes).expect("JUnit runs")
}

fn java_of(target: &str) -> PathBuf {
    common::provision(target).jvm.java_home.join("bin/java")
}

/// Test classes written under `src` (package folders included), as class names.
fn classes_in(src: &Path, package: Option<&str>, prefix: &str) -> Vec<String> {
    let mut dir = src.to_path_buf();
    if let Some(p) = package {
        dir.extend(p.split('.'));
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("package folder")
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with(prefix) && n.ends_with(".java"))
        .map(|n| {
            let simple = n.trim_end_matches(".java");
            package.map_or(simple.to_string(), |p| format!("{p}.{simple}"))
        })
        .collect();
    names.sort();
    names
}

/// The suite test ids of failed JUnit tests (`Class.testN`).
fn ids(failed: &BTreeSet<String>) -> BTreeSet<u64> {
    failed
        .iter()
        .map(|name| {
            let method = name.rsplit('.').next().unwrap_or(name);
            method.trim_start_matches("test").parse().expect("testN")
        })
        .collect()
}

/// What `difftest replay` says of `suite` on `target`: the tests with new differences
/// (except those where only the text of an equal float or double changed, which JUnit
/// compares by value: see docs/export.md), and the unstable ones.
fn replay(suite: &Path, target: &str) -> (BTreeSet<u64>, BTreeSet<u64>) {
    let reports = tempfile::tempdir().unwrap();
    let o = difftest(&[
        "replay",
        "--impl",
        target,
        "--no-minimize",
        "--confirm",
        "2",
        "--suite",
        path(suite),
        "--report-dir",
        path(reports.path()),
    ]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    let json = std::fs::read_dir(reports.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a JSON report");
    let report = Report::read(&json).expect("report");
    let same_number = same_number_tests(&report);
    let with = |status: TestStatus| {
        let tests = report.tests.iter().filter(|t| t.status == status);
        tests.map(|t| t.id).collect::<BTreeSet<u64>>()
    };
    let differing = with(TestStatus::Differs);
    let differing = differing.difference(&same_number).copied().collect();
    (differing, with(TestStatus::Unstable))
}

/// Tests whose difference is only the rendering of a float or double of the same value
/// (`Float.toString` and `Double.toString` changed in Java 19).
fn same_number_tests(report: &Report) -> BTreeSet<u64> {
    let mut out = BTreeSet::new();
    for g in &report.groups {
        let Some(Observed::Value { class, .. }) = &g.ref_observed else {
            continue;
        };
        let float = match class.as_str() {
            "java.lang.Float" => true,
            "java.lang.Double" => false,
            _ => continue,
        };
        for t in report.tests.iter().filter(|t| g.test_ids.contains(&t.id)) {
            let (Some(a), Some(b)) = (&t.detail().ref_value, &t.detail().tgt_value) else {
                continue;
            };
            let same = if float {
                matches!((a.parse::<f32>(), b.parse::<f32>()), (Ok(x), Ok(y)) if x == y)
            } else {
                matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if x == y)
            };
            if same {
                out.insert(t.id);
            }
        }
    }
    out
}

/// The hand-made suite in one flavour: all pass on 17, exactly tests 1, 2 and 16 fail on
/// 21 (time format's narrow no-break space, `Double.toString(2e23)`, a Unicode 15 name).
fn hand_made_suite(junit: Junit, package: Option<&str>, extra_flags: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let flavour = junit.number().to_string();
    let suite = fixture("jdk17.yaml");
    let mut args = vec![
        "export",
        "--suite",
        path(&suite),
        "--junit",
        &flavour,
        "--out",
        path(&src),
    ];
    if let Some(p) = package {
        args.extend(["--package", p]);
    }
    args.extend(extra_flags);
    let out = difftest(&args);
    ok(&out);
    assert!(
        text(&out).contains("16 regression tests in 1 class"),
        "{}",
        text(&out)
    );
    if extra_flags.contains(&"--strict-messages") {
        let code = std::fs::read_to_string(src.join("Regression0Test.java")).unwrap();
        assert!(
            code.contains("assertEquals(\"long overflow\", thrown.getMessage());"),
            "{code}"
        );
    }
    let compiled = compile(&src, junit, &[]);
    let classes = classes_in(&src, package, "Regression");
    let on17 = junit_on(&java_of("temurin17"), junit, &compiled, &[], &classes);
    assert_eq!(on17.tests, 16, "{}", on17.output);
    assert!(on17.failed.is_empty(), "{}", on17.output);
    let on21 = junit_on(&java_of("temurin21"), junit, &compiled, &[], &classes);
    assert_eq!(
        ids(&on21.failed),
        BTreeSet::from([1, 2, 16]),
        "{}",
        on21.output
    );
    let (differing, unstable) = replay(&suite, "temurin21");
    assert_eq!((differing, unstable), (ids(&on21.failed), BTreeSet::new()));
}

#[test]
fn hand_made_suite_junit4_strict_messages_passes_on_17_and_fails_where_21_differs() {
    hand_made_suite(Junit::Four, None, &["--strict-messages"]);
}

#[test]
fn hand_made_suite_junit5_offline_in_a_package() {
    hand_made_suite(Junit::Five, Some("org.example.jdk"), &["--offline"]);
}

/// Exports `suite` as JUnit 4 classes into `src` (no package) and expects success.
fn export_junit4(suite: &Path, src: &Path) {
    ok(&difftest(&[
        "export",
        "--suite",
        path(suite),
        "--junit",
        "4",
        "--out",
        path(src),
    ]));
}

#[test]
fn generated_code_is_readable() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let suite = fixture("jdk17.yaml");
    export_junit4(&suite, &src);
    let code = std::fs::read_to_string(src.join("Regression0Test.java")).unwrap();
    for line in [
        "        String string0 = \"12:00\\u202FAM\\n\\\"q\\\" \\\\ \\t\";",
        "        assertEquals(\"1.9999999999999998E23\", string1);",
        "        char char0 = '\\n';",
        "        long long0 = Long.MIN_VALUE;",
        "        byte byte0 = (byte) -1;",
        "        assertEquals(Float.valueOf(-0.0f), Float.valueOf((float) float1));",
        "        assertEquals(Double.NaN, (double) double4, 0.0);",
        "        String string1 = String.valueOf(object0);",
        "        Character.UnicodeBlock unicodeBlock3 = Character.UnicodeBlock.of(char2);",
        "        assertEquals(RoundingMode.HALF_UP, roundingMode4);",
        "    public void test11() throws Throwable {",
        "        ParseException thrown = assertThrows(ParseException.class, () -> simpleDateFormat1.parse(string2));",
        "        arrayList0.clear();",
        "        ClassCastException thrown = assertThrows(ClassCastException.class, () -> ((Comparable) byte0).compareTo((Object) string1));",
        "import java.util.Locale;",
        "import static org.junit.Assert.assertEquals;",
    ] {
        assert!(code.contains(line), "missing {line:?} in\n{code}");
    }
    // The unchecked hashCode step has no assertion.
    let test12 = &code[code.find("void test12()").unwrap()..];
    let test12 = &test12[..test12.find("\n    }").unwrap()];
    assert!(test12.contains("int int3 = arrayList0.hashCode();"));
    assert!(!test12.contains("int3)"), "{test12}");
}

/// Runs `difftest export SUITE --junit J --out OUT extra…`; expects exit 2 and one line
/// on stderr that contains `says`.
fn refused(suite: &str, junit: &str, out: &str, extra: &[&str], says: &str) {
    let args = [
        &["export", "--suite", suite, "--junit", junit, "--out", out][..],
        extra,
    ]
    .concat();
    let o = difftest(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
    assert!(err.contains(says), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let suite = fixture("jdk17.yaml");
    let suite = path(&suite);
    let full = dir.path().join("full");
    std::fs::create_dir_all(&full).unwrap();
    std::fs::write(full.join("Keep.java"), "class Keep {}").unwrap();
    let garbage = dir.path().join("garbage.yaml");
    std::fs::write(&garbage, "header: [\n").unwrap();
    let out = path(dir.path()).to_string() + "/out";
    refused(suite, "3", &out, &[], "unknown JUnit version");
    refused(suite, "4", path(&full), &[], "not empty");
    refused(suite, "4", &out, &["--package", "org.class"], "--package");
    refused(
        suite,
        "5",
        &out,
        &["--tests-per-class", "0"],
        "--tests-per-class",
    );
    refused("/no/such/suite.yaml", "4", &out, &[], "/no/such");
    refused(path(&garbage), "4", &out, &[], "garbage.yaml");
    assert!(
        full.join("Keep.java").exists(),
        "nothing written without --force"
    );
    assert!(!Path::new(&out).exists(), "nothing written on bad input");
}

#[test]
fn force_replaces_an_earlier_export_and_keeps_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let suite = fixture("jdk17.yaml");
    let export = |per: &str, force: bool| {
        let mut args = vec!["export", "--suite", path(&suite), "--junit", "5"];
        args.extend(["--out", path(&out), "--tests-per-class", per, "--offline"]);
        if force {
            args.push("--force");
        }
        difftest(&args)
    };
    ok(&export("5", false));
    assert_eq!(classes_in(&out, None, "Regression").len(), 4);
    std::fs::write(out.join("Mine.java"), "class Mine {}").unwrap();
    assert_eq!(export("100", false).status.code(), Some(2));
    ok(&export("100", true));
    assert_eq!(
        classes_in(&out, None, "Regression"),
        vec!["Regression0Test"]
    );
    assert!(out.join("Mine.java").exists());
}

/// A target `fix` on the machine's JDK 17 with the record fixtures on its classpath.
struct Fixtures {
    classes: tempfile::TempDir,
    targets: tempfile::TempDir,
}

impl Fixtures {
    fn new() -> Fixtures {
        let classes = common::compile_fixtures("record");
        let targets = tempfile::tempdir().unwrap();
        let yaml = common::jdk17_target("fix", "record fixtures on JDK 17", classes.path());
        std::fs::write(targets.path().join("fix.yaml"), yaml).unwrap();
        Fixtures { classes, targets }
    }

    fn run(&self, args: &[&str]) -> Output {
        let dir = path(self.targets.path());
        difftest(&[&["--targets-dir", dir][..], args].concat())
    }
}

#[test]
fn error_revealing_tests_fail_by_design_and_regression_tests_pass() {
    let fx = Fixtures::new();
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("fix.yaml");
    let src = dir.path().join("src");
    ok(&fx.run(&[
        "record",
        "--impl",
        "fix",
        "--no-progress",
        "--classes",
        "rec.NotReflexive,rec.Account",
        "--output-limit",
        "200",
        "--reruns",
        "2",
        "--output",
        path(&suite),
    ]));
    let out = fx.run(&[
        "export",
        "--suite",
        path(&suite),
        "--junit",
        "4",
        "--out",
        path(&src),
        "--package",
        "rec.tests",
    ]);
    ok(&out);
    assert!(
        !text(&out).contains("var"),
        "the model of `fix` is used: {}",
        text(&out)
    );
    let code = std::fs::read_to_string(src.join("rec/tests/ErrorRevealing0Test.java")).unwrap();
    assert!(code.contains("FAILS on the reference by design"), "{code}");
    assert!(code.contains("assertTrue(notReflexive"), "{code}");
    let extra = [fx.classes.path().to_path_buf()];
    let compiled = compile(&src, Junit::Four, &extra);
    let java = common::jdk17().join("bin/java");
    let regression = classes_in(&src, Some("rec.tests"), "Regression");
    let passed = junit_on(&java, Junit::Four, &compiled, &extra, &regression);
    let recorded = difftest::suite::Suite::load(&suite).unwrap().tests.len();
    assert_eq!(passed.tests, recorded, "{}", passed.output);
    assert!(passed.failed.is_empty(), "{}", passed.output);
    let errors = classes_in(&src, Some("rec.tests"), "ErrorRevealing");
    let failed = junit_on(&java, Junit::Four, &compiled, &extra, &errors);
    assert!(failed.tests > 0);
    assert_eq!(failed.failed.len(), failed.tests, "{}", failed.output);
}

/// Classes whose behaviour is deterministic and partly changed between 17 and 21 (Unicode,
/// CLDR, break iteration, `Double.toString`).
const CHANGING: &str = "java.lang.Character,java.lang.Character$UnicodeBlock,java.text.DateFormat,\
     java.text.SimpleDateFormat,java.util.Date,java.text.NumberFormat,\
     java.text.DecimalFormatSymbols,java.util.Locale,java.lang.Double,java.text.BreakIterator,\
     java.lang.Math";

#[test]
fn a_recorded_suite_passes_on_17_and_fails_on_21_where_replay_differs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("t17.yaml");
    let src = dir.path().join("src");
    ok(&difftest(&[
        "record",
        "--impl",
        "temurin17",
        "--no-progress",
        "--classes",
        CHANGING,
        "--output-limit",
        "400",
        "--reruns",
        "3",
        "--time-limit",
        "20",
        "--output",
        path(&suite),
    ]));
    ok(&difftest(&[
        "export",
        "--suite",
        path(&suite),
        "--junit",
        "5",
        "--out",
        path(&src),
        "--package",
        "jdk.regression",
    ]));
    let compiled = compile(&src, Junit::Five, &[]);
    let classes = classes_in(&src, Some("jdk.regression"), "Regression");
    let on17 = junit_on(&java_of("temurin17"), Junit::Five, &compiled, &[], &classes);
    assert!(on17.tests >= 390, "{}", on17.output);
    assert!(on17.failed.is_empty(), "{}", on17.output);
    let on21 = junit_on(&java_of("temurin21"), Junit::Five, &compiled, &[], &classes);
    let (differing, unstable) = replay(&suite, "temurin21");
    let failed: BTreeSet<u64> = ids(&on21.failed).difference(&unstable).copied().collect();
    assert!(!differing.is_empty(), "17 and 21 differ on these classes");
    assert_eq!(failed, differing, "{}", on21.output);
}

/// Equal String literals of one test are one object, in the worker as in the exported Java
/// source (literals are interned there), and a String built at run time stays a distinct
/// one: the replay on the reference agrees with the values the source gives, and so does the
/// exported test.
#[test]
fn string_literals_are_one_object_in_the_worker_as_in_java_source() {
    let suite = fixture("identity.yaml");
    let (differing, unstable) = replay(&suite, "temurin17");
    assert_eq!((differing, unstable), (BTreeSet::new(), BTreeSet::new()));
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    export_junit4(&suite, &src);
    let compiled = compile(&src, Junit::Four, &[]);
    let classes = classes_in(&src, None, "Regression");
    let on17 = junit_on(&java_of("temurin17"), Junit::Four, &compiled, &[], &classes);
    assert_eq!(on17.tests, 2, "{}", on17.output);
    assert!(on17.failed.is_empty(), "{}", on17.output);
}
