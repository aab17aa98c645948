//! TEMPORARY until the target module lands.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct JvmSpec { pub java_home: PathBuf, pub libjvm: PathBuf, pub options: Vec<String>, pub classpath: Vec<PathBuf>, pub env: BTreeMap<String,String> }
