//! `targets check`: a target started and its scope described, to see that it loads and what
//! API a record would reach; and [`start_pool`], a pool on one target, which the bench
//! commands share.

use super::Error;
use crate::model::ApiModel;
use crate::pool::{Pool, PoolConfig};
use crate::scope::{OmitList, default_scope, package_scope};
use crate::targets::{Provisioned, TargetStore};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What `targets check` found.
pub struct TargetCheck {
    /// The target as provisioned: fingerprint, JVM, class path.
    pub provisioned: Provisioned,
    /// How long the pool took to start.
    pub started: Duration,
    /// The scope's API, the default omit list applied.
    pub model: ApiModel,
    /// Classes left out because they or their public signatures need a class missing from
    /// the class path (class → the missing class).
    pub missing: BTreeMap<String, String>,
}

/// Loads, provisions and starts the target `name` with `config`'s pool.
pub fn start_pool(
    store: &TargetStore,
    name: &str,
    config: PoolConfig,
) -> Result<(Provisioned, Pool), Error> {
    let spec = store.load(name)?;
    let provisioned = store.provision(&spec)?;
    let pool = Pool::start(name, provisioned.jvm.clone(), config)?;
    Ok((provisioned, pool))
}

/// Starts one worker on `name` and describes the scope: `classes` and `packages` when
/// given, else the library's own jars, else a bare JDK's default packages. A class or
/// package the target does not know is bad input.
pub fn check_target(
    store: &TargetStore,
    name: &str,
    classes: Vec<String>,
    packages: &[String],
    mut config: PoolConfig,
) -> Result<TargetCheck, Error> {
    config.jobs = 1;
    let began = Instant::now();
    let (provisioned, pool) = start_pool(store, name, config)?;
    let started = began.elapsed();
    let packages = packages
        .iter()
        .map(|p| package_scope(p).map_err(|why| Error::BadInput(format!("--packages: {why}"))))
        .collect::<Result<Vec<String>, Error>>()?;
    let library = match classes.is_empty() && packages.is_empty() {
        true => provisioned.library.clone(),
        false => Vec::new(),
    };
    let (classes, packages) = match classes.is_empty() && packages.is_empty() && library.is_empty()
    {
        true => default_scope(),
        false => (classes, packages),
    };
    let described = pool.describe_scope(&classes, &packages, &library)?;
    let model = OmitList::default_list().filter(&described.model);
    if let Some(first) = described.unknown.first() {
        return Err(Error::BadInput(format!("{name} does not know {first}")));
    }
    Ok(TargetCheck {
        provisioned,
        started,
        model,
        missing: described.missing,
    })
}
