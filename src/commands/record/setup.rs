//! Turns `record`'s flags into a [`Plan`]: the scope, the omit list, the generation settings
//! (with the literals and observer files read), the output path (checked writable), and
//! the options written into the suite header. Everything wrong here is bad input (exit 2).

use crate::cli::RecordArgs;
use crate::exit::bad_input;
use crate::generate::GenConfig;
use crate::generate::literals;
use crate::observe::read_patterns;
use crate::pipeline::record::Plan;
use crate::scope::{OmitList, check_class, package_scope, read_class_list};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Checks the flags and reads the files they name.
pub fn plan(args: &RecordArgs) -> anyhow::Result<Plan> {
    check_numbers(args)?;
    let (classes, packages) = scope(args)?;
    let omit = omit_list(args)?;
    let mut generation = GenConfig {
        seed: args.seed,
        time_limit: Duration::from_secs_f64(args.time_limit),
        output_limit: args.output_limit,
        round_size: args.round_size,
        null_ratio: args.null_ratio,
        null_once: !args.no_null_once,
        class_values: args.class_values,
        harvest: !args.no_harvest,
        sorted_copies: !args.no_sorted_copies,
        products: !args.no_products,
        hidden_state: !args.no_hidden_state,
        allow_missing_classes: args.allow_missing_classes,
        runtime_observers: !args.declared_observers,
        per_jvm_values_in_pool: args.per_jvm_values_in_pool,
        index_ratio: args.index_ratio,
        repeat_probability: args.repeat_probability,
        repeat_max: args.repeat_max,
        max_size: args.max_size,
        compact_at: args.store_limit,
        errors_per_group: args.errors_per_group,
        ..GenConfig::default()
    };
    if let Some(path) = &args.literals_file {
        let extra = literals::read(path).map_err(|e| bad_input(e.to_string()))?;
        generation.literals.extend(extra);
    }
    if let Some(path) = &args.observers {
        generation.user_observers = read_patterns(path).map_err(|e| bad_input(e.to_string()))?;
    }
    let output = output(args)?;
    Ok(Plan {
        reference: args.reference.clone(),
        classes,
        packages,
        omit,
        skip_deprecated: args.skip_deprecated_for_removal,
        generation,
        // Mined constants feed only the constant sweeps, which harvesting turns on.
        mine: !args.no_harvest,
        reduce: !args.keep_all,
        reruns: args.reruns,
        output,
        options: super::suite_options::suite_options(args),
        observers_file: args.observers.clone(),
        coverage: args.coverage,
    })
}

fn check_numbers(args: &RecordArgs) -> anyhow::Result<()> {
    let probability = |name: &str, p: f64| {
        if (0.0..=1.0).contains(&p) {
            Ok(())
        } else {
            Err(bad_input(format!(
                "{name} must be between 0 and 1, not {p}"
            )))
        }
    };
    probability("--null-ratio", args.null_ratio)?;
    probability("--repeat-probability", args.repeat_probability)?;
    probability("--index-ratio", args.index_ratio)?;
    // Durations and counts are in range already (`cli::values`, at parse time).
    Ok(())
}

/// Classes (or class globs) and packages (`p.*` with subpackages, `p` alone) in scope: the
/// flags and the class list. Empty when none is given: the record then takes the library's
/// own jars, or for a bare JDK the default packages.
fn scope(args: &RecordArgs) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let mut classes = args.classes.clone();
    if let Some(bad) = classes.iter().find_map(|c| check_class(c).err()) {
        return Err(bad_input(format!("--classes: {bad}")));
    }
    let mut packages = args
        .packages
        .iter()
        .map(|p| package_scope(p).map_err(|why| bad_input(format!("--packages: {why}"))))
        .collect::<anyhow::Result<Vec<String>>>()?;
    if let Some(path) = &args.class_list {
        let (c, p) = read_class_list(path)?;
        classes.extend(c);
        packages.extend(p);
    }
    classes.dedup();
    packages.dedup();
    Ok((classes, packages))
}

fn omit_list(args: &RecordArgs) -> anyhow::Result<OmitList> {
    let mut omit = match &args.omit_replace {
        Some(path) => OmitList::read(path)?,
        None => OmitList::default_list(),
    };
    for path in &args.omit {
        omit.extend(OmitList::read(path)?);
    }
    if args.class_values {
        omit = omit.allowing_class_params();
    }
    Ok(omit)
}

/// Where the suite goes ([`output_path`]), checked writable.
pub fn output(args: &RecordArgs) -> anyhow::Result<PathBuf> {
    let output = output_path(args);
    check_writable(&output)?;
    Ok(output)
}

/// Fails unless a file can be created next to `path` (the suite is renamed into place).
fn check_writable(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Err(bad_input(format!(
            "{}: is a folder, not a suite file",
            path.display()
        )));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    crate::pipeline::folder::check_writable(&dir)
        .map_err(|e| bad_input(format!("{}: cannot write: {e}", path.display())))
}

/// Where the suite goes: `--output`, with `.zst` added for `--compress`, or
/// `oracles/REF.yaml.zst`. Compressed by default because the readable text repeats every
/// test's calls in full: a default record of 30,282 tests is 40.8 MB of text and 2.9 MiB
/// compressed, small enough to commit (`zstd -dc` or `-o REF.yaml` gives the text).
fn output_path(args: &RecordArgs) -> PathBuf {
    let path = args.output.clone().unwrap_or_else(|| {
        Path::new("oracles").join(format!(
            "{}.yaml.zst",
            crate::targets::overlay::file_stem(&args.reference)
        ))
    });
    if args.compress && !crate::suite::compress::wanted(&path) {
        let mut name = path.clone().into_os_string();
        name.push(".zst");
        return PathBuf::from(name);
    }
    path
}
