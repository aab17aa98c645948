//! Build script: compiles the Java agent (`java/**/*.java`) with `javac --release 11` and
//! generates `$OUT_DIR/agent_classes.rs`, which embeds every produced class file in the binary
//! (see `src/agent.rs`).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=java");
    println!("cargo:rerun-if-env-changed=JAVA_HOME");
    let root =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let classes = out.join("agent-classes");
    compile(&root.join("java"), &classes);
    let code = embedding(&classes);
    fs::write(out.join("agent_classes.rs"), code).expect("cannot write agent_classes.rs");
}

/// Compiles every `.java` file under `sources` into a fresh `classes` directory.
fn compile(sources: &Path, classes: &Path) {
    let mut files = Vec::new();
    collect(sources, "java", &mut files);
    files.sort();
    assert!(
        !files.is_empty(),
        "no Java sources under {}",
        sources.display()
    );
    let _ = fs::remove_dir_all(classes);
    fs::create_dir_all(classes).expect("cannot create the agent class directory");
    let javac = find_javac();
    let output = Command::new(&javac)
        .args([
            "--release",
            "11",
            "-encoding",
            "UTF-8",
            "-g",
            "-Xlint:all,-options",
            "-d",
        ])
        .arg(classes)
        .args(&files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", javac.display()));
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        panic!("javac failed compiling the Java agent:\n{stderr}");
    }
    for line in stderr.lines() {
        println!("cargo:warning=javac: {line}");
    }
}

/// `$JAVA_HOME/bin/javac` if it exists, else `javac` from `PATH`.
fn find_javac() -> PathBuf {
    let exe = if cfg!(windows) { "javac.exe" } else { "javac" };
    let from_home = env::var_os("JAVA_HOME").map(|home| PathBuf::from(home).join("bin").join(exe));
    let from_path = env::var_os("PATH").and_then(|path| {
        env::split_paths(&path)
            .map(|dir| dir.join(exe))
            .find(|p| p.is_file())
    });
    from_home.filter(|p| p.is_file()).or(from_path).unwrap_or_else(|| {
        panic!(
            "javac not found: building difftest compiles its Java agent (crates/worker/java/difftest/*.java), \
             which needs a JDK 11 or newer. Set JAVA_HOME to a JDK or put javac on PATH."
        )
    })
}

/// The source of `AGENT_CLASSES`: every class file under `classes`, sorted by path.
fn embedding(classes: &Path) -> String {
    let mut files = Vec::new();
    collect(classes, "class", &mut files);
    files.sort();
    let mut code = String::from(
        "/// Every class file of the Java agent: (path relative to the class path root, bytes).\n\
         pub static AGENT_CLASSES: &[(&str, &[u8])] = &[\n",
    );
    for file in files {
        let relative: Vec<String> = file
            .strip_prefix(classes)
            .expect("class file under the class directory")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let absolute = file.display().to_string();
        code.push_str(&format!(
            "    ({:?}, include_bytes!({absolute:?})),\n",
            relative.join("/")
        ));
    }
    code.push_str("];\n");
    code
}

/// Appends every file under `dir` (recursively) whose extension is `ext`.
fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let entries =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("readable directory entry").path();
        if path.is_dir() {
            collect(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}
