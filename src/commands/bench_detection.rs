//! `difftest bench detection`: for each pair of Temurin releases and each variant of the
//! record's flags, records on the older release, replays on the newer (and, with
//! `--both-directions`, the other way round), and prints which documented changes of
//! `examples/known-changes/changes.yaml` the reports show. Every variant gets the same
//! budget (seconds of generation, or `--output-limit` tests), seed and reruns. Every score
//! is given for each half of the list (tuning, validation) apart.

use crate::cli::{BenchDetectionArgs, GlobalArgs};
use crate::detection::{self, KnownChange, Observation, Scope, Verdict};
use crate::exit::{Exit, bad_input};
use crate::report::Report;
use crate::scope::{DEFAULT_CLASSES, DEFAULT_PACKAGES, OmitList};
use std::path::Path;

mod score;
use score::{mark, print_pair, print_rows};

/// A named set of extra `record` flags.
struct Variant {
    name: String,
    flags: Vec<String>,
}

fn variant(text: &str) -> anyhow::Result<Variant> {
    let (name, flags) = text.split_once('=').unwrap_or((text, ""));
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(bad_input(format!(
            "--variant {text:?}: the name must be letters, digits, '-' or '_'"
        )));
    }
    Ok(Variant {
        name: name.to_string(),
        flags: flags.split_whitespace().map(str::to_string).collect(),
    })
}

pub fn run(global: &GlobalArgs, args: &BenchDetectionArgs) -> anyhow::Result<Exit> {
    super::pool_config(&args.pool)?;
    let changes = detection::load(&args.changes).map_err(|e| bad_input(e.to_string()))?;
    let variants = args
        .variants
        .iter()
        .map(|v| variant(v))
        .collect::<anyhow::Result<Vec<_>>>()?;
    for pair in &args.pairs {
        if detection::pair_releases(pair).is_none() {
            return Err(bad_input(format!("--pairs: {pair:?} is not OLD-NEW")));
        }
    }
    let temp = tempfile::tempdir()?;
    let work = args
        .work
        .clone()
        .unwrap_or_else(|| temp.path().to_path_buf());
    let omit = OmitList::default_list();
    let scope = Scope {
        packages: DEFAULT_PACKAGES,
        classes: DEFAULT_CLASSES,
        omit: &omit,
    };
    for pair in &args.pairs {
        let items: Vec<&KnownChange> = changes.iter().filter(|c| &c.pair == pair).collect();
        let mut columns = Vec::new();
        for v in &variants {
            let seen = observe(global, args, &work, pair, v)?;
            let verdicts: Vec<_> = items.iter().map(|c| c.verdict(&seen)).collect();
            let rows: Vec<usize> = items.iter().map(|c| c.rows(&seen)).collect();
            print_rows(pair, &v.name, &items, &rows);
            write_evidence(&work.join(&v.name).join(pair), &items, &verdicts)?;
            columns.push(verdicts.iter().map(|v| v.0).collect::<Vec<_>>());
        }
        print_pair(
            pair,
            &items,
            &scope,
            &variants,
            &columns,
            args.both_directions,
        );
    }
    Ok(Exit::Success)
}

/// The observations of one variant on one pair, running what is not in `work` yet.
fn observe(
    global: &GlobalArgs,
    args: &BenchDetectionArgs,
    work: &Path,
    pair: &str,
    v: &Variant,
) -> anyhow::Result<Vec<Observation>> {
    let (old, new) = detection::pair_releases(pair).expect("checked");
    let (old, new) = (format!("temurin{old}"), format!("temurin{new}"));
    let dir = work.join(&v.name).join(pair);
    let mut seen = detection::observations(&report(global, args, &dir, v, &old, &new)?, false);
    if args.both_directions {
        let back = report(global, args, &dir, v, &new, &old)?;
        seen.extend(detection::observations(&back, true));
    }
    Ok(seen)
}

/// The report of `tgt` against a suite recorded on `reference`, made if missing.
fn report(
    global: &GlobalArgs,
    args: &BenchDetectionArgs,
    dir: &Path,
    v: &Variant,
    reference: &str,
    tgt: &str,
) -> anyhow::Result<Report> {
    let json = dir.join(format!("reports/{tgt}-vs-{reference}.json"));
    if json.exists() {
        eprintln!("{}: scoring the kept report", json.display());
        return Ok(Report::read(&json)?);
    }
    std::fs::create_dir_all(dir)?;
    let suite = dir.join(format!("{reference}.yaml"));
    if !suite.exists() {
        let mut cmd = super::difftest_child(global)?;
        // `-v`: the log names every callable that timed out, which the summary only counts.
        cmd.arg("-v")
            .args(["record", "--impl", reference, "--no-progress", "--seed"])
            .arg(args.seed.to_string())
            .arg("--time-limit")
            .arg(args.time_limit.to_string())
            .arg("--reruns")
            .arg(args.reruns.to_string())
            .arg("--output")
            .arg(&suite);
        if let Some(n) = args.output_limit {
            cmd.arg("--output-limit").arg(n.to_string());
        }
        cmd.args(&v.flags);
        super::pass_pool_flags(&mut cmd, &args.pool);
        let log = dir.join(format!("record-{reference}.log"));
        super::run_child(cmd, &[0], Some(&log))?;
    }
    let mut cmd = super::difftest_child(global)?;
    cmd.args(["replay", "--impl", tgt, "--no-minimize", "--suite"])
        .arg(&suite)
        .arg("--report-dir")
        .arg(dir.join("reports"));
    super::pass_pool_flags(&mut cmd, &args.pool);
    let log = dir.join(format!("replay-{tgt}.log"));
    super::run_child(cmd, &[0, 1], Some(&log))?;
    Ok(Report::read(&json)?)
}

/// `evidence.txt`: for each item shown, the test that shows it, so a match can be checked.
fn write_evidence(
    dir: &Path,
    items: &[&KnownChange],
    verdicts: &[(Verdict, Option<&Observation>)],
) -> anyhow::Result<()> {
    let mut text = String::new();
    for (c, (verdict, seen)) in items.iter().zip(verdicts) {
        if let Some(o) = seen {
            let side = if o.reverse { "reverse" } else { "forward" };
            text.push_str(&format!(
                "{} [{}] {side} test {}: {} ({}): {} -> {}\n",
                c.id,
                mark(*verdict),
                o.test,
                o.callee,
                o.kind.name(),
                o.before,
                o.after
            ));
        }
    }
    std::fs::create_dir_all(dir)?;
    crate::atomic::write(&dir.join("evidence.txt"), text)?;
    Ok(())
}
