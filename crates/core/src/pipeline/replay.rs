//! The replay pipeline: checks the suite whole before any JVM starts, then for each target
//! replays it as it is read (keeping only the tests that do not pass), groups the
//! differences, minimizes those not accepted on the reference (started once, on first use),
//! applies the accepted list, and builds and writes the target's report.

use super::Error;
use crate::pool::{Executor, Lane, PoolConfig, PoolLane};
use crate::replay::stream::{Source, StreamError, Streamed, Wanted, replay_stream, wants};
use crate::replay::{ReplayOptions, Shard, first_pass_segment};
use crate::report::assemble::{Context, add_passes, build};
use crate::report::{Implementation, Options, Report, Stats};
use crate::suite::blocks::BlockPool;
use crate::suite::entries::Entries;
use crate::suite::file::SuiteFile;
use crate::suite::read::{SuiteReader, verify};
use crate::suite::{Header, SuiteError, Test};
use crate::targets::{Fingerprint, TargetStore};
use crate::triage::accepted::{AcceptedList, path_for};
use crate::triage::{Examples, Group, group, minimize::minimize_all};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `replay` will do, besides the suite (see [`Session::open`]).
#[derive(Clone)]
pub struct Plan {
    /// Targets to replay on, in order; repeats are replayed once.
    pub impls: Vec<String>,
    /// Where each target's reports go.
    pub report_dir: PathBuf,
    /// The part of the suite replayed (`--shard K/N`), else all of it.
    pub shard: Option<Shard>,
    /// Reruns of failing tests on fresh workers.
    pub confirm: u32,
    /// Tests per fresh JVM.
    pub segment: usize,
    /// Whether exception messages count as differences.
    pub strict_messages: bool,
    /// Minimize an example test per group not accepted (starts the reference).
    pub minimize: bool,
    /// Candidate runs per group when minimizing.
    pub minimize_budget: u32,
}

/// What a replay tells as it goes; every method does nothing unless overridden. Called from
/// the replay threads, so shared.
pub trait Progress: Sync {
    /// Replay on `target` starts (it is provisioned), `tests` tests to run.
    fn replaying(&self, _target: &str, _tests: usize) {}
    /// `done` of `tests` tests ran, `elapsed` since the target's replay began.
    fn replayed(&self, _done: usize, _tests: usize, _elapsed: Duration) {}
    /// Every test ran on the target.
    fn replay_done(&self, _tests: usize) {}
    /// A target's report files were written.
    fn wrote(&self, _paths: &[PathBuf]) {}
}

/// A checked suite and everything shared by its replays on several targets.
pub(crate) struct Session {
    plan: Plan,
    header: Header,
    suite_path: PathBuf,
    /// The suite's one open: every read of the replay goes through it.
    file: SuiteFile,
    /// Regression tests in the replayed shard (all of them without a shard).
    total: usize,
    store: TargetStore,
    config: PoolConfig,
    accepted: AcceptedList,
    /// The reference executor for minimization, started on first use (or why it could not be).
    reference: Option<Result<Box<dyn Executor>, String>>,
    /// Set when the reference's JDK is no longer the one the suite was recorded on.
    reference_note: Option<String>,
    load_seconds: f64,
}

/// A suite checked whole (end line, counts, checksums, duplicate ids) before any JVM starts.
pub struct Checked {
    file: SuiteFile,
    header: Header,
    total: usize,
    load_seconds: f64,
}

impl Checked {
    /// Opens the suite at `path` (once: the replay reads only what is checked here) and
    /// checks it, counting the tests of `shard`; anything wrong is bad input, and so is a
    /// suite without a regression test, which would pass any gate.
    pub fn open(path: &Path, shard: Option<Shard>) -> Result<Checked, Error> {
        let loading = Instant::now();
        let file = SuiteFile::open(path).map_err(cannot_load)?;
        let verified =
            verify(&file, |id| shard.is_none_or(|s| s.contains(id))).map_err(cannot_load)?;
        if verified.tests == 0 {
            return Err(Error::BadInput(format!(
                "{}: the suite holds no test, so a replay of it checks nothing; record it again \
                 with a wider scope or a longer time limit",
                path.display()
            )));
        }
        Ok(Checked {
            file,
            header: verified.header,
            total: verified.selected,
            load_seconds: loading.elapsed().as_secs_f64(),
        })
    }
}

/// A suite that cannot be read is bad input, unless it changed under a replay that had
/// checked it: then the run is broken (exit code 3), and the error says so.
fn cannot_load(e: SuiteError) -> Error {
    if e.is_change() {
        return Error::Suite(e);
    }
    Error::BadInput(format!("cannot load the suite: {e}"))
}

/// Replays the checked suite on every target of `plan`, writing each report as it is done.
/// Unknown targets and a broken accepted list are refused before any JVM starts.
pub fn replay(
    suite: Checked,
    plan: Plan,
    store: TargetStore,
    mut config: PoolConfig,
    progress: &dyn Progress,
) -> Result<Vec<Report>, Error> {
    // Values are answered as they were when the suite was recorded, so each compares with
    // its recorded form.
    crate::replay::answer_as_recorded(&suite.header, &mut config)
        .map_err(|e| Error::BadInput(format!("{}: {e}", suite.file.path().display())))?;
    let mut impls: Vec<String> = Vec::new();
    for name in &plan.impls {
        store.load(name)?; // an unknown target is bad input, before any JVM starts
        if !impls.contains(name) {
            impls.push(name.clone());
        }
    }
    let suite_path = suite.file.path().to_path_buf();
    let accepted =
        AcceptedList::load(&path_for(&suite_path)).map_err(|e| Error::BadInput(e.to_string()))?;
    // Ctrl-C or SIGTERM stops every run at once: the pools kill their workers (whose
    // working folders go with them) and the replay fails as interrupted, writing no report.
    crate::interrupt::install().map_err(Error::Signals)?;
    config.abort = Some(&crate::interrupt::FIRST);
    let mut session = Session {
        plan,
        header: suite.header,
        suite_path,
        file: suite.file,
        total: suite.total,
        store,
        config,
        accepted,
        reference: None,
        reference_note: None,
        load_seconds: suite.load_seconds,
    };
    let mut reports = Vec::new();
    for name in impls {
        let report = session.replay_target(&name, progress)?;
        progress.wrote(&report.write_all(&session.plan.report_dir)?);
        reports.push(report);
    }
    Ok(reports)
}

impl Session {
    /// Replays the session's tests on one target and builds its report.
    fn replay_target(&mut self, name: &str, progress: &dyn Progress) -> Result<Report, Error> {
        let began = Instant::now();
        let spec = self.store.load(name)?;
        let provisioned = self.store.provision(&spec)?;
        let lane = PoolLane::new(name, provisioned.jvm.clone(), self.config.clone());
        let options = ReplayOptions {
            confirm: self.plan.confirm,
            segment: first_pass_segment(self.total, self.plan.segment),
        };
        progress.replaying(name, self.total);
        let streamed = self.stream(&lane, &options, &|done| {
            progress.replayed(done, self.total, began.elapsed())
        })?;
        progress.replay_done(self.total);
        let replay_seconds = began.elapsed().as_secs_f64();
        let outcomes = &streamed.outcomes;
        let mut groups = group(&streamed.kept, outcomes);
        let tests = self.read_examples(&groups)?;
        crate::usage::release_free_memory(); // what the examples' reader held
        let examples: Examples = tests.iter().map(|t| (t.id, t)).collect();
        let mut notes = self.fingerprint_notes(name, &provisioned.fingerprint);
        let minimizing = Instant::now();
        if self.plan.minimize {
            self.minimize(&lane, &examples, &mut groups, &mut notes)?;
        }
        let minimize_seconds = minimizing.elapsed().as_secs_f64();
        notes.extend(self.reference_note.clone());
        if self.plan.shard.is_some() && !self.accepted.accepted.is_empty() {
            notes.push("one shard replayed: stale accepted entries are final only after `difftest report --merge`".into());
        }
        let seconds = began.elapsed().as_secs_f64();
        let times = Times {
            seconds,
            replay: replay_seconds,
            minimize: minimize_seconds,
        };
        let stats = stats(&lane, streamed.total(), seconds, self.config.jobs);
        let mut context = self.context(name, &provisioned.fingerprint, times, stats, notes);
        context.dependencies = crate::targets::dependency::changes(
            self.header
                .fingerprint
                .classpath
                .as_deref()
                .unwrap_or_default(),
            provisioned
                .fingerprint
                .classpath
                .as_deref()
                .unwrap_or_default(),
            &provisioned.jvm.classpath,
        );
        context
            .notes
            .extend(context.dependencies.iter().filter_map(|d| {
                let why = d.unread.as_ref()?;
                Some(format!(
                    "dependency {}: classes not read, no test attributed to it: {why}",
                    d.change()
                ))
            }));
        let mut report = build(context, &streamed.kept, outcomes, &groups, &examples);
        add_passes(&mut report, &streamed.passed);
        Ok(report)
    }

    /// What the report of `name` is built from.
    fn context(
        &self,
        name: &str,
        fingerprint: &Fingerprint,
        times: Times,
        stats: Stats,
        notes: Vec<String>,
    ) -> Context<'_> {
        Context {
            reference: Implementation {
                name: self.header.reference.clone(),
                fingerprint: Some(self.header.fingerprint.one_line()),
                data_versions: self.reference_data_versions(),
            },
            target: Implementation {
                name: name.to_string(),
                fingerprint: Some(fingerprint.one_line()),
                data_versions: fingerprint.data_versions.clone().unwrap_or_default(),
            },
            suite: self.suite_path.display().to_string(),
            shard: self.plan.shard,
            options: Options {
                strict_messages: self.plan.strict_messages,
                confirm: self.plan.confirm,
                jobs: self.config.jobs,
                minimize_budget: self.plan.minimize_budget,
                segment: self.plan.segment,
                max_value_bytes: self.config.max_value_bytes,
                plain_class_text: self.config.plain_class_text,
            },
            accepted: &self.accepted,
            seconds: times.seconds,
            stats: Stats {
                load_seconds: self.load_seconds,
                replay_seconds: times.replay,
                minimize_seconds: times.minimize,
                ..stats
            },
            notes,
            dependencies: Vec::new(),
        }
    }

    /// Replays the suite on `lane` as it is read from the file, by each thread.
    fn stream(
        &self,
        lane: &PoolLane,
        options: &ReplayOptions,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<Streamed, Error> {
        let (file, shard) = (&self.file, self.plan.shard);
        let pool = Arc::new(BlockPool::default());
        let open = |wanted| FileSource::open(file, shard, wanted, Some(pool.clone()));
        let streamed = match replay_stream(&open, lane, options, progress) {
            Ok(streamed) => streamed,
            Err(StreamError::Source(e)) => return Err(self.read_failed(e)),
            Err(StreamError::Pool(e)) => return Err(e.into()),
            Err(StreamError::Lost { lost }) => return Err(self.lost(lost)),
        };
        if streamed.total() != self.total {
            return Err(self.lost(self.total.abs_diff(streamed.total())));
        }
        Ok(streamed)
    }

    /// A read of the suite that failed: the file changed since it was checked, if it did
    /// (exit code 3), else what the reader found.
    fn read_failed(&self, e: SuiteError) -> Error {
        match self.file.unchanged() {
            Err(changed) => Error::Suite(changed),
            Ok(()) => cannot_load(e),
        }
    }

    /// `lost` tests the replay had counted or read were not found again: the suite is not
    /// what was checked, whatever its size and time say (exit code 3), never a result.
    fn lost(&self, lost: usize) -> Error {
        Error::Suite(SuiteError::Changed {
            path: self.suite_path.clone(),
            what: format!("{lost} tests checked or read before were not found again"),
        })
    }

    /// The groups' example tests and their alternates, read again from the suite (a replay
    /// keeps no test).
    fn read_examples(&self, groups: &[Group]) -> Result<Vec<Test>, Error> {
        let alternates = groups.iter().flat_map(|g| g.alternates.iter().map(|a| a.0));
        let mut ids: Vec<u64> = groups.iter().map(|g| g.example).chain(alternates).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let wanted = ids.len();
        let mut source = FileSource::open(&self.file, self.plan.shard, Some(ids.into()), None)
            .map_err(|e| self.read_failed(e))?;
        let mut tests = Vec::with_capacity(wanted);
        while let Some(t) = source.next_test().map_err(|e| self.read_failed(e))? {
            tests.push(t);
        }
        if tests.len() != wanted {
            return Err(self.lost(wanted - tests.len()));
        }
        Ok(tests)
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

    fn fingerprint_notes(&self, name: &str, fingerprint: &Fingerprint) -> Vec<String> {
        let header = &self.header;
        let mut notes = Vec::new();
        if name == header.reference
            && let Some(change) = fingerprint.differences(&header.fingerprint)
        {
            notes.push(format!(
                "{name} is not the JDK the suite was recorded on: {change}"
            ));
        } else if !self.plan.minimize && name != header.reference {
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
        examples: &Examples,
        groups: &mut Vec<Group>,
        notes: &mut Vec<String>,
    ) -> Result<(), Error> {
        let target = lane.name.clone();
        let (todo, done): (Vec<Group>, Vec<Group>) = std::mem::take(groups)
            .into_iter()
            .partition(|g| self.accepted.find(&g.id, &target).is_none());
        if !todo.is_empty() {
            let mut todo = todo;
            self.start_reference();
            match self.reference.as_ref().map(|r| r.as_ref().map(Box::as_ref)) {
                Some(Ok(reference)) => {
                    let tgt = lane.start()?;
                    minimize_all(
                        &mut todo,
                        examples,
                        reference,
                        tgt.as_ref(),
                        self.plan.minimize_budget,
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

/// Wall times of one target's replay, in seconds.
struct Times {
    seconds: f64,
    replay: f64,
    minimize: f64,
}

/// The suite file read forward by one replay thread: the tests of the shard that `wanted`
/// takes; those it does not are skipped without being parsed.
struct FileSource {
    reader: SuiteReader,
    entries: Entries,
    /// Index (among the tests given) of the next test.
    at: usize,
}

impl FileSource {
    /// The tests of `path` in `shard` that `wanted` takes, sharing blocks through `pool`
    /// with the other threads' sources.
    fn open(
        file: &SuiteFile,
        shard: Option<Shard>,
        wanted: Wanted,
        pool: Option<Arc<BlockPool>>,
    ) -> Result<FileSource, SuiteError> {
        let path = file.path();
        let mut reader = SuiteReader::of(file)?;
        reader.filter(Box::new(move |id| {
            shard.is_none_or(|s| s.contains(id)) && wants(&wanted, id)
        }));
        let entries = match pool {
            Some(pool) => Entries::sharing(path, pool),
            None => Entries::new(path),
        };
        Ok(FileSource {
            reader,
            entries,
            at: 0,
        })
    }
}

impl Source<SuiteError> for FileSource {
    fn skip_to(&mut self, index: usize) -> Result<bool, SuiteError> {
        self.at = index;
        self.reader.skip_to(&mut self.entries, index)
    }

    fn next_test(&mut self) -> Result<Option<Test>, SuiteError> {
        if !self.reader.skip_to(&mut self.entries, self.at)? {
            return Ok(None);
        }
        self.at += 1;
        self.reader.next_test(&mut self.entries)
    }
}

fn stats(lane: &PoolLane, tests: usize, seconds: f64, jobs: usize) -> Stats {
    let usage = lane.usage();
    let supervisor = crate::usage::self_peak_rss_kib();
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
