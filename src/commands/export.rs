//! `difftest export` (a suite as JUnit source): the flags become options for
//! [`crate::pipeline::export::export`] (which checks them, loads the suite, asks the
//! reference for the declared types and writes the sources); this file prints what it
//! wrote and skipped. `difftest bench export` is in `bench_export`.

use super::store;
use crate::cli::{ExportArgs, GlobalArgs};
use crate::exit::{Exit, bad_input};
use crate::export::{self, Exported, Junit, Options};
use crate::pipeline::export::{Progress, export};
use crate::plural;
use crate::targets::TargetStore;

pub fn run(global: &GlobalArgs, args: ExportArgs) -> anyhow::Result<Exit> {
    let options = Options {
        junit: junit(&args.junit)?,
        out: args.out.clone(),
        package: args.package.clone(),
        tests_per_class: args.tests_per_class,
        force: args.force,
        strict_messages: args.strict_messages,
    };
    let reference = (!args.offline).then(|| reference_store(global));
    let done = export(&args.suite, &options, reference, &Noted).map_err(|e| e.into_anyhow())?;
    summary(&done.exported, &options, done.typed);
    Ok(Exit::Success)
}

pub(super) fn junit(text: &str) -> anyhow::Result<Junit> {
    Junit::parse(text).ok_or_else(|| {
        bad_input(format!(
            "--junit: unknown JUnit version `{text}` (use 4 or 5)"
        ))
    })
}

/// The store to describe the reference on, quiet; why not when there is none.
pub(super) fn reference_store(global: &GlobalArgs) -> Result<TargetStore, String> {
    let mut store = store(global).map_err(|e| e.to_string())?;
    store.set_progress(false);
    Ok(store)
}

/// Says on stderr why call results are declared with `var`.
pub(super) struct Noted;

impl Progress for Noted {
    fn types_unknown(&self, why: &str) {
        eprintln!(
            "difftest: note: return types unknown ({why}); call results are declared \
             with `var`"
        );
    }
}

fn summary(done: &Exported, options: &Options, typed: bool) {
    outln!(
        "wrote {}: {} in {}, {} in {} (JUnit {}{})",
        done.dir.display(),
        plural(done.tests, "regression test"),
        plural(done.regression_classes.len(), "class"),
        plural(done.error_tests, "error-revealing test"),
        plural(done.error_classes.len(), "class"),
        options.junit.number(),
        if typed {
            ""
        } else {
            ", call results declared with var"
        },
    );
    let release = done
        .release
        .map_or_else(|| "the reference's release".into(), |r| r.to_string());
    outln!(
        "compile with javac --release {release}; run with {} (see docs/export.md); \
         the error-revealing classes fail by design",
        export::JAVA_PROPERTIES.join(" ")
    );
    skipped(&done.skipped);
}

/// One line per reason: how many tests, and the first ids.
fn skipped(tests: &[(u64, String)]) {
    let mut by_reason: std::collections::BTreeMap<&str, Vec<u64>> = Default::default();
    for (id, why) in tests {
        by_reason.entry(why).or_default().push(*id);
    }
    for (why, ids) in by_reason {
        let first: Vec<String> = ids.iter().take(10).map(u64::to_string).collect();
        let more = if ids.len() > 10 { ", …" } else { "" };
        eprintln!(
            "difftest: skipped {} ({why}): {}{more}",
            plural(ids.len(), "test"),
            first.join(", ")
        );
    }
}
