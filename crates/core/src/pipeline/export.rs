//! The export's one step that needs a JVM: the reference's API model, for the declared
//! types of call results. The writing itself is [`crate::export`].

use crate::export::{self, Types};
use crate::pool::{Pool, PoolConfig};
use crate::suite::Suite;
use crate::targets::TargetStore;

/// The suite's types with the reference's API model, described by one worker on the
/// reference; why not when the reference is not installed or is no longer the Java the
/// suite was recorded on (the caller then declares call results with `var`).
pub fn reference_types(store: &TargetStore, suite: &Suite) -> Result<Types, String> {
    let name = &suite.header.reference;
    let spec = store.load(name).map_err(|e| e.to_string())?;
    let status = store.status(&spec);
    if !status.installed {
        return Err(format!("the reference target {name} is not installed"));
    }
    let recorded = &suite.header.fingerprint.java_version;
    match &status.fingerprint {
        Some(fp) if &fp.java_version == recorded => {}
        Some(fp) => {
            return Err(format!(
                "{name} is now Java {}, the suite was recorded on {recorded}",
                fp.java_version
            ));
        }
        None => return Err(format!("{name} has no fingerprint")),
    }
    let provisioned = store.provision(&spec).map_err(|e| e.to_string())?;
    let mut config = PoolConfig::new();
    config.jobs = 1;
    let pool = Pool::start(name, provisioned.jvm, config).map_err(|e| e.to_string())?;
    let classes: Vec<String> = export::declared::classes_to_describe(suite)
        .into_iter()
        .collect();
    let (model, _) = pool.describe(&classes, &[]).map_err(|e| e.to_string())?;
    let mut types = Types::new(suite, Some(model));
    let more: Vec<String> = export::declared::more_to_describe(suite, &types)
        .into_iter()
        .collect();
    if !more.is_empty() {
        let (model, _) = pool.describe(&more, &[]).map_err(|e| e.to_string())?;
        types.add_model(model);
    }
    Ok(types)
}
