//! What `record` prints when it is done: one line per pipeline step (generated, reduced,
//! reran, reduced again, written), the coverage table with `--coverage`, and peak memory.

use super::progress::Shown;
use crate::pipeline::record::Recording;
use crate::plural;
use crate::usage::{self_cpu_secs, self_peak_rss_kib};
use std::collections::BTreeMap;
use std::path::Path;

/// `12 callables left out: they need classes missing from the class path, e.g. X`, when
/// `--allow-missing-classes` left any out.
fn left_out_line(rec: &crate::generate::Recorded) -> Option<String> {
    let (_, first) = rec.left_out.iter().next()?;
    let n = rec.left_out.len();
    let (noun, verb) = if n == 1 {
        ("callable", "it needs a class")
    } else {
        ("callables", "they need classes")
    };
    Some(format!(
        "{n} {noun} left out: {verb} missing from the class path, e.g. {}",
        first.missing
    ))
}

/// `3 callables timed out and were not drawn again, e.g. a.B.c(int) (2 calls)`, when any
/// call timed out.
fn timed_out_line(rec: &crate::generate::Recorded) -> Option<String> {
    let (first, calls) = rec.timed_out.iter().max_by_key(|(_, calls)| **calls)?;
    let n = rec.timed_out.len();
    let verb = if n == 1 { "it was" } else { "they were" };
    Some(format!(
        "{} timed out (a twentieth of --timeout each, not counting time the machine's load kept \
         them from a CPU); {verb} not drawn again, e.g. {first} ({})",
        plural(n, "callable"),
        plural(*calls as usize, "call")
    ))
}

/// `2 classes left out of scope: they or their public signatures need classes missing from
/// the class path, e.g. a.B (needs c.D)`, when any were.
pub(crate) fn unloadable_line(unloadable: &BTreeMap<String, String>) -> Option<String> {
    let (class, absent) = unloadable.iter().next()?;
    let n = unloadable.len();
    let verb = if n == 1 {
        "it or its public signatures need a class"
    } else {
        "they or their public signatures need classes"
    };
    Some(format!(
        "{} left out of scope: {verb} missing from the class path, e.g. {class} (needs {absent})",
        plural(n, "class")
    ))
}

/// The summary, in pipeline order: generated → reduced → reran → reduced again → written,
/// each step's count of tests the next one's starting count.
pub fn summary(output: &Path, done: &Recording, shown: &Shown, verbose: bool) {
    let (rec, r) = (&done.rec, &done.reruns);
    let s = &rec.stats;
    let secs = done.generation.as_secs_f64().max(1e-3);
    outln!(
        "generated: {} in {:.1} s ({:.0}/s): {} kept, {} of them lexically redundant; {} in {}, \
         pool of {}, {} from {}{}",
        plural(s.executed as usize, "sequence"),
        secs,
        s.executed as f64 / secs,
        plural((s.kept_normal + s.kept_exceptional) as usize, "test"),
        rec.redundant,
        plural(s.violations as usize, "contract violation"),
        plural(rec.error_groups, "group"),
        plural(rec.pool_values, "value"),
        plural(rec.mined_values, "mined literal"),
        plural(rec.mined_classes, "class"),
        config_keys(rec.config_keys),
    );
    if verbose && s.compactions > 0 {
        outln!(
            "compacted: {}, forgetting {} no pool value reached; at most {} stored",
            plural(s.compactions as usize, "time"),
            plural(s.forgotten as usize, "stored sequence"),
            s.stored_most,
        );
    }
    let rerun_from = shown.rerun_tests.or(shown.reduction.map(|d| d.after));
    if let (Some(d), Some(kept)) = (shown.reduction, rerun_from) {
        outln!(
            "reduced: {} → {kept} that observe every behaviour (--keep-all keeps every test)",
            plural(d.before, "test"),
        );
    }
    if let Some(from) = shown.rerun_tests {
        reran(r, from);
        if r.kept_without_checks > 0 {
            outln!(
                "kept without checks: {} the last rerun left with nothing to check, so replay \
                 runs every test after the same tests as the last rerun did",
                plural(r.kept_without_checks as usize, "test"),
            );
        }
    }
    if let (Some(d), Some(_)) = (shown.reduction, shown.rerun_tests) {
        let left = r.tests_left;
        if left != d.after {
            outln!(
                "reduced again: {left} → {} that observe all {} distinct behaviours",
                plural(d.after, "test"),
                d.behaviours
            );
        }
    }
    let exhausted = done.generation_pool.heap_exhausted;
    if verbose && exhausted > 0 {
        eprintln!(
            "difftest: {} replaced while generating: a sequence ran the heap out, which can \
             leave a JVM unlike a fresh one (a class that failed to initialize, a provider dropped)",
            plural(exhausted as usize, "worker")
        );
    }
    if let Some(line) = left_out_line(rec) {
        outln!("{line}");
    }
    if let Some(line) = timed_out_line(rec) {
        outln!("{line}");
        if verbose {
            for (callee, calls) in &rec.timed_out {
                eprintln!(
                    "difftest: timed out: {callee} ({})",
                    plural(*calls as usize, "call")
                );
            }
        }
    }
    if let Some(line) = unloadable_line(&done.unloadable) {
        outln!("{line}");
        if verbose {
            for (class, absent) in &done.unloadable {
                eprintln!("difftest: left out of scope: {class} (needs {absent})");
            }
        }
    }
    let note = if done.partial {
        " (partial: interrupted)"
    } else {
        ""
    };
    outln!(
        "wrote {}: {}, {} error-revealing{note}",
        output.display(),
        plural(rec.tests.len(), "regression test"),
        rec.errors.len(),
    );
    if let Some(rows) = &done.coverage {
        let folder = crate::pipeline::coverage::folder_for(output);
        outln!(
            "branch coverage of the scope reached by generation (JaCoCo; data in {}):",
            folder.display()
        );
        for line in crate::pipeline::coverage::coverage_lines(rows) {
            outln!("{line}");
        }
        let left = crate::pipeline::coverage::UNMEASURED.join(" and ");
        outln!("  ({left} are never instrumented; see docs/record.md#coverage)");
        if rows.iter().all(|r| r.covered == 0) {
            outln!(
                "  warning: the agent recorded no branch at all: its instrumentation failed on \
                 this scope (see docs/record.md#coverage)"
            );
        }
    }
    outln!(
        "peak RSS: difftest {} MiB (CPU {:.1} s), workers {} MiB while generating, {} MiB while \
         rerunning",
        self_peak_rss_kib() / 1024,
        self_cpu_secs(),
        done.generation_rss_kib / 1024,
        r.workers_peak_kib / 1024,
    );
    if verbose {
        eprintln!("difftest: {}", memory_line(done));
    }
}

/// `memory: …`: generation's structures as estimated when it ended, and this process's
/// resident memory as each phase ended (`record -v`).
fn memory_line(done: &Recording) -> String {
    let mib = |bytes: u64| format!("{:.1}", bytes as f64 / (1024.0 * 1024.0));
    let parts: Vec<String> = done
        .rec
        .footprint
        .parts
        .iter()
        .map(|(name, bytes)| format!("{name} {}", mib(*bytes)))
        .collect();
    let phases: Vec<String> = done
        .memory
        .iter()
        .map(|p| {
            let (peak, end) = (mib(p.peak_kib * 1024), mib(p.end_kib * 1024));
            let secs = p.elapsed.as_secs_f64();
            format!("{} {peak} (end {end}, {secs:.1} s)", p.phase)
        })
        .collect();
    format!(
        "memory (MiB): structures at generation's end (estimated) {} = {}; resident peak per phase (and its wall time) {}",
        parts.join(", "),
        mib(done.rec.footprint.total()),
        phases.join(", ")
    )
}

/// `N tests 2 times`, or `N tests, 2 reruns` when later reruns ran fewer (the next line
/// says how many).
fn what_ran(r: &crate::flakes::RerunReport, from: usize) -> String {
    let tests = plural(from, "test");
    if r.ran_per_rerun.iter().all(|&n| n as usize == from) {
        format!("{tests} {}", plural(r.reruns_done, "time"))
    } else {
        format!("{tests}, {}", plural(r.reruns_done, "rerun"))
    }
}

/// `reran: …` and the curve of unstable values first found per rerun.
fn reran(r: &crate::flakes::RerunReport, from: usize) {
    let unstable: Vec<String> = r
        .most_unstable(5)
        .into_iter()
        .map(|(m, n)| format!("{m} ({n})"))
        .collect();
    outln!(
        "reran: {} in {:.1} s: dropped {} and {}, {} derived from them; {} left with \
         nothing to check → {}; most unstable: {}",
        what_ran(r, from),
        r.elapsed.as_secs_f64(),
        plural(r.dropped_checks as usize, "unstable check"),
        plural(r.dropped_observations as usize, "observation"),
        r.dropped_derived,
        plural(r.dropped_tests as usize, "test"),
        r.tests_left,
        if unstable.is_empty() {
            "none".to_string()
        } else {
            unstable.join(", ")
        },
    );
    flipped(r);
    if r.ran_per_rerun.len() > 1 {
        let per: Vec<String> = (r.ran_per_rerun.iter().zip(&r.time_per_rerun))
            .map(|(n, t)| format!("{n} in {:.1} s", t.as_secs_f64()))
            .collect();
        outln!(
            "tests run by rerun 1, 2, …: {} (after the first, the tests left by reducing again)",
            per.join(", "),
        );
    }
    if !r.new_per_rerun.is_empty() {
        let per: Vec<String> = r.new_per_rerun.iter().map(u64::to_string).collect();
        outln!(
            "unstable values first found by rerun 1, 2, …: {}",
            per.join(", ")
        );
    }
}

/// Tests of one callee, at least, whose outcome flipped one way between runs (threw, then
/// returned; or the reverse) before the record says that JVM-wide state may be at fault.
const FLIPS_NAMED: u64 = 20;

/// `threw in one run and returned in another: …`, naming the calls whose outcome flipped one
/// way in many tests: usually an earlier test in the generation worker changed JVM-wide state they
/// depend on (joda-time's zone provider replaced: every later lookup threw), and what
/// changed it belongs on the omit list.
fn flipped(r: &crate::flakes::RerunReport) {
    let flipped: Vec<String> = (r.most_flipped(3, FLIPS_NAMED).into_iter())
        .map(|(m, n)| format!("{m} ({n})"))
        .collect();
    if !flipped.is_empty() {
        outln!(
            "threw in one run and returned in another: {}; when a call does so in many tests, \
             an earlier test probably changed JVM-wide state it depends on (a default, a \
             provider, a registry): --omit the call that changes it (docs/record.md)",
            flipped.join(", ")
        );
    }
}

/// The configuration keys of the summary's `generated:` line, when there are any.
fn config_keys(n: usize) -> String {
    match n {
        0 => String::new(),
        n => format!(", {}", plural(n, "configuration key")),
    }
}
