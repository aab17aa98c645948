//! What a worker needs to start a target's JVM, as the supervisor sends it in the `Hello`
//! message: the JDK, libjvm, options, class path and environment ([`JvmSpec`]), and for an
//! Espresso target the host side of its runtime ([`EspressoRuntime`]). The supervisor's
//! `targets` module fills them in; the worker only reads them.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Everything a worker needs to start a target's JVM.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct JvmSpec {
    pub java_home: PathBuf,
    /// Absolute path of the libjvm to load (`JavaVM::with_libjvm`).
    pub libjvm: PathBuf,
    /// Defaults (`targets::options::DEFAULT_JVM_OPTIONS`) then the target's; validated. Does
    /// not include the class path: see [`JvmSpec::class_path_option`].
    pub options: Vec<String>,
    /// Absolute jar and folder paths.
    pub classpath: Vec<PathBuf>,
    /// Variables to set in the worker's environment (`targets::options::DEFAULT_ENV` merged
    /// with the target's).
    pub env: BTreeMap<String, String>,
    /// Set for Espresso targets: the JVM above is only the host, and `classpath` is the
    /// guest's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub espresso: Option<EspressoRuntime>,
    /// Milliseconds the worker moves its JVM's wall clock by (record's reruns: values that
    /// depend on the date change and are dropped); 0 leaves it alone.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub clock_shift_ms: i64,
    /// How many times faster than real time the worker's wall clock runs from its start
    /// (record's reruns: values that depend on how much time passed between two calls
    /// change and are dropped); 0 or 1 leaves its pace alone.
    #[serde(default, skip_serializing_if = "is_real_time")]
    pub clock_rate: u32,
    /// The target's `timeout:`, which the pool uses unless `--timeout` was given (the
    /// supervisor's business: not sent to the worker).
    #[serde(skip)]
    pub timeout: Option<std::time::Duration>,
}

impl JvmSpec {
    /// `-Djava.class.path=a.jar:b.jar`, or `None` when the classpath is empty.
    pub fn class_path_option(&self) -> Option<String> {
        if self.classpath.is_empty() {
            return None;
        }
        let joined = std::env::join_paths(&self.classpath).ok()?;
        Some(format!("-Djava.class.path={}", joined.to_string_lossy()))
    }
}

/// Host JVM options an Espresso worker needs, whatever the target adds.
pub const HOST_OPTIONS: &[&str] = &["--enable-native-access=ALL-UNNAMED"];

/// What a worker needs, beyond the host JVM, to start an Espresso context.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct EspressoRuntime {
    /// The guest's class library (`java.JavaHome`).
    pub guest_home: PathBuf,
    /// The host class path: polyglot, Espresso, Truffle and their dependencies.
    pub jars: Vec<PathBuf>,
    /// `-Dpolyglot.engine.userResourceCache`, already unpacked.
    pub resource_cache: PathBuf,
}

impl EspressoRuntime {
    /// The host's own options for this runtime.
    pub fn host_options(&self) -> Vec<String> {
        let mut options: Vec<String> = HOST_OPTIONS.iter().map(|s| s.to_string()).collect();
        options.push(format!(
            "-Dpolyglot.engine.userResourceCache={}",
            self.resource_cache.display()
        ));
        options
    }
}

fn is_real_time(rate: &u32) -> bool {
    *rate <= 1
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}
