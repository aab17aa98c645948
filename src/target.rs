//! TEMPORARY stub until the target module lands (branch `target`); same public API.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct JvmSpec {
    pub java_home: PathBuf,
    pub libjvm: PathBuf,
    pub options: Vec<String>,
    pub classpath: Vec<PathBuf>,
    pub env: BTreeMap<String, String>,
}
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    pub java_version: String,
    pub java_vendor: String,
    pub vm_name: String,
    pub runtime_version: String,
}
impl Fingerprint {
    pub fn one_line(&self) -> String {
        format!(
            "{} {} {}",
            self.runtime_version, self.java_vendor, self.vm_name
        )
    }
}
pub struct Provisioned {
    pub name: String,
    pub jvm: JvmSpec,
    pub fingerprint: Fingerprint,
}
pub struct TargetSpec {
    pub name: String,
    pub description: String,
}
pub struct Status {
    pub installed: bool,
    pub fingerprint: Option<Fingerprint>,
}
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TargetError(String);
impl TargetError {
    pub fn is_bad_input(&self) -> bool {
        true
    }
}
pub struct TargetStore;
impl TargetStore {
    pub fn new(_t: Option<PathBuf>, _c: Option<PathBuf>) -> Result<Self, TargetError> {
        Ok(TargetStore)
    }
    pub fn names(&self) -> Result<Vec<String>, TargetError> {
        Ok(vec![])
    }
    pub fn load(&self, name: &str) -> Result<TargetSpec, TargetError> {
        let home = PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64");
        let _ = name;
        Err(TargetError(format!("stub {}", home.display())))
    }
    pub fn status(&self, _s: &TargetSpec) -> Status {
        Status {
            installed: false,
            fingerprint: None,
        }
    }
    pub fn provision(&self, _s: &TargetSpec) -> Result<Provisioned, TargetError> {
        Err(TargetError("stub".into()))
    }
}
