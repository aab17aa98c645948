//! The wall clock of a worker's JVM, moved by a fixed amount when the supervisor asks
//! (`JvmSpec::clock_shift_ms`). A value that depends on the date or the time of day — a
//! clock that ticks in 8-minute steps, today's date, whether a certificate is still valid —
//! is the same in every run of a record taken within minutes, yet not when the suite is
//! replayed next week; record's reruns run with a shifted clock so that such values change
//! and are dropped, whatever computed them (the JDK or a library).
//!
//! How: this binary defines `clock_gettime` itself and exports it (`build.rs` of the
//! `difftest` package), so the libjvm it loads calls this one, which calls the C library's
//! and adds the shift to `CLOCK_REALTIME` readings. Monotonic clocks, which time-outs and
//! the JIT use, are never moved. With no shift set it only forwards the call. A JVM that
//! reads the time another way is not moved: [`check`] compares what Java sees with the
//! shifted time and the worker says so at start-up.

use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering::Relaxed};

type ClockGettime = unsafe extern "C" fn(libc::clockid_t, *mut libc::timespec) -> libc::c_int;

/// Nanoseconds added to `CLOCK_REALTIME` readings (0: none).
static SHIFT_NANOS: AtomicI64 = AtomicI64::new(0);
/// The C library's `clock_gettime`, looked up on first use (0: not yet).
static REAL: AtomicUsize = AtomicUsize::new(0);

/// Moves this process's wall clock by `ms` milliseconds (negative: into the past).
pub(crate) fn shift(ms: i64) {
    SHIFT_NANOS.store(ms.saturating_mul(1_000_000), Relaxed);
}

/// The unshifted wall clock, in milliseconds since the epoch.
pub(crate) fn real_millis() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { real()(libc::CLOCK_REALTIME, &mut ts) };
    ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}

/// `None` if the JVM's `System.currentTimeMillis()` (`java_millis`, read between
/// `before` and now) shows the shift asked for; otherwise why not, as a warning.
pub(crate) fn check(java_millis: i64, before: i64) -> Option<String> {
    let wanted = SHIFT_NANOS.load(Relaxed) / 1_000_000;
    if wanted == 0 {
        return None;
    }
    let after = real_millis();
    let moved = (before + wanted - 1000..=after + wanted + 1000).contains(&java_millis);
    (!moved).then(|| {
        format!(
            "wall clock: the JVM does not read the shifted clock (asked {wanted} ms, it is \
             {} ms off); values that depend on the date may reach the suite",
            java_millis - before
        )
    })
}

fn real() -> ClockGettime {
    let mut found = REAL.load(Relaxed);
    if found == 0 {
        // SAFETY: a lookup of a C library function by a NUL-terminated name.
        let next = unsafe { libc::dlsym(libc::RTLD_NEXT, c"clock_gettime".as_ptr()) };
        found = if next.is_null() {
            by_syscall as *const () as usize
        } else {
            next as usize
        };
        REAL.store(found, Relaxed);
    }
    // SAFETY: `found` is either the C library's `clock_gettime` or `by_syscall`, both of
    // this type.
    unsafe { std::mem::transmute::<usize, ClockGettime>(found) }
}

/// `clock_gettime` by system call, where the C library's cannot be found.
unsafe extern "C" fn by_syscall(clock: libc::clockid_t, ts: *mut libc::timespec) -> libc::c_int {
    // SAFETY: the caller passes a valid timespec pointer, as for `clock_gettime`.
    unsafe { libc::syscall(libc::SYS_clock_gettime, clock, ts) as libc::c_int }
}

/// The `clock_gettime` every caller in this process reaches, the JVM included: the C
/// library's, with the shift added to the wall clock's readings.
///
/// # Safety
/// As the C function: `ts` must point to a writable `timespec`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clock_gettime(
    clock: libc::clockid_t,
    ts: *mut libc::timespec,
) -> libc::c_int {
    // SAFETY: forwarded as given.
    let rc = unsafe { real()(clock, ts) };
    let shift = SHIFT_NANOS.load(Relaxed);
    let wall = clock == libc::CLOCK_REALTIME || clock == libc::CLOCK_REALTIME_COARSE;
    if rc == 0 && shift != 0 && wall && !ts.is_null() {
        // SAFETY: the call succeeded, so `ts` is a valid timespec.
        unsafe { add(&mut *ts, shift) };
    }
    rc
}

fn add(ts: &mut libc::timespec, nanos: i64) {
    let total = ts.tv_nsec + nanos % 1_000_000_000;
    ts.tv_sec += nanos / 1_000_000_000 + total.div_euclid(1_000_000_000);
    ts.tv_nsec = total.rem_euclid(1_000_000_000);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shift_carries_nanoseconds_into_seconds_both_ways() {
        let mut ts = libc::timespec {
            tv_sec: 100,
            tv_nsec: 900_000_000,
        };
        add(&mut ts, 200_000_000);
        assert_eq!((ts.tv_sec, ts.tv_nsec), (101, 100_000_000));
        add(&mut ts, -1_300_000_000);
        assert_eq!((ts.tv_sec, ts.tv_nsec), (99, 800_000_000));
    }
}
