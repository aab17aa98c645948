//! Resource usage from `/proc`: a process's resident set size now and at its peak, the
//! data segment the worker's sandbox bounds, this process's CPU time, and how long a
//! thread waited for a CPU. Zero or `None` where `/proc` cannot be read.

/// Caps glibc's malloc at two arenas. glibc gives threads arenas of their own and keeps what
/// is freed in each; replay runs passes of fresh threads (the readers, then the
/// confirmation's, then one that reads the examples), and what one pass freed in its arenas
/// was not reused by the next: the 4x suite's supervisor peaked at 511 MiB, 328 MiB capped.
/// Since mimalloc became the global allocator (`main.rs`), glibc's malloc serves only the C
/// code linked in (zstd's buffers); the cap stays for it. Workers (a JVM each) are not
/// capped. No-op off glibc.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// mimalloc's `purge_delay` option (its index in `mi_option_t`, the same in mimalloc 2
/// and 3).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Has mimalloc give a freed page back to the system at once. By default (mimalloc 3) it
/// waits a second, and only a thread that calls into the allocator after that second
/// gives back what it freed: the threads that parse a round's answers and then block
/// for the next round kept their pages, and a long record's resident set ran about 25 MiB
/// above what it had allocated. Called by the supervisor before its threads start; the
/// workers keep the default.
pub fn purge_freed_pages_at_once() {
    // SAFETY: sets one numeric option, before any other thread exists.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
}

/// Gives the whole pages the allocators hold free back to the system: mimalloc's (the
/// binary's global allocator) and glibc's, which the C libraries linked in still use. glibc
/// returns only the top of an arena by itself; the free pages inside stay resident, and a
/// replay's segments free most of what they take (after the first pass over a
/// 150,000-test suite, 66 MiB of arena held 7 MiB in use). Called after each segment and
/// each pass.
pub fn release_free_memory() {
    // SAFETY: mi_collect only walks mimalloc's own heaps (a no-op where it is not the global
    // allocator, as in unit tests).
    unsafe {
        libmimalloc_sys::mi_collect(true);
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks malloc's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The peak resident set size (`VmHWM`) of this process, in KiB; 0 when unknown.
pub fn self_peak_rss_kib() -> u64 {
    peak_rss_kib("self").unwrap_or(0)
}

/// The peak resident set size (`VmHWM`) of process `pid` (or `self`), in KiB.
pub fn peak_rss_kib(pid: impl std::fmt::Display) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status_kib(&status, "VmHWM:")
}

/// The size of this process's data segment (`VmData`), in KiB.
pub fn self_data_kib() -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| e.to_string())?;
    status_kib(&status, "VmData:").ok_or_else(|| "no VmData in /proc/self/status".into())
}

/// The resident set size of process `pid` now, in KiB.
pub fn rss_kib(pid: impl std::fmt::Display) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    Some(pages * page / 1024)
}

/// CPU time (user and system) this process used, in seconds; 0 when unknown.
pub fn self_cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    stat_ticks(&stat) / hz
}

/// How long thread `tid` of process `pid` has waited, runnable, for a CPU since it
/// started (the second field of `/proc/PID/task/TID/schedstat`): the time a loaded machine
/// took from it. `None` where the kernel does not keep it or the thread is gone.
pub fn thread_cpu_wait(pid: u32, tid: u32) -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")).ok()?;
    schedstat_wait(&stat)
}

/// The run-queue wait of a `schedstat` line: "run_ns wait_ns timeslices".
fn schedstat_wait(stat: &str) -> Option<std::time::Duration> {
    let nanos = stat.split_whitespace().nth(1)?.parse().ok()?;
    Some(std::time::Duration::from_nanos(nanos))
}

/// The value in KiB of the `/proc/PID/status` line that starts with `key`.
fn status_kib(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find_map(|l| l.strip_prefix(key))?;
    line.split_whitespace().next()?.parse().ok()
}

/// User plus system clock ticks from `/proc/PID/stat` (fields 14 and 15; the command name
/// in parentheses may hold spaces, so fields are counted after its closing parenthesis).
fn stat_ticks(stat: &str) -> f64 {
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    ticks(11) + ticks(12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_set_is_mimallocs_purge_delay() {
        // mimalloc 3's purge delay defaults to 1,000 ms; any other default means the option
        // numbers moved with a new mimalloc, and `MI_OPTION_PURGE_DELAY` names another.
        // SAFETY: reads one option.
        let default = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(default, 1000);
        purge_freed_pages_at_once();
        // SAFETY: as above.
        assert_eq!(
            unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) },
            0
        );
    }

    #[test]
    fn status_lines_are_read_in_kib() {
        let status = "Name:\tx\nVmPeak:\t  900 kB\nVmHWM:\t  1234 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(status_kib(status, "VmHWM:"), Some(1234));
        assert_eq!(status_kib(status, "VmSwap:"), None);
    }

    #[test]
    fn ticks_are_counted_after_the_command_name() {
        let stat = "42 (a) b) S 1 2 3 4 5 6 7 8 9 10 300 45 0 0";
        assert_eq!(stat_ticks(stat), 345.0);
        assert!(self_peak_rss_kib() > 0, "this test process has a peak RSS");
        assert!(rss_kib("self").is_some());
    }

    #[test]
    fn a_thread_s_wait_for_a_cpu_is_the_second_schedstat_field() {
        let wait = schedstat_wait("26346952 17019119 79\n");
        assert_eq!(wait, Some(std::time::Duration::from_nanos(17019119)));
        assert_eq!(schedstat_wait("12"), None);
        let pid = std::process::id();
        // SAFETY: gettid has no preconditions.
        let tid = unsafe { libc::gettid() } as u32;
        assert!(
            thread_cpu_wait(pid, tid).is_some(),
            "this thread's schedstat"
        );
        assert!(thread_cpu_wait(pid, u32::MAX).is_none());
    }
}
