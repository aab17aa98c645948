//! `difftest replay --impl TGT[,TGT…]`: checks the suite, replays it on each target as it
//! reads it (keeping only the tests that do not pass), groups and minimizes the
//! differences, applies the accepted list, writes the reports, prints the table (or the
//! matrix), and turns the gate into the exit code.

use super::{pool_config, store};
use crate::cli::{GlobalArgs, ReplayArgs};
use crate::exit::{Exit, bad_input};
use crate::pool::PoolConfig;
use crate::replay::stream::{Source, StreamError, Streamed, replay_stream};
use crate::replay::{Lane, PoolLane, ReplayOptions, Runner};
use crate::report::build::{Context, build, summarize};
use crate::report::{
    Gate, Implementation, Options, Report, Stats, TestReport, TestStatus, matrix, table,
};
use crate::suite::entries::Entries;
use crate::suite::read::{SuiteReader, verify};
use crate::suite::{Header, SuiteError, Test};
use crate::target::TargetStore;
use crate::triage::accepted::{AcceptedList, path_for};
use crate::triage::{Group, group, minimize::minimize_all};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Everything shared by the replays on several targets.
struct Session<'a> {
    args: &'a ReplayArgs,
    header: Header,
    suite_path: PathBuf,
    /// Regression tests in the replayed shard (all of them without `--shard`).
    total: usize,
    store: TargetStore,
    config: PoolConfig,
    accepted: AcceptedList,
    /// The reference lane for minimization, started on first use (or why it could not be).
    reference: Option<Result<Box<dyn Runner>, String>>,
    /// Set when the reference's JDK is no longer the one the suite was recorded on.
    reference_note: Option<String>,
    load_seconds: f64,
}

pub fn run(global: &GlobalArgs, args: &ReplayArgs) -> anyhow::Result<Exit> {
    let reports = replay_reports(global, args)?;
    print(&reports);
    Ok(exit_of(&reports))
}

/// Replays the suite on every target and writes each report; prints nothing on stdout.
pub fn replay_reports(global: &GlobalArgs, args: &ReplayArgs) -> anyhow::Result<Vec<Report>> {
    let loading = Instant::now();
    let suite_path = resolve_suite(args.suite.as_deref())?;
    let shard = args.shard;
    let total = verify(&suite_path, |id| shard.is_none_or(|s| s.contains(id)))
        .map_err(|e| bad_input(format!("cannot load the suite: {e}")))?;
    let header = SuiteReader::open(&suite_path)
        .map_err(|e| bad_input(format!("cannot load the suite: {e}")))?
        .header()
        .clone();
    let load_seconds = loading.elapsed().as_secs_f64();
    let config = pool_config(&args.pool)?;
    if args.segment == 0 {
        return Err(bad_input("--segment must be at least 1"));
    }
    let store = store(global)?;
    let mut impls: Vec<&String> = Vec::new();
    for name in &args.impls {
        store.load(name)?; // an unknown target is bad input, before any JVM starts
        if !impls.contains(&name) {
            impls.push(name);
        }
    }
    let accepted_path = path_for(&suite_path);
    let accepted = AcceptedList::load(&accepted_path).map_err(|e| bad_input(e.to_string()))?;
    let mut session = Session {
        args,
        header,
        suite_path,
        total,
        store,
        config,
        accepted,
        reference: None,
        reference_note: None,
        load_seconds,
    };
    let mut reports = Vec::new();
    for name in impls {
        let report = session.replay_target(name)?;
        let written = report.write_all(&args.report_dir)?;
        eprintln!("difftest: wrote {}", display_paths(&written));
        reports.push(report);
    }
    Ok(reports)
}

/// The exit code of one or more reports: 1 when any gate fails.
pub fn exit_of(reports: &[Report]) -> Exit {
    if reports.iter().any(|r| r.gate == Gate::Fail) {
        Exit::Differences
    } else {
        Exit::Success
    }
}

/// Prints the table (one target) or the matrix (several), then summary lines and notes.
pub fn print(reports: &[Report]) {
    let table = match reports {
        [one] => table::groups_table(one),
        many => matrix::matrix_table(many),
    };
    if !table.is_empty() {
        println!("{table}");
    }
    for r in reports {
        for line in table::footnotes(r) {
            println!("{line}");
        }
        println!("{}", crate::color::gate(&table::summary_line(r)));
    }
}

fn display_paths(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(", ")
}

/// The suite to replay: the flag, or the only `oracles/*.yaml` or `oracles/*.yaml.zst` that
/// is not an accepted list.
pub fn resolve_suite(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(path) = flag {
        return Ok(path.to_path_buf());
    }
    let dir = Path::new("oracles");
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| {
            bad_input(format!(
                "--suite not given and {}/ cannot be read: {e}",
                dir.display()
            ))
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
        0 => Err(bad_input(
            "--suite not given and oracles/ holds no suite (*.yaml, *.yaml.zst)",
        )),
        _ => Err(bad_input(format!(
            "--suite not given and oracles/ holds several suites: {}",
            display_paths(&found)
        ))),
    }
}

impl Session<'_> {
    /// Replays the session's tests on one target and builds its report.
    fn replay_target(&mut self, name: &str) -> anyhow::Result<Report> {
        let began = Instant::now();
        let spec = self.store.load(name)?;
        let provisioned = self.store.provision(&spec)?;
        let lane = PoolLane::new(name, provisioned.jvm.clone(), self.config.clone());
        let options = ReplayOptions {
            confirm: self.args.confirm,
            segment: self.args.segment,
        };
        let total = self.total as u64;
        let mode = crate::progress::Mode::detect(false);
        let phase = crate::progress::Phase::start(&format!("replaying on {name}"), total, mode);
        let streamed = self.stream(&lane, &options, &|done| {
            let done = done as u64;
            phase.update(done, || {
                let left = total.saturating_sub(done);
                let (rate, eta) = crate::progress::rate_and_eta(done, left, began.elapsed());
                format!("{done}/{total} tests · {rate:.0} tests/s · about {eta} s left")
            })
        })?;
        phase.finish(&format!("{total} tests"));
        let replay_seconds = began.elapsed().as_secs_f64();
        let tests: Vec<&Test> = streamed.kept.iter().collect();
        let outcomes = &streamed.outcomes;
        let mut groups = group(&tests, outcomes);
        let mut notes = self.fingerprint_notes(name, &provisioned.fingerprint);
        let minimizing = Instant::now();
        if !self.args.no_minimize {
            self.minimize(&lane, &tests, &mut groups, &mut notes)?;
        }
        let minimize_seconds = minimizing.elapsed().as_secs_f64();
        notes.extend(self.reference_note.clone());
        if self.args.shard.is_some() && !self.accepted.accepted.is_empty() {
            notes.push("one shard replayed: stale accepted entries are final only after `difftest report --merge`".into());
        }
        let seconds = began.elapsed().as_secs_f64();
        let context = Context {
            reference: Implementation {
                name: self.header.reference.clone(),
                fingerprint: Some(self.header.fingerprint.one_line()),
                data_versions: self.reference_data_versions(),
            },
            target: Implementation {
                name: name.to_string(),
                fingerprint: Some(provisioned.fingerprint.one_line()),
                data_versions: provisioned
                    .fingerprint
                    .data_versions
                    .clone()
                    .unwrap_or_default(),
            },
            suite: self.suite_path.display().to_string(),
            shard: self.args.shard,
            options: Options {
                strict_messages: self.args.strict_messages,
                confirm: self.args.confirm,
                jobs: self.config.jobs,
                minimize_budget: self.args.minimize_budget,
                segment: self.args.segment,
            },
            accepted: &self.accepted,
            seconds,
            stats: Stats {
                load_seconds: self.load_seconds,
                replay_seconds,
                minimize_seconds,
                ..stats(&lane, streamed.total(), seconds, self.config.jobs)
            },
            notes,
        };
        let mut report = build(context, &tests, outcomes, &groups);
        add_passes(&mut report, &streamed.passed);
        Ok(report)
    }

    /// Replays the suite on `lane` as it is read from the file, by each thread.
    fn stream(
        &self,
        lane: &PoolLane,
        options: &ReplayOptions,
        progress: &(dyn Fn(usize) + Sync),
    ) -> anyhow::Result<Streamed> {
        let shard = self.args.shard;
        let open = || -> Result<FileSource, SuiteError> {
            let mut reader = SuiteReader::open(&self.suite_path)?;
            reader.filter(Box::new(move |id| shard.is_none_or(|s| s.contains(id))));
            let entries = Entries::new(&self.suite_path);
            Ok(FileSource { reader, entries })
        };
        match replay_stream(&open, lane, options, progress) {
            Ok(streamed) => Ok(streamed),
            Err(StreamError::Source(e)) => Err(bad_input(format!("cannot load the suite: {e}"))),
            Err(StreamError::Pool(e)) => Err(e.into()),
        }
    }

    /// The reference's data versions: the suite's, else (suites recorded before they were
    /// read) those of the installed reference when it is the JDK the suite was recorded on.
    fn reference_data_versions(&self) -> std::collections::BTreeMap<String, String> {
        let header = &self.header;
        if let Some(v) = &header.fingerprint.data_versions {
            return v.clone();
        }
        self.store
            .load(&header.reference)
            .ok()
            .and_then(|spec| self.store.status(&spec).fingerprint)
            .filter(|f| f.differences(&header.fingerprint).is_none())
            .and_then(|f| f.data_versions)
            .unwrap_or_default()
    }

    fn fingerprint_notes(
        &self,
        name: &str,
        fingerprint: &crate::target::Fingerprint,
    ) -> Vec<String> {
        let header = &self.header;
        let mut notes = Vec::new();
        if name == header.reference
            && let Some(change) = fingerprint.differences(&header.fingerprint)
        {
            notes.push(format!(
                "{name} is not the JDK the suite was recorded on: {change}"
            ));
        } else if self.args.no_minimize && name != header.reference {
            // Minimizing would start the reference and note a change; without it, the
            // installed reference's recorded fingerprint (read only) tells.
            let installed = self
                .store
                .load(&header.reference)
                .ok()
                .and_then(|spec| self.store.status(&spec).fingerprint);
            if let Some(change) = installed.and_then(|f| f.differences(&header.fingerprint)) {
                notes.push(format!(
                    "{} is not the JDK the suite was recorded on: {change}",
                    header.reference
                ));
            }
        }
        if header.partial {
            notes.push("the suite is partial (its recording was interrupted)".into());
        }
        notes
    }

    /// Minimizes the groups that are not accepted, on the reference and a fresh target pool.
    fn minimize(
        &mut self,
        lane: &PoolLane,
        tests: &[&Test],
        groups: &mut Vec<Group>,
        notes: &mut Vec<String>,
    ) -> anyhow::Result<()> {
        let target = lane.name.clone();
        let (todo, done): (Vec<Group>, Vec<Group>) = std::mem::take(groups)
            .into_iter()
            .partition(|g| self.accepted.find(&g.callee, g.kind, &target).is_none());
        if !todo.is_empty() {
            let mut todo = todo;
            self.start_reference();
            match self.reference.as_ref().map(|r| r.as_ref().map(Box::as_ref)) {
                Some(Ok(reference)) => {
                    let tgt = lane.start()?;
                    minimize_all(
                        &mut todo,
                        tests,
                        reference,
                        tgt.as_ref(),
                        self.args.minimize_budget,
                    )?;
                }
                Some(Err(why)) => notes.push(format!(
                    "not minimized: the reference would not start: {why}"
                )),
                None => {}
            }
            groups.extend(todo);
        }
        groups.extend(done);
        Ok(())
    }

    /// Starts the reference runner, once per session.
    fn start_reference(&mut self) {
        if self.reference.is_some() {
            return;
        }
        let name = self.header.reference.clone();
        let started = self
            .store
            .load(&name)
            .and_then(|spec| self.store.provision(&spec))
            .map_err(|e| e.to_string())
            .and_then(|p| {
                if let Some(change) = p.fingerprint.differences(&self.header.fingerprint) {
                    self.reference_note = Some(format!(
                        "minimized on {name}, which is not the JDK the suite was recorded on: {change}"
                    ));
                }
                let lane = PoolLane::new(&name, p.jvm, self.config.clone());
                lane.start().map_err(|e| e.to_string())
            });
        self.reference = Some(started);
    }
}

/// The suite file read forward by one replay thread.
struct FileSource {
    reader: SuiteReader,
    entries: Entries,
}

impl Source<SuiteError> for FileSource {
    fn skip_to(&mut self, index: usize) -> Result<bool, SuiteError> {
        self.reader.skip_to(&mut self.entries, index)
    }

    fn next_test(&mut self) -> Result<Option<Test>, SuiteError> {
        self.reader.next_test(&mut self.entries)
    }
}

/// Adds the tests that passed (only their ids were kept) to a report built from the
/// others, in id order, and counts the summary again.
fn add_passes(report: &mut Report, passed: &[u64]) {
    report.tests.extend(passed.iter().map(|&id| TestReport {
        id,
        status: TestStatus::Pass,
        group: None,
        cause: None,
        kind: None,
        label: None,
        callee: None,
        ref_value: None,
        tgt_value: None,
    }));
    report.tests.sort_by_key(|t| t.id);
    let seconds = report.summary.seconds;
    report.summary = summarize(&report.tests, &report.groups, &report.causes, seconds);
}

fn stats(lane: &PoolLane, tests: usize, seconds: f64, jobs: usize) -> Stats {
    let usage = lane.usage();
    let supervisor = peak_rss_self_kib();
    Stats {
        workers_started: usage.workers_started,
        worker_startup_ms: usage.startup_ms,
        timeouts: usage.timeouts,
        crashes: usage.crashes,
        tests_per_second: if seconds > 0.0 {
            tests as f64 / seconds
        } else {
            0.0
        },
        peak_rss_kib_supervisor: supervisor,
        peak_rss_kib_worker_max: usage.worker_peak_rss_kib,
        peak_rss_kib_total: supervisor + usage.worker_peak_rss_kib * jobs as u64,
        ..Stats::default()
    }
}

/// This process's peak RSS (VmHWM), KiB; 0 where /proc is not available.
pub fn peak_rss_self_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
