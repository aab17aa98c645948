//! `export`'s whole run ([`export`]): the options checked, the suite loaded, the
//! reference's API model described by one worker for the declared types of call results
//! ([`reference_types`], the one step that needs a JVM), and the sources written by
//! [`crate::export`].

use super::Error;
use crate::export::{self, Exported, Options, Types};
use crate::pool::{Pool, PoolConfig};
use crate::suite::Suite;
use crate::targets::TargetStore;
use std::path::Path;

/// What an export tells as it goes.
pub trait Progress {
    /// The reference's model could not be had, for `why`: call results are declared `var`.
    fn types_unknown(&self, _why: &str) {}
}

/// What an export wrote.
pub struct Done {
    /// The classes and tests written, and those skipped.
    pub exported: Exported,
    /// Call results have declared types (the reference's model was described).
    pub typed: bool,
}

/// Exports the suite at `suite` as `options` say. `reference` is the store to describe the
/// reference on (or why there is none); `None` exports offline, every call result `var`.
pub fn export(
    suite: &Path,
    options: &Options,
    reference: Option<Result<TargetStore, String>>,
    progress: &dyn Progress,
) -> Result<Done, Error> {
    export::check(options).map_err(|e| Error::BadInput(e.to_string()))?;
    let loaded = load_suite(suite)?;
    let types = suite_types(&loaded, reference, progress);
    let exported = export::export(&loaded, suite, &types, options)
        .map_err(|e| Error::BadInput(e.to_string()))?;
    Ok(Done {
        exported,
        typed: types.has_model(),
    })
}

/// The suite at `path`, whole; one that cannot be read is bad input.
pub fn load_suite(path: &Path) -> Result<Suite, Error> {
    Suite::load(path).map_err(|e| Error::BadInput(e.to_string()))
}

/// The suite's types: with the reference's model when `reference` gives a store and the
/// reference can describe it, else without (after telling why, unless offline).
pub fn suite_types(
    suite: &Suite,
    reference: Option<Result<TargetStore, String>>,
    progress: &dyn Progress,
) -> Types {
    let Some(store) = reference else {
        return Types::new(suite, None);
    };
    match store.and_then(|store| reference_types(&store, suite)) {
        Ok(types) => types,
        Err(why) => {
            progress.types_unknown(&why);
            Types::new(suite, None)
        }
    }
}

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
