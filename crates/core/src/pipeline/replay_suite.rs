//! `replay`'s whole run from its flags' values: the report folder checked writable, the
//! suite found (the one given, or the only one in `oracles/`), checked whole, and replayed
//! on every target by [`super::replay::replay`].

use super::Error;
use super::folder::check_writable;
use super::replay::{Checked, Plan, Progress, replay};
use crate::pool::PoolConfig;
use crate::report::Report;
use crate::targets::TargetStore;
use std::path::{Path, PathBuf};

/// Replays the suite at `suite` (else the only one in `oracles/`) as `plan` says, writing
/// each target's report into the plan's folder, which is checked before anything is read.
pub fn replay_suite(
    suite: Option<&Path>,
    plan: Plan,
    store: TargetStore,
    config: PoolConfig,
    progress: &dyn Progress,
) -> Result<Vec<Report>, Error> {
    check_writable(&plan.report_dir).map_err(|e| {
        Error::BadInput(format!(
            "--report-dir {}: cannot write the reports there: {e}",
            plan.report_dir.display()
        ))
    })?;
    let path = resolve_suite(suite)?;
    let checked = Checked::open(&path, plan.shard)?;
    replay(checked, plan, store, config, progress)
}

/// What to do when there is no suite to replay.
const RECORD_FIRST: &str = "record one first with `difftest record --impl REF` (REF: the \
     reference, e.g. temurin17), or give --suite FILE";

/// The suite to replay: the flag, or the only `oracles/*.yaml` or `oracles/*.yaml.zst` that
/// is not an accepted list.
fn resolve_suite(flag: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(path) = flag {
        return Ok(path.to_path_buf());
    }
    let dir = Path::new("oracles");
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::BadInput(format!(
                "--suite not given and there is no {}/ folder here; {RECORD_FIRST}",
                dir.display()
            )),
            _ => Error::BadInput(format!(
                "--suite not given and {}/ cannot be read: {e}",
                dir.display()
            )),
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name.ends_with(".yaml") || name.ends_with(".yaml.zst"))
                && !name.ends_with(".accepted.yaml")
        })
        .collect();
    found.sort();
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(Error::BadInput(format!(
            "--suite not given and oracles/ holds no suite (*.yaml, *.yaml.zst); {RECORD_FIRST}"
        ))),
        _ => Err(Error::BadInput(format!(
            "--suite not given and oracles/ holds several suites: {}",
            display_paths(&found)
        ))),
    }
}

fn display_paths(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(", ")
}
