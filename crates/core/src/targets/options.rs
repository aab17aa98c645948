//! JVM options and environment: the defaults every target starts from, and the validation
//! that rejects, before any JVM sees them, options that would break an embedded JVM.
//!
//! The worker starts its JVM with `JNI_CreateJavaVM`, not with the `java` launcher, so
//! launcher-only options (`-jar`, `-cp`, `-version`, `--add-opens VALUE` in two words, …)
//! are errors there, and some bad options make the JVM call `exit(1)` from inside the worker.

use std::collections::BTreeMap;

/// The options every target's JVM gets, before the target's own `jvm_options`:
///
/// | option | why |
/// |---|---|
/// | `-Xrs` | the worker, not the JVM, handles SIGINT/SIGTERM/SIGHUP/SIGQUIT |
/// | `-XX:+UseSerialGC` | one GC thread, smallest footprint, same on every JDK |
/// | `-XX:TieredStopAtLevel=1` | C1 only: short runs start and warm up faster |
/// | `-Xmx256m` | many workers fit on one machine; a runaway sequence fails fast |
/// | `-Xms16m` | the heap grows on demand: a worker's RSS stays small until it needs more |
/// | `-XX:ReservedCodeCacheSize=32m` | C1 code of a short-lived worker fits easily |
/// | `-XX:-CreateCoredumpOnCrash` | a crashing worker leaves its report on stderr, no core file |
/// | `-Xss8m` | deep recursion in generated code overflows in Java, not in Rust |
/// | `-Duser.timezone=UTC` | dates render the same everywhere |
/// | `-Duser.language=en -Duser.country=US` | default locale fixed |
/// | `-Dfile.encoding=UTF-8` | default charset fixed (the default from 18 on, not before) |
/// | `-Djava.awt.headless=true` | AWT classes never look for a display |
///
/// A target's option of the same kind comes later and so wins (`-Xss4m` overrides `-Xss8m`).
pub(crate) const DEFAULT_JVM_OPTIONS: &[&str] = &[
    "-Xrs",
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-Xmx256m",
    "-Xms16m",
    "-XX:ReservedCodeCacheSize=32m",
    "-XX:-CreateCoredumpOnCrash",
    "-Xss8m",
    "-Duser.timezone=UTC",
    "-Duser.language=en",
    "-Duser.country=US",
    "-Dfile.encoding=UTF-8",
    "-Djava.awt.headless=true",
];

/// Environment variables every worker gets; a target's `env:` is merged over them.
pub(crate) const DEFAULT_ENV: &[(&str, &str)] =
    &[("TZ", "UTC"), ("LANG", "C.UTF-8"), ("LC_ALL", "C.UTF-8")];

/// The defaults followed by the target's options.
pub(crate) fn full_options(target_options: &[String]) -> Vec<String> {
    DEFAULT_JVM_OPTIONS
        .iter()
        .map(|s| s.to_string())
        .chain(target_options.iter().cloned())
        .collect()
}

/// The default environment with the target's variables merged over it.
pub(crate) fn full_env(target_env: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut env: BTreeMap<String, String> = DEFAULT_ENV
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    env.extend(target_env.iter().map(|(k, v)| (k.clone(), v.clone())));
    env
}

/// Options taken whole that only the `java` launcher understands or that end the JVM at once.
const REJECTED_EXACT: &[(&str, &str)] = &[
    (
        "-jar",
        "difftest loads classes itself; put jars in `classpath:`",
    ),
    ("-cp", "put jars and folders in `classpath:`"),
    ("-classpath", "put jars and folders in `classpath:`"),
    ("--class-path", "put jars and folders in `classpath:`"),
    ("-version", "it makes the JVM print its version and exit"),
    ("--version", "it makes the JVM print its version and exit"),
    (
        "-showversion",
        "a launcher option; the fingerprint already records the version",
    ),
    (
        "--show-version",
        "a launcher option; the fingerprint already records the version",
    ),
    (
        "-fullversion",
        "it makes the JVM print its version and exit",
    ),
    (
        "--full-version",
        "it makes the JVM print its version and exit",
    ),
    ("-help", "it makes the JVM print help and exit"),
    ("--help", "it makes the JVM print help and exit"),
    ("-h", "it makes the JVM print help and exit"),
    ("-?", "it makes the JVM print help and exit"),
    ("-X", "it makes the JVM print help and exit"),
    ("--help-extra", "it makes the JVM print help and exit"),
    ("-server", "choose the VM with `jdk: libjvm:` instead"),
    ("-client", "choose the VM with `jdk: libjvm:` instead"),
    (
        "-zero",
        "choose the VM with `jdk: libjvm: lib/zero/libjvm.so` instead",
    ),
    ("-d32", "not supported by an embedded JVM"),
    ("-d64", "not supported by an embedded JVM"),
    ("--dry-run", "a launcher option"),
    ("--list-modules", "it makes the JVM list modules and exit"),
    (
        "--validate-modules",
        "it makes the JVM validate modules and exit",
    ),
    (
        "-Xinternalversion",
        "it makes the JVM print its version and exit",
    ),
    (
        "-Xshare:dump",
        "it makes the JVM dump a CDS archive and exit",
    ),
    (
        "-m",
        "difftest is the main program; put modules in `classpath:` as jars",
    ),
    ("-d", "it makes the JVM describe a module and exit"),
];

/// Option prefixes that are rejected, with the reason.
const REJECTED_PREFIX: &[(&str, &str)] = &[
    ("-Djava.class.path=", "put jars and folders in `classpath:`"),
    ("--class-path=", "put jars and folders in `classpath:`"),
    (
        "-XshowSettings",
        "a launcher option that prints and may exit",
    ),
    ("-XXaltjvm", "choose the VM with `jdk: libjvm:` instead"),
    ("-J", "a launcher option"),
    ("-splash:", "a launcher option"),
    ("--source", "a launcher option"),
    ("--module=", "difftest is the main program"),
    (
        "--describe-module",
        "it makes the JVM describe a module and exit",
    ),
];

/// Launcher options that take their value as the next word; the JVM only accepts `--opt=value`.
const NEEDS_EQUALS: &[&str] = &[
    "--add-opens",
    "--add-exports",
    "--add-reads",
    "--add-modules",
    "--module-path",
    "-p",
    "--upgrade-module-path",
    "--patch-module",
    "--limit-modules",
    "--enable-native-access",
    "--illegal-access",
    "--module",
];

/// Checks one option. `Err` holds the reason, worded to follow "option `X` is not allowed: ".
pub(crate) fn check_option(option: &str) -> Result<(), String> {
    if option.contains('\0') {
        return Err("it contains a NUL character".into());
    }
    if !option.starts_with('-') {
        return Err("JVM options start with `-` (argument files `@file` are not supported)".into());
    }
    if option.trim() != option {
        return Err("it has leading or trailing white space".into());
    }
    if option == "-" {
        return Err("it is empty".into());
    }
    if let Some((_, why)) = REJECTED_EXACT.iter().find(|(o, _)| *o == option) {
        return Err((*why).into());
    }
    if NEEDS_EQUALS.contains(&option) {
        return Err(format!(
            "an embedded JVM needs the value in the same word: `{option}=VALUE`"
        ));
    }
    if let Some((_, why)) = REJECTED_PREFIX.iter().find(|(p, _)| option.starts_with(p)) {
        return Err((*why).into());
    }
    Ok(())
}

/// Checks an environment variable name: non-empty, no `=`, no NUL.
pub(crate) fn check_env_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains('=') || name.contains('\0') {
        return Err(format!("invalid environment variable name {name:?}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_pass_their_own_validation() {
        for o in DEFAULT_JVM_OPTIONS {
            assert_eq!(check_option(o), Ok(()), "{o}");
        }
    }

    #[test]
    fn ordinary_options_are_accepted() {
        for o in [
            "-Xss4m",
            "-Xcheck:jni",
            "-XX:+UseG1GC",
            "-Dfoo=a b",
            "-ea",
            "-Xshare:auto",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "-Djdk.reflect.useDirectMethodHandle=false",
            "-javaagent:/x.jar",
            "-verbose:gc",
        ] {
            assert_eq!(check_option(o), Ok(()), "{o}");
        }
    }

    #[test]
    fn embedding_breakers_are_rejected_with_a_reason() {
        for o in [
            "-jar",
            "-cp",
            "-classpath",
            "--class-path",
            "-version",
            "-help",
            "-X",
            "-?",
            "Xss4m",
            "@args",
            "-Xss4m ",
            "-Djava.class.path=/x",
            "-Xshare:dump",
            "--add-opens",
            "-XshowSettings:all",
            "-m",
            "-Jfoo",
            "-",
            "-zero",
            "a\0b",
        ] {
            let err = check_option(o);
            assert!(err.is_err(), "{o} should be rejected");
            assert!(!err.unwrap_err().is_empty());
        }
    }

    #[test]
    fn target_options_come_after_defaults_and_env_merges() {
        let opts = full_options(&["-Xss4m".to_string()]);
        assert_eq!(opts.first().map(String::as_str), Some("-Xrs"));
        assert_eq!(opts.last().map(String::as_str), Some("-Xss4m"));
        let mut env = BTreeMap::new();
        env.insert("TZ".to_string(), "Europe/Paris".to_string());
        env.insert("FOO".to_string(), "1".to_string());
        let merged = full_env(&env);
        assert_eq!(merged["TZ"], "Europe/Paris");
        assert_eq!(merged["LANG"], "C.UTF-8");
        assert_eq!(merged["FOO"], "1");
    }
}
