//! The ecosystem features end to end on real JVMs, around one record of the fixture library
//! (`examples/fixture-lib`, release 1 as a jar) and one replay on release 2 (a
//! `-SNAPSHOT` jar): the README's library gate with `--impl temurin17+JAR` (no target file),
//! the HTML report in a real headless Chromium, the sharded CI recipe (N replay processes,
//! `report --merge`) against an unsharded replay, `targets new`, and `explain`.

mod common;
use common::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use support::{difftest, repo, stderr, stdout};

/// The reference and the target, as a library maintainer writes them.
const REF: &str = "temurin17+lib/mylib-1.0.jar";
const TGT: &str = "temurin17+target/mylib-2.0-SNAPSHOT.jar";
const STEM: &str = "temurin17+mylib-2.0-SNAPSHOT-vs-temurin17+mylib-1.0";
const RUN: [&str; 4] = ["--timeout", "2", "--jobs", "2"];

struct Fixture {
    work: tempfile::TempDir,
    replay_code: Option<i32>,
}

/// Builds the two jars, records on release 1 and replays on release 2, once per binary.
fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let work = tempfile::tempdir().unwrap();
        jar(work.path(), "v1", "lib/mylib-1.0.jar");
        jar(work.path(), "v2", "target/mylib-2.0-SNAPSHOT.jar");
        // The README's library gate: record, then replay.
        let mut record = vec!["record", "--impl", REF, "--packages", "example.lib"];
        record.extend(["--time-limit", "15", "--reruns", "3"]);
        record.extend(["--output-limit", "600", "--seed", "5", "--quiet"]);
        record.extend(RUN);
        let out = difftest(work.path(), &record);
        assert!(out.status.success(), "record: {}", stderr(&out));
        let mut replay = vec!["replay", "--impl", TGT];
        replay.extend(RUN);
        let out = difftest(work.path(), &replay);
        assert!(
            stdout(&out).contains("gate: FAIL"), // not a terminal: no colour
            "{}\n{}",
            stdout(&out),
            stderr(&out)
        );
        Fixture {
            replay_code: out.status.code(),
            work,
        }
    })
}

/// Compiles a release of the fixture library into `dest` (a jar, under `work`).
fn jar(work: &Path, release: &str, dest: &str) {
    let src = repo().join("examples/fixture-lib").join(release);
    let classes = work.join(format!("classes-{release}"));
    let sources: Vec<PathBuf> = ["Calculator.java", "Counter.java"]
        .iter()
        .map(|f| src.join("example/lib").join(f))
        .collect();
    let ok = Command::new(common::javac())
        .args(["--release", "11", "-d"])
        .arg(&classes)
        .args(&sources)
        .status()
        .unwrap()
        .success();
    assert!(ok, "javac {release}");
    let dest = work.join(dest);
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    let ok = Command::new(common::jdk_tool("jar"))
        .arg("cf")
        .arg(&dest)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .status()
        .unwrap()
        .success();
    assert!(ok, "jar {release}");
}

#[test]
fn quick_start_records_and_gates_a_jar_without_a_target_file() {
    let f = fixture();
    assert_eq!(f.replay_code, Some(1), "new differences fail the gate");
    assert!(
        f.work
            .path()
            .join("oracles/temurin17+mylib-1.0.yaml.zst")
            .is_file()
    );
    let reports = f.work.path().join("reports");
    for ext in ["md", "json", "junit.xml", "html"] {
        assert!(reports.join(format!("{STEM}.{ext}")).is_file(), "{ext}");
    }
    let md = std::fs::read_to_string(reports.join(format!("{STEM}.md"))).unwrap();
    for callee in ["Calculator.greet", "Calculator.divide", "legacyName"] {
        assert!(md.contains(callee), "{callee} in the report");
    }
}

#[test]
fn html_report_loads_shows_rows_and_filters_in_headless_chromium() {
    let f = fixture();
    let html = f.work.path().join(format!("reports/{STEM}.html"));
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(
        !text.contains("http://") && !text.contains("https://"),
        "no network"
    );
    assert!(text.contains("<span class=\"inv\" title=\"U+202F\">\\u202F</span>"));
    assert!(text.contains("difftest accept c-") || text.contains("difftest accept g-"));
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("DIFFTEST_REQUIRE_BROWSER").is_none(),
            "DIFFTEST_REQUIRE_BROWSER is set but chromium is not installed"
        );
        eprintln!("skipped: no chromium on PATH (set DIFFTEST_REQUIRE_BROWSER=1 to fail)");
        return;
    };
    let rows = text.matches("<tbody class=\"cause\"").count();
    assert!(rows >= 4, "{rows} causes");
    // Loaded as is: every new cause shown, the script ran.
    let dom = dump_dom(&browser, &html, "");
    assert!(dom.contains("data-ready=\"yes\""), "the script ran");
    assert!(!shown_causes(&dom).is_empty());
    assert!(
        dom.contains(&format!("of {rows} causes shown")),
        "count shown"
    );
    // Filtered by kind through the fragment: only the exception causes stay visible.
    let dom = dump_dom(&browser, &html, "#status=new&kind=exception");
    let shown = shown_causes(&dom);
    assert!(
        !shown.is_empty() && shown.len() < rows,
        "{shown:?} of {rows}"
    );
    assert!(shown.iter().all(|k| k == "exception"), "{shown:?}");
    // No status checked: nothing shown.
    let dom = dump_dom(&browser, &html, "#status=");
    assert!(shown_causes(&dom).is_empty());
    assert!(dom.contains(&format!("0 of {rows} causes shown")));
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// The DOM after the page's script ran, from `chromium --headless --dump-dom`.
fn dump_dom(browser: &Path, html: &Path, fragment: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
        ])
        .args(["--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", html.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium: {}", stderr(&out));
    stdout(&out)
}

/// The kinds (`data-kind`) of the cause bodies not hidden in a dumped DOM.
fn shown_causes(dom: &str) -> Vec<String> {
    dom.split("<tbody class=\"cause\"")
        .skip(1)
        .map(|b| &b[..b.find('>').unwrap()])
        .filter(|attrs| !attrs.contains("hidden"))
        .map(|attrs| {
            let k = attrs.split("data-kind=\"").nth(1).unwrap();
            k[..k.find('"').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn sharded_replay_merged_equals_the_unsharded_replay() {
    let f = fixture();
    let work = f.work.path();
    // The CI recipe (examples/ci): N jobs with --shard K/N, each its own report folder…
    let n = 3;
    let children: Vec<_> = (1..=n)
        .map(|k| {
            Command::new(env!("CARGO_BIN_EXE_difftest"))
                .current_dir(work)
                .args(["replay", "--impl", TGT, "--quiet", "--timeout", "2"])
                .arg("--targets-dir")
                .arg(repo().join("targets"))
                .args(["--jobs", "1", "--shard", &format!("{k}/{n}")])
                .arg("--report-dir")
                .arg(format!("parts/{k}"))
                .output()
                .expect("replay starts")
        })
        .collect();
    for (k, out) in children.iter().enumerate() {
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "shard {k}: {}",
            stderr(out)
        );
    }
    // …then one merge job over the uploaded parts.
    let mut merge = vec!["report".to_string(), "--merge".to_string()];
    merge.extend((1..=n).map(|k| format!("parts/{k}/{STEM}.json")));
    merge.extend([
        "--report-dir".into(),
        "merged".into(),
        "--color".into(),
        "always".into(),
    ]);
    let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
    let out = difftest(work, &merge);
    assert_eq!(out.status.code(), f.replay_code, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("gate: \x1b[1;31mFAIL\x1b[0m"),
        "--color always"
    );
    let merged = comparable(&work.join(format!("merged/{STEM}.json")));
    let whole = comparable(&work.join(format!("reports/{STEM}.json")));
    assert_eq!(merged, whole);
}

/// A report's results without what depends on timing or sharding.
fn comparable(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let o = v.as_object_mut().unwrap();
    for key in ["shards", "stats", "checksum", "options", "notes"] {
        o.remove(key);
    }
    o["summary"].as_object_mut().unwrap().remove("seconds");
    for g in o["groups"].as_array_mut().unwrap() {
        // The minimizer's candidates run on other workers; the example it starts from is
        // the same (the shortest affected test), so only the runs tried may differ.
        if let Some(m) = g.get_mut("minimized").and_then(|m| m.as_object_mut()) {
            m.remove("runs");
        }
    }
    v
}

#[test]
fn explain_shows_a_cause_and_reruns_it_on_both_targets() {
    let f = fixture();
    let json = f.work.path().join(format!("reports/{STEM}.json"));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let greet = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["callee"].as_str().unwrap().contains("greet"))
        .expect("a greet group");
    let cause = greet["cause"].as_str().unwrap();
    let out = difftest(f.work.path(), &["explain", cause, "--timeout", "2"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("greet"), "{text}");
    assert!(text.contains("// REF: "), "the Java is annotated: {text}");
    // The rerun: the reference still answers as recorded, the target does not.
    assert!(
        text.contains(&format!("  {REF}: ")) && text.contains("(as recorded on the reference)"),
        "{text}"
    );
    assert!(
        text.contains(&format!("  {TGT}: \"Hello,\\u202F")),
        "{text}"
    );
    assert!(text.contains("(differs from the recording)"), "{text}");
    let out = difftest(f.work.path(), &["explain", "g-000000", "--no-rerun"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no report in reports has a group or cause g-000000"));
}

#[test]
fn targets_new_writes_a_target_that_runs_and_refuses_to_overwrite() {
    let f = fixture();
    let targets = f.work.path().join("my-targets");
    std::fs::create_dir_all(&targets).unwrap();
    std::fs::copy(
        repo().join("targets/temurin17.yaml"),
        targets.join("temurin17.yaml"),
    )
    .unwrap();
    let dir = targets.to_str().unwrap();
    let new = [
        "targets",
        "new",
        "mylib",
        "--jdk",
        "temurin17",
        "--jar",
        "lib/mylib-1.0.jar",
        "--jvm-option=-Xmx300m",
        "--targets-dir",
        dir,
    ];
    let out = difftest(f.work.path(), &new);
    assert!(out.status.success(), "{}", stderr(&out));
    let yaml = std::fs::read_to_string(targets.join("mylib.yaml")).unwrap();
    assert!(yaml.contains("path: ../lib/mylib-1.0.jar"), "{yaml}");
    let check = [
        "targets",
        "check",
        "mylib",
        "--classes",
        "example.lib.Calculator",
    ];
    let out = difftest(
        f.work.path(),
        &[&check[..], &["--targets-dir", dir, "-v"]].concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1 public classes"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("mylib-1.0.jar"),
        "-v shows the classpath"
    );
    let out = difftest(f.work.path(), &new);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("already exists; pass --force"));
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn the_maven_recipe_fails_the_build_on_a_new_difference() {
    let f = fixture();
    let project = f.work.path();
    std::fs::copy(
        repo().join("examples/maven/pom.xml"),
        project.join("pom.xml"),
    )
    .unwrap();
    let out = Command::new("mvn")
        .current_dir(project)
        .args(["-B", "-q", "verify"])
        .arg(format!("-Ddifftest.bin={}", env!("CARGO_BIN_EXE_difftest")))
        .arg("-Ddifftest.jar=target/mylib-2.0-SNAPSHOT.jar")
        .arg("-Ddifftest.timeout=2")
        .env("DIFFTEST_TARGETS", repo().join("targets"))
        .output()
        .expect("mvn runs");
    let log = format!("{}{}", stdout(&out), stderr(&out));
    assert!(!out.status.success(), "the gate fails the build: {log}");
    assert!(log.contains("gate: FAIL"), "{log}");
    let html = project.join(format!("target/difftest-reports/{STEM}.html"));
    assert!(html.is_file(), "{log}");
}

#[test]
fn a_summary_across_pairs_lists_each_pair_and_flags_a_missing_one() {
    let f = fixture();
    let work = f.work.path();
    // Pair 1: release 1 against release 2 (the fixture's replay, FAIL). Pair 2: release 1
    // against itself (PASS), replayed into its own folder as a matrix job would.
    let out = difftest(
        work,
        &[
            "replay",
            "--impl",
            REF,
            "--quiet",
            "--report-dir",
            "pairs/same",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let same = "temurin17+mylib-1.0-vs-temurin17+mylib-1.0";
    let failing = format!("reports/{STEM}.json");
    let passing = format!("pairs/same/{same}.json");
    let summary = |expect: &str| {
        let mut args = vec!["report", "--summary", &failing, &passing];
        args.extend(["--report-dir", "summary", "--expect", expect]);
        difftest(work, &args)
    };
    let out = summary("2");
    assert_eq!(out.status.code(), Some(1), "a pair fails: {}", stderr(&out));
    let md = std::fs::read_to_string(work.join("summary/summary.md")).unwrap();
    assert!(md.contains("2 pairs, verdict FAIL"), "{md}");
    assert!(md.contains(&format!("[{TGT} vs {REF}](")), "{md}");
    assert!(md.contains("| PASS |") && md.contains("| FAIL |"), "{md}");
    let html = std::fs::read_to_string(work.join("summary/index.html")).unwrap();
    assert!(
        html.contains(&format!("href=\"../reports/{STEM}.html\"")),
        "{html}"
    );
    // A third pair's job died: the summary says so and the exit is infrastructure.
    let out = summary("3");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let md = std::fs::read_to_string(work.join("summary/summary.md")).unwrap();
    assert!(md.contains("verdict INCOMPLETE"), "{md}");
    assert!(md.contains("1 expected pair sent no report"), "{md}");
}
