//! Configuration keys: the property names of the reference JDK's own configuration files
//! (`conf/security/java.security`, `conf/**/*.properties`), those set and those shown
//! commented out as documented settings. A JDK reads its defaults through key → value
//! lookups (`Security.getProperty(key)`), and a random String never names a key, so without
//! these a lookup only ever answers `null`. Every static call in scope that takes one String
//! and returns a String gets each key once (`sweep::at_start`); what it answers then
//! differs between implementations as their defaults do.
//!
//! Keys are read from the files, never written into difftest: a JDK that adds a key to its
//! files adds it to the sweep. Only dotted names of letters, digits, `_` and `-` count
//! (`jdk.tls.disabledAlgorithms`), so the prose of a file's comments is not taken for keys.

use std::collections::BTreeSet;
use std::path::Path;

/// Most keys kept, in name order.
pub(crate) const MAX_KEYS: usize = 1000;
/// Largest configuration file read; a larger one is skipped.
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Folders below `conf` searched at most.
const MAX_DEPTH: usize = 4;
/// Longest key kept (as the mined Strings, [`super::mined::MAX_STRING_UNITS`]).
const MAX_KEY_LEN: usize = super::mined::MAX_STRING_UNITS;

/// The keys of the configuration files under `java_home/conf`, sorted and deduplicated;
/// none when there is no such folder. Unreadable files and folders are skipped: the keys
/// are inputs, and a missing one only means fewer lookups.
pub(crate) fn read(java_home: &Path) -> Vec<String> {
    let mut keys = BTreeSet::new();
    collect(&java_home.join("conf"), 0, &mut keys);
    keys.into_iter().take(MAX_KEYS).collect()
}

fn collect(dir: &Path, depth: usize, keys: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        // Followed: a distribution's JDK links its settings in from /etc. A folder link
        // that loops ends at the depth bound; a FIFO or device is not a file, so never read.
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() && depth < MAX_DEPTH {
            collect(&path, depth + 1, keys);
        } else if meta.is_file()
            && meta.len() <= MAX_FILE_BYTES
            && is_config_file(&path)
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            keys.extend(keys_of(&text).map(str::to_string));
        }
    }
}

/// Whether a file holds `key=value` settings: Java properties files and `java.security`.
fn is_config_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".properties") || name == "java.security"
}

/// The keys a properties text sets, or shows commented out (`#jdk.tls.keyLimits=…`).
fn keys_of(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| {
        let line = line
            .trim_start()
            .trim_start_matches(['#', '!'])
            .trim_start();
        let end = line.find(['=', ':', ' ', '\t']).unwrap_or(line.len());
        let (key, rest) = line.split_at(end);
        let sets = rest.trim_start().starts_with(['=', ':']);
        (sets && is_key(key)).then_some(key)
    })
}

/// A dotted name: starts with a letter, holds only ASCII letters, digits, `.`, `_` and `-`,
/// and at least one `.` between two other characters.
fn is_key(key: &str) -> bool {
    let ok_chars = key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    let dotted = key.trim_matches('.').contains('.') && !key.ends_with('.');
    key.len() <= MAX_KEY_LEN
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && ok_chars
        && dotted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_commented_keys_count_and_prose_does_not() {
        let text = "\
# Note: this file is read at start-up.
# e.g. the list below
jdk.tls.disabledAlgorithms=SSLv3, TLSv1, \\
    RC4
#jdk.tls.keyLimits=AES/GCM/NoPadding KeyUpdate 2^37
! handlers: java.util.logging.ConsoleHandler
.level= INFO
security.provider.1=SUN
  policy.url.2 : file:${user.home}/.java.policy
keystore.type
x=1
";
        let keys: Vec<&str> = keys_of(text).collect();
        assert_eq!(
            keys,
            [
                "jdk.tls.disabledAlgorithms",
                "jdk.tls.keyLimits",
                "security.provider.1",
                "policy.url.2"
            ]
        );
    }

    #[test]
    fn keys_are_dotted_ascii_names_of_bounded_length() {
        assert!(is_key("jdk.xml.maxXMLNameLimit"));
        assert!(is_key("java.util.logging.ConsoleHandler.level"));
        assert!(!is_key("handlers"));
        assert!(!is_key(".level"));
        assert!(!is_key("a."));
        assert!(!is_key("1.2"));
        assert!(!is_key("jdk.tls.\u{e9}"));
        assert!(!is_key(&format!("a.{}", "b".repeat(MAX_KEY_LEN))));
    }

    #[test]
    fn reads_the_conf_tree_sorted_and_skips_what_is_not_configuration() {
        let home = tempfile::tempdir().unwrap();
        let conf = home.path().join("conf");
        std::fs::create_dir_all(conf.join("security")).unwrap();
        std::fs::write(conf.join("security/java.security"), "b.key=1\na.key=2\n").unwrap();
        std::fs::write(conf.join("net.properties"), "#c.key=3\nb.key=4\n").unwrap();
        std::fs::write(conf.join("README.txt"), "not.a.setting=5\n").unwrap();
        std::fs::write(conf.join("bad.properties"), [0xff, 0xfe, b'\n']).unwrap();
        assert_eq!(read(home.path()), ["a.key", "b.key", "c.key"]);
        assert!(read(&home.path().join("missing")).is_empty());
    }

    #[test]
    fn linked_files_are_read_and_loops_fifos_and_huge_files_are_not_a_hang() {
        let home = tempfile::tempdir().unwrap();
        let conf = home.path().join("conf");
        let etc = home.path().join("etc");
        std::fs::create_dir_all(&conf).unwrap();
        std::fs::create_dir_all(&etc).unwrap();
        std::fs::write(etc.join("net.properties"), "linked.key=1\n").unwrap();
        std::os::unix::fs::symlink(etc.join("net.properties"), conf.join("net.properties"))
            .unwrap();
        std::os::unix::fs::symlink(&conf, conf.join("loop")).unwrap();
        let fifo = std::ffi::CString::new(
            conf.join("fifo.properties")
                .into_os_string()
                .into_encoded_bytes(),
        )
        .unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let huge = std::fs::File::create(conf.join("huge.properties")).unwrap();
        huge.set_len(MAX_FILE_BYTES + 1).unwrap();
        assert_eq!(read(home.path()), ["linked.key"]);
    }
}
