//! `difftest export` (a suite as JUnit source): flag checks, the reference's API model for
//! declared types, and what is printed; the writing is in [`crate::export`]. `difftest bench
//! export` is in `bench_export`.

use super::store;
use crate::cli::{ExportArgs, GlobalArgs};
use crate::exit::{Exit, bad_input};
use crate::export::{self, ExportError, Exported, Junit, Options, Types};
use crate::plural::plural;
use crate::suite::Suite;
use std::path::Path;

pub fn run(global: &GlobalArgs, args: ExportArgs) -> anyhow::Result<Exit> {
    let options = Options {
        junit: junit(&args.junit)?,
        out: args.out.clone(),
        package: args.package.clone(),
        tests_per_class: args.tests_per_class,
        force: args.force,
        strict_messages: args.strict_messages,
    };
    export::check(&options).map_err(user_error)?;
    let suite = load(&args.suite)?;
    let types = types_for(global, &suite, args.offline);
    let done = export::export(&suite, &args.suite, &types, &options).map_err(user_error)?;
    summary(&done, &options, &types);
    Ok(Exit::Success)
}

pub(super) fn junit(text: &str) -> anyhow::Result<Junit> {
    Junit::parse(text).ok_or_else(|| {
        bad_input(format!(
            "--junit: unknown JUnit version `{text}` (use 4 or 5)"
        ))
    })
}

pub(super) fn load(path: &Path) -> anyhow::Result<Suite> {
    Suite::load(path).map_err(|e| bad_input(e.to_string()))
}

/// Everything an export can fail on is the user's: flags, and the output folder they named.
pub(super) fn user_error(e: ExportError) -> anyhow::Error {
    bad_input(e.to_string())
}

/// Types with the reference's model when it is installed and is the Java the suite was
/// recorded on; otherwise (or `offline`) without, after a note on stderr.
pub(super) fn types_for(global: &GlobalArgs, suite: &Suite, offline: bool) -> Types {
    if offline {
        return Types::new(suite, None);
    }
    match describe_on_reference(global, suite) {
        Ok(types) => types,
        Err(why) => {
            eprintln!(
                "difftest: note: return types unknown ({why}); call results are declared \
                 with `var`"
            );
            Types::new(suite, None)
        }
    }
}

fn describe_on_reference(global: &GlobalArgs, suite: &Suite) -> Result<Types, String> {
    let mut store = store(global).map_err(|e| e.to_string())?;
    store.set_progress(false);
    crate::pipeline::export::reference_types(&store, suite)
}

fn summary(done: &Exported, options: &Options, types: &Types) {
    println!(
        "wrote {}: {} in {}, {} in {} (JUnit {}{})",
        done.dir.display(),
        plural(done.tests, "regression test"),
        plural(done.regression_classes.len(), "class"),
        plural(done.error_tests, "error-revealing test"),
        plural(done.error_classes.len(), "class"),
        options.junit.number(),
        if types.has_model() {
            ""
        } else {
            ", call results declared with var"
        },
    );
    let release = done
        .release
        .map_or_else(|| "the reference's release".into(), |r| r.to_string());
    println!(
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
