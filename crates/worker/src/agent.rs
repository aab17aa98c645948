//! The Java side of the worker: the `difftest.Agent` classes (sources in `java/difftest/`),
//! compiled by `build.rs` with `javac --release 11` and embedded in the binary.
//!
//! [`install`] writes them to a directory that then goes on the embedded JVM's class path.
//! The worker calls the agent's static methods through JNI on class `difftest/Agent`, each
//! `(Ljava/lang/String;)Ljava/lang/String;` except `ping()`:
//!
//! - `ping()` → `"pong"`;
//! - `properties(names)` → `{"java.version":"…"}` for the `\n`-separated property names set;
//! - `describe(request)` → `{"classes":{name: ApiClass},"unknown":[line]}` for `class NAME` /
//!   `package NAME` lines (see [`crate::model::ApiClass`]);
//! - `constants(request)` → `{"NAME":["S…","I…","J…","F…","D…"]}`: the String, int, long,
//!   float and double constants of each `\n`-separated class's constant pool, each a type
//!   letter and the value as Java renders it (Strings escaped);
//! - `coverage(_)` → a JaCoCo agent's execution data as hex, or `!reason` without one;
//! - `run(encoded)` → a [`crate::sequence::SeqResult::Done`] for one encoded sequence. It
//!   throws `IllegalArgumentException` only for input the encoder cannot have produced.
//!
//! All results are ASCII JSON whose strings are escaped like [`crate::sequence::escape`], so
//! JNI's modified UTF-8 never matters.

use std::fs;
use std::io;
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/agent_classes.rs"));

/// Writes every agent class file under `dir`, creating subdirectories. Files already holding
/// the right bytes are left alone; others are replaced atomically, so workers sharing `dir`
/// never see a partial class file.
pub fn install(dir: &Path) -> io::Result<()> {
    for (name, bytes) in AGENT_CLASSES {
        let path = dir.join(name);
        if fs::read(&path).is_ok_and(|old| old == *bytes) {
            continue;
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        crate::atomic::write(&path, bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_writes_every_class_file() {
        assert!(
            AGENT_CLASSES
                .iter()
                .any(|(name, _)| *name == "difftest/Agent.class")
        );
        let dir = tempfile::tempdir().unwrap();
        install(dir.path()).unwrap();
        install(dir.path()).unwrap();
        for (name, bytes) in AGENT_CLASSES {
            assert_eq!(fs::read(dir.path().join(name)).unwrap(), *bytes, "{name}");
        }
    }
}
