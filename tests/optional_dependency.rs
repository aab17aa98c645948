//! A library's optional dependencies are on its classpath, as in its own build: a fixture
//! library (served from a file repository the test writes, through a `settings.xml` mvn
//! reads) whose POM declares, at a version given by a property, an optional dependency its
//! public API calls. Given by coordinates alone, `targets check` lists the dependency as
//! optional, record runs (no class path fault) and the suite header names it; a target file
//! with `optional_dependencies: false` leaves it out, and record then stops with exit 3
//! naming the missing class.

mod common;
use common::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{assert_exit, difftest_env, stderr, stdout};

const GROUP: &str = "org.example.difftest.optional";
const LIB: &str = "org.example.difftest.optional:optlib:1.0";

/// Compiles the sources under `src` (against `dep`) into the jar `out`.
fn jar(work: &Path, src: &Path, dep: Option<&Path>, out: &Path) {
    let classes = work.join(format!(
        "classes-{}",
        out.file_name().unwrap().to_string_lossy()
    ));
    let mut javac = Command::new(common::javac());
    javac.args(["--release", "11", "-d"]).arg(&classes);
    if let Some(dep) = dep {
        javac.arg("-cp").arg(dep);
    }
    let package = std::fs::read_dir(src)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut sources = Vec::new();
    let mut stack = vec![package];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            match path.is_dir() {
                true => stack.push(path),
                false => sources.push(path),
            }
        }
    }
    assert!(
        javac.args(&sources).status().unwrap().success(),
        "{src:?} compiles"
    );
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let status = Command::new(common::jdk_tool("jar"))
        .arg("cf")
        .arg(out)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .status()
        .unwrap();
    assert!(status.success(), "{out:?} packs");
}

/// Writes `artifact`'s jar (from `src`) and `pom` (its `<dependencies>` and `<properties>`)
/// into the file repository `repo`; returns the jar.
fn publish(
    work: &Path,
    repo: &Path,
    artifact: &str,
    src: &str,
    dep: Option<&Path>,
    body: &str,
) -> PathBuf {
    let dir = repo
        .join(GROUP.replace('.', "/"))
        .join(artifact)
        .join("1.0");
    let file = dir.join(format!("{artifact}-1.0.jar"));
    let fixtures = support::repo().join("tests/fixtures/optional");
    jar(work, &fixtures.join(src), dep, &file);
    let pom = format!(
        "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>\
         <groupId>{GROUP}</groupId><artifactId>{artifact}</artifactId><version>1.0</version>{body}</project>\n"
    );
    std::fs::write(dir.join(format!("{artifact}-1.0.pom")), pom).unwrap();
    file
}

/// The file repository, a `settings.xml` that serves it (mvn's local repository stays the
/// user's, where its plugins are), and two base targets on the test's JDK: `jdk17` and
/// `jdk17-plain` (`optional_dependencies: false`). Returns the folder `user.home` points to.
fn setup(work: &Path) -> PathBuf {
    let repo = work.join("repo");
    let dep = publish(work, &repo, "optdep", "dep", None, "");
    let optional = format!(
        "<properties><optdep.version>1.0</optdep.version></properties><dependencies><dependency>\
         <groupId>{GROUP}</groupId><artifactId>optdep</artifactId><version>${{optdep.version}}</version>\
         <optional>true</optional></dependency></dependencies>"
    );
    publish(work, &repo, "optlib", "lib", Some(&dep), &optional);
    let local = Path::new(&std::env::var("HOME").unwrap()).join(".m2/repository");
    // What an earlier run downloaded from another temporary repository goes: fetched afresh.
    let _ = std::fs::remove_dir_all(local.join(GROUP.replace('.', "/")));
    let home = work.join("home");
    std::fs::create_dir_all(home.join(".m2")).unwrap();
    let settings = format!(
        "<settings><localRepository>{}</localRepository><profiles><profile><id>fixture</id>\
         <repositories><repository><id>difftest-optional-fixture</id><url>file://{}</url></repository></repositories>\
         </profile></profiles><activeProfiles><activeProfile>fixture</activeProfile></activeProfiles></settings>\n",
        local.display(),
        repo.display()
    );
    std::fs::write(home.join(".m2/settings.xml"), settings).unwrap();
    let targets = work.join("targets");
    std::fs::create_dir_all(&targets).unwrap();
    let jdk = format!("jdk:\n  path: {}\n", common::jdk17().display());
    std::fs::write(targets.join("jdk17.yaml"), format!("name: jdk17\n{jdk}")).unwrap();
    let plain = format!("name: jdk17-plain\n{jdk}optional_dependencies: false\n");
    std::fs::write(targets.join("jdk17-plain.yaml"), plain).unwrap();
    home
}

/// `difftest ARGS` with the test's targets, cache and mvn settings.
fn run(work: &Path, home: &Path, args: &[&str]) -> std::process::Output {
    let (targets, cache) = (work.join("targets"), work.join("cache"));
    let mut all = args.to_vec();
    all.extend(["--targets-dir", targets.to_str().unwrap()]);
    let maven_opts = format!("-Duser.home={}", home.display());
    let env = [
        ("DIFFTEST_CACHE", cache.to_str().unwrap()),
        ("MAVEN_OPTS", maven_opts.as_str()),
    ];
    difftest_env(work, &all, &env)
}

fn record(work: &Path, home: &Path, base: &str, out: &str) -> std::process::Output {
    let target = format!("{base}+{LIB}");
    let args = [
        "record",
        "--impl",
        &target,
        "--time-limit",
        "10",
        "--output-limit",
        "100",
    ];
    let rest = ["--seed", "1", "--no-progress", "--jobs", "1", "-o", out];
    run(work, home, &[&args[..], &rest[..]].concat())
}

#[test]
fn a_librarys_optional_dependency_is_on_its_classpath_unless_turned_off() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let home = setup(work);

    let check = run(work, &home, &["targets", "check", &format!("jdk17+{LIB}")]);
    assert_exit(&check, 0);
    let text = stdout(&check);
    assert!(text.contains(&format!("classpath:   {LIB}\n")), "{text}");
    assert!(
        text.contains(&format!("{GROUP}:optdep:1.0 (optional dependency)")),
        "the optional dependency, at the version of the property: {text}"
    );

    let out = record(work, &home, "jdk17", "with.yaml");
    assert_exit(&out, 0);
    let suite = std::fs::read_to_string(work.join("with.yaml")).unwrap();
    assert!(
        suite.contains(&format!("{GROUP}:optdep:1.0")),
        "the header names it: {suite}"
    );
    assert!(suite.contains("optional: true"), "{suite}");
    assert!(
        suite.contains("Greeter.greet(") && suite.contains("// \"hello "),
        "greet ran with the dependency: {suite}"
    );

    let out = record(work, &home, "jdk17-plain", "without.yaml");
    assert_exit(&out, 3);
    let err = stderr(&out);
    assert!(err.contains("org.example.optdep.Shouter"), "{err}");
    assert!(!work.join("without.yaml").exists());
}
