//! Fingerprints: which Java a target really is (version, vendor, VM, build), read from
//! `bin/java -XshowSettings:properties -version`, and the `fingerprint.yaml` record that
//! stores it together with the libjvm's size and mtime, so a changed JDK is noticed.

use super::error::TargetError;
use super::tools;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a JVM says it is.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// `java.version`, e.g. `21.0.8`.
    pub java_version: String,
    /// `java.vendor`, e.g. `Eclipse Adoptium`.
    pub java_vendor: String,
    /// `java.vm.name`, e.g. `OpenJDK 64-Bit Server VM`.
    pub vm_name: String,
    /// `java.runtime.version`, e.g. `21.0.8+9-LTS`.
    pub runtime_version: String,
    /// The data versions it reports (`unicode`, `tzdata`; see [`super::data`]); `None` in
    /// records and suites written before they were read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_versions: Option<BTreeMap<String, String>>,
    /// `java.vm.info` of the JVM started with the target's options: how it runs code, e.g.
    /// `mixed mode, emulated-client, sharing` (HotSpot's C1 only), `interpreted mode`,
    /// `compiled mode` (empty if the VM does not say); `None` in records and suites written
    /// before it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vm_info: Option<String>,
    /// What the target puts on the classpath, in order: the library's own jars and folders,
    /// then the dependencies Maven resolved for its coordinates; `None` for a bare JDK (and
    /// in fingerprint records, which are the JDK's alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classpath: Option<Vec<ClasspathJar>>,
}

/// One classpath entry as a suite or report remembers it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ClasspathJar {
    /// `group:artifact:version` (the version Maven chose) for a Maven artifact, else the
    /// file or folder name.
    pub name: String,
    /// Brought in as a dependency of a coordinate, not named by the target itself.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dependency: bool,
    /// A dependency that only the library's own optional dependencies bring in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// XXH3-64 of the jar's bytes in hex; empty for a class folder.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub xxh3: String,
}

impl ClasspathJar {
    /// How `targets check` and `-v` mark the entry: `(dependency)`, `(optional dependency)`
    /// or nothing for the library's own.
    pub fn role(&self) -> &'static str {
        match (self.dependency, self.optional) {
            (false, _) => "",
            (true, false) => "(dependency)",
            (true, true) => "(optional dependency)",
        }
    }

    /// `name` without its version for a Maven artifact (`group:artifact`), else `None`.
    pub fn maven_key(&self) -> Option<(String, &str)> {
        let mut parts = self.name.split(':');
        let (g, a, v) = (parts.next()?, parts.next()?, parts.next()?);
        let rest: Vec<&str> = parts.collect();
        let key = match rest.as_slice() {
            [] => format!("{g}:{a}"),
            more => format!("{g}:{a}:{}", more.join(":")),
        };
        Some((key, v))
    }
}

impl Fingerprint {
    /// How `self` differs from `recorded`, field by field (`java_version 17.0.9 → 17.0.10`),
    /// or `None` when they are the same: never two identical one-line strings.
    pub fn differences(&self, recorded: &Fingerprint) -> Option<String> {
        let fields = [
            ("java_version", &self.java_version, &recorded.java_version),
            ("java_vendor", &self.java_vendor, &recorded.java_vendor),
            ("vm_name", &self.vm_name, &recorded.vm_name),
            (
                "runtime_version",
                &self.runtime_version,
                &recorded.runtime_version,
            ),
        ];
        let info = match (&self.vm_info, &recorded.vm_info) {
            (Some(now), Some(then)) => Some(("vm_info", now, then)),
            _ => None,
        };
        let changed: Vec<String> = fields
            .iter()
            .chain(info.as_ref())
            .filter(|(_, now, then)| now != then)
            .map(|(name, now, then)| format!("{name} {then:?} → {now:?}"))
            .collect();
        (!changed.is_empty()).then(|| changed.join(", "))
    }

    /// e.g. `21.0.8+9-LTS Eclipse Adoptium OpenJDK 64-Bit Server VM (mixed mode, sharing)`,
    /// the VM's mode in brackets as `java -version` shows it (when known).
    pub fn one_line(&self) -> String {
        let line = format!(
            "{} {} {}",
            self.runtime_version, self.java_vendor, self.vm_name
        );
        match self.vm_info.as_deref() {
            Some(info) if !info.is_empty() => format!("{line} ({info})"),
            _ => line,
        }
    }
}

/// Size and modification time of a libjvm: when either changes, the JDK was replaced.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub size: u64,
    pub mtime_secs: i64,
    pub mtime_nanos: i64,
}

impl Stamp {
    /// The stamp of `path`, or `None` if it cannot be read.
    pub(crate) fn of(path: &Path) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(Stamp {
            size: m.len(),
            mtime_secs: m.mtime(),
            mtime_nanos: m.mtime_nsec(),
        })
    }
}

/// The contents of a `fingerprint.yaml`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    #[serde(flatten)]
    pub fingerprint: Fingerprint,
    /// `java.vm.version`.
    pub vm_version: String,
    pub java_home: PathBuf,
    pub libjvm: PathBuf,
    pub libjvm_stamp: Stamp,
    /// What happened to the CDS archive, for runtimes difftest made one for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cds: Option<String>,
    /// The JVM options the fingerprint was measured with (they decide `vm_info`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

impl Record {
    /// True if the record has everything this version measures (records written before data
    /// versions were read are measured again when the target is provisioned).
    pub(crate) fn is_complete(&self) -> bool {
        self.fingerprint.data_versions.is_some() && self.fingerprint.vm_info.is_some()
    }

    /// True if this record describes `libjvm` as it is now on disk.
    pub(crate) fn is_fresh(&self, java_home: &Path, libjvm: &Path) -> bool {
        self.java_home == java_home
            && self.libjvm == libjvm
            && Stamp::of(libjvm).is_some_and(|s| s == self.libjvm_stamp)
    }
}

/// Reads a record; `None` if it is missing or unreadable (it is then simply recomputed).
pub(crate) fn read_record(path: &Path) -> Option<Record> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_yaml::from_str(&text).ok()
}

/// Writes a record atomically (temporary file, then rename).
pub(crate) fn write_record(path: &Path, record: &Record) -> Result<(), TargetError> {
    let text = serde_yaml::to_string(record).map_err(|e| TargetError::Invalid {
        location: path.display().to_string(),
        message: format!("cannot serialise fingerprint: {e}"),
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| TargetError::io("cannot create", dir, e))?;
    crate::atomic::write(path, text).map_err(|e| TargetError::io("cannot write", path, e))
}

/// Runs the target's `bin/java` (on the VM `libjvm` names, with the target's `options`) and
/// records what it says.
pub(crate) fn measure(
    target: &str,
    java_home: &Path,
    libjvm: &Path,
    options: &[String],
) -> Result<Record, TargetError> {
    let java = java_home.join("bin/java");
    let broken = |detail: String| TargetError::JavaBroken {
        target: target.to_string(),
        java: java.clone(),
        detail,
    };
    let mut cmd = super::launcher::java_command(java_home, libjvm);
    cmd.args(options)
        .args(["-XshowSettings:properties", "-version"]);
    let out = tools::capture(&mut cmd).map_err(|e| broken(e.to_string()))?;
    if !out.status.success() {
        return Err(broken(format!(
            "{}: {}",
            tools::status_text(&out.status),
            out.last_line()
        )));
    }
    let (mut fingerprint, vm_version) = parse_properties(&out.text).map_err(broken)?;
    fingerprint.data_versions = Some(super::data::read(java_home, libjvm));
    let libjvm_stamp = Stamp::of(libjvm).ok_or_else(|| TargetError::LibjvmMissing {
        target: target.to_string(),
        path: libjvm.to_path_buf(),
    })?;
    Ok(Record {
        fingerprint,
        vm_version,
        java_home: java_home.to_path_buf(),
        libjvm: libjvm.to_path_buf(),
        libjvm_stamp,
        cds: None,
        options: options.to_vec(),
    })
}

/// Parses `    key = value` lines; returns the fingerprint and `java.vm.version`.
pub(crate) fn parse_properties(text: &str) -> Result<(Fingerprint, String), String> {
    let get = |key: &str| -> Result<String, String> {
        text.lines()
            .find_map(|line| {
                let (k, v) = line.split_once(" = ")?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
            .ok_or_else(|| format!("its -XshowSettings:properties output has no {key}"))
    };
    from_properties(get)
}

/// The fingerprint and `java.vm.version` from a lookup of system properties.
pub(crate) fn from_properties(
    get: impl Fn(&str) -> Result<String, String>,
) -> Result<(Fingerprint, String), String> {
    let fingerprint = Fingerprint {
        java_version: get("java.version")?,
        java_vendor: get("java.vendor")?,
        vm_name: get("java.vm.name")?,
        runtime_version: get("java.runtime.version")?,
        data_versions: None,
        vm_info: Some(get("java.vm.info").unwrap_or_default()),
        classpath: None,
    };
    Ok((fingerprint, get("java.vm.version")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_the_changed_fields_and_only_them() {
        let f = Fingerprint {
            java_version: "17.0.9".into(),
            java_vendor: "V".into(),
            vm_name: "VM".into(),
            runtime_version: "17.0.9+9".into(),
            data_versions: None,
            vm_info: None,
            classpath: None,
        };
        assert_eq!(f.differences(&f.clone()), None);
        let edited = Fingerprint {
            java_version: "17.0.8".into(),
            ..f.clone()
        };
        assert_eq!(
            f.one_line(),
            edited.one_line(),
            "the one-line form hides it"
        );
        assert_eq!(
            f.differences(&edited).as_deref(),
            Some("java_version \"17.0.8\" → \"17.0.9\"")
        );
    }

    const SAMPLE: &str = "Property settings:\n    file.encoding = UTF-8\n    java.class.path = \n    \
        java.library.path = /usr/java/packages/lib\n        /usr/lib64\n    java.runtime.version = 21.0.8+9-LTS\n    \
        java.vendor = Eclipse Adoptium\n    java.version = 21.0.8\n    java.version.date = 2025-07-15\n    \
        java.vm.name = OpenJDK 64-Bit Server VM\n    java.vm.version = 21.0.8+9-LTS\n\nopenjdk version \"21.0.8\"\n";

    #[test]
    fn properties_give_the_fingerprint() {
        let (fp, vm_version) = parse_properties(SAMPLE).unwrap();
        assert_eq!(fp.java_version, "21.0.8");
        assert_eq!(fp.java_vendor, "Eclipse Adoptium");
        assert_eq!(vm_version, "21.0.8+9-LTS");
        assert_eq!(
            fp.one_line(),
            "21.0.8+9-LTS Eclipse Adoptium OpenJDK 64-Bit Server VM"
        );
    }

    #[test]
    fn the_vm_mode_is_shown_and_compared_when_both_sides_know_it() {
        let mixed = SAMPLE.replace(
            "\n\nopenjdk",
            "\n    java.vm.info = mixed mode, sharing\n\nopenjdk",
        );
        let (fp, _) = parse_properties(&mixed).unwrap();
        assert_eq!(
            fp.one_line(),
            "21.0.8+9-LTS Eclipse Adoptium OpenJDK 64-Bit Server VM (mixed mode, sharing)"
        );
        let (unsaid, _) = parse_properties(SAMPLE).unwrap();
        assert_eq!(
            unsaid.vm_info.as_deref(),
            Some(""),
            "measured, but not said"
        );
        assert!(!unsaid.one_line().contains('('));
        let int = Fingerprint {
            vm_info: Some("interpreted mode, sharing".into()),
            ..fp.clone()
        };
        assert_eq!(
            int.differences(&fp).as_deref(),
            Some("vm_info \"mixed mode, sharing\" → \"interpreted mode, sharing\"")
        );
        let old = Fingerprint {
            vm_info: None,
            ..fp.clone()
        };
        assert_eq!(
            int.differences(&old),
            None,
            "a suite from before it was read"
        );
    }

    #[test]
    fn missing_property_is_an_error_naming_it() {
        let err = parse_properties("    java.version = 17\n").unwrap_err();
        assert!(err.contains("java.vendor"), "{err}");
    }

    #[test]
    fn record_round_trips_and_detects_a_changed_libjvm() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("libjvm.so");
        std::fs::write(&lib, b"one").unwrap();
        let (mut fingerprint, vm_version) = parse_properties(SAMPLE).unwrap();
        fingerprint.vm_info = None;
        let old = Record {
            fingerprint: fingerprint.clone(),
            vm_version: vm_version.clone(),
            java_home: dir.path().to_path_buf(),
            libjvm: lib.clone(),
            libjvm_stamp: Stamp::of(&lib).unwrap(),
            cds: None,
            options: vec![],
        };
        assert!(old.is_fresh(dir.path(), &lib) && !old.is_complete());
        fingerprint.data_versions = Some(BTreeMap::from([("unicode".into(), "15.0".into())]));
        fingerprint.vm_info = Some("interpreted mode".into());
        let record = Record {
            fingerprint,
            vm_version,
            java_home: dir.path().to_path_buf(),
            libjvm: lib.clone(),
            libjvm_stamp: Stamp::of(&lib).unwrap(),
            cds: Some("created".into()),
            options: vec!["-Xint".into()],
        };
        let file = dir.path().join("fp/fingerprint.yaml");
        write_record(&file, &record).unwrap();
        let back = read_record(&file).unwrap();
        assert_eq!(back, record);
        assert!(back.is_fresh(dir.path(), &lib) && back.is_complete());
        std::fs::write(&lib, b"longer").unwrap();
        assert!(!back.is_fresh(dir.path(), &lib));
    }
}
