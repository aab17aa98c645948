//! The record flags a suite header keeps (`options:`), by the names of their flags: what
//! replay, `suite info` and a later record read back to know how the suite was made.

use crate::cli::RecordArgs;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The flags of `args` that shape the suite, each as its flag's name and value; an optional
/// flag not given (a file, `--timeout`, `--keep-all`) is left out.
pub fn suite_options(args: &RecordArgs) -> BTreeMap<String, String> {
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    let mut o: Vec<(&str, Option<String>)> = vec![
        ("time-limit", Some(args.time_limit.to_string())),
        ("output-limit", args.output_limit.map(|n| n.to_string())),
        ("reruns", Some(args.reruns.to_string())),
        ("null-ratio", Some(args.null_ratio.to_string())),
        (
            "null-once",
            Some(if args.no_null_once { "off" } else { "on" }.to_string()),
        ),
        (
            "repeat-probability",
            Some(args.repeat_probability.to_string()),
        ),
        ("repeat-max", Some(args.repeat_max.to_string())),
        (
            crate::suite::MAX_VALUE_BYTES_OPTION,
            Some(args.max_value_bytes.to_string()),
        ),
        (
            crate::suite::PLAIN_OBJECT_TEXT_OPTION,
            Some("class-only".to_string()),
        ),
        ("index-ratio", Some(args.index_ratio.to_string())),
        ("class-values", args.class_values.then(|| "on".to_string())),
        (
            "per-jvm-values",
            args.per_jvm_values_in_pool.then(|| "in-pool".to_string()),
        ),
        (
            "harvest",
            Some(if args.no_harvest { "off" } else { "on" }.to_string()),
        ),
        (
            "sorted-copies",
            Some(if args.no_sorted_copies { "off" } else { "on" }.to_string()),
        ),
        (
            "products",
            Some(if args.no_products { "off" } else { "on" }.to_string()),
        ),
        (
            "hidden-state",
            Some(if args.no_hidden_state { "off" } else { "on" }.to_string()),
        ),
        (
            "observers-on",
            Some(
                if args.declared_observers {
                    "declared"
                } else {
                    "runtime"
                }
                .to_string(),
            ),
        ),
        ("max-size", Some(args.max_size.to_string())),
        ("round-size", Some(args.round_size.to_string())),
        (
            "store-limit",
            (args.store_limit != difftest_core::generate::DEFAULT_STORE_LIMIT)
                .then(|| args.store_limit.to_string()),
        ),
        ("errors-per-group", Some(args.errors_per_group.to_string())),
        ("timeout", args.pool.timeout.map(|t| t.to_string())),
        ("literals-file", path(&args.literals_file)),
        ("observers", path(&args.observers)),
        ("omit-replace", path(&args.omit_replace)),
        ("keep-all", args.keep_all.then(|| "true".to_string())),
        (
            "allow-missing-classes",
            args.allow_missing_classes.then(|| "true".to_string()),
        ),
        (
            "skip-deprecated-for-removal",
            args.skip_deprecated_for_removal.then(|| "true".to_string()),
        ),
    ];
    let omit: Vec<String> = args.omit.iter().map(|p| p.display().to_string()).collect();
    o.push(("omit", (!omit.is_empty()).then(|| omit.join(","))));
    o.into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
        .collect()
}
