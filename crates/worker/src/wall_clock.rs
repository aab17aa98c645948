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
//!
//! A wait until a wall-clock deadline (`LockSupport.parkUntil`, which an idle fork-join
//! worker uses to retire after its keep-alive) reaches the kernel as an absolute time on
//! the real clock, computed from the moved one: a deadline moved into the past ends the
//! wait at once, and the waiter spins (a whole core per idle pool thread, measured). So this
//! binary defines `pthread_cond_timedwait` too, and takes the shift back out of a deadline
//! on the wall clock before the C library's waits on it. A deadline on the monotonic clock
//! (every relative wait of the JVM) counts from boot, far below any wall-clock time since
//! [`WALL_CLOCK_FLOOR`], and is left as it is.

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

/// Seconds since the epoch below which a deadline is not on the wall clock (2001-09-09): a
/// monotonic deadline is the time since boot.
const WALL_CLOCK_FLOOR: libc::time_t = 1_000_000_000;

type CondTimedwait = unsafe extern "C" fn(
    *mut libc::pthread_cond_t,
    *mut libc::pthread_mutex_t,
    *const libc::timespec,
) -> libc::c_int;

/// The C library's `pthread_cond_timedwait`, looked up on first use (0: not yet).
static REAL_TIMEDWAIT: AtomicUsize = AtomicUsize::new(0);

/// The `pthread_cond_timedwait` every caller in this process reaches, the JVM included: the
/// C library's, with the shift taken out of a deadline on the wall clock (see the module
/// comment).
///
/// # Safety
/// As the C function: valid condition variable, locked mutex and deadline.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pthread_cond_timedwait(
    cond: *mut libc::pthread_cond_t,
    mutex: *mut libc::pthread_mutex_t,
    abstime: *const libc::timespec,
) -> libc::c_int {
    let real = real_timedwait();
    let shift = SHIFT_NANOS.load(Relaxed);
    // SAFETY: the caller passes a valid deadline or null.
    let deadline = unsafe { abstime.as_ref() };
    match deadline.filter(|d| shift != 0 && on_wall_clock(d)) {
        Some(d) => {
            let mut unshifted = *d;
            add(&mut unshifted, shift.saturating_neg());
            // SAFETY: forwarded as given, with a deadline of our own that outlives the call.
            unsafe { real(cond, mutex, &unshifted) }
        }
        // SAFETY: forwarded as given.
        None => unsafe { real(cond, mutex, abstime) },
    }
}

/// Whether `deadline` is a valid time on the wall clock (an invalid one is passed on as
/// it is, for the C library to refuse).
fn on_wall_clock(deadline: &libc::timespec) -> bool {
    deadline.tv_sec >= WALL_CLOCK_FLOOR && (0..1_000_000_000).contains(&deadline.tv_nsec)
}

fn real_timedwait() -> CondTimedwait {
    let mut found = REAL_TIMEDWAIT.load(Relaxed);
    if found == 0 {
        // SAFETY: a lookup of a C library function by a NUL-terminated name; the default
        // version is the one a program linked today calls.
        let next = unsafe { libc::dlsym(libc::RTLD_NEXT, c"pthread_cond_timedwait".as_ptr()) };
        assert!(
            !next.is_null(),
            "the C library has no pthread_cond_timedwait"
        );
        found = next as usize;
        REAL_TIMEDWAIT.store(found, Relaxed);
    }
    // SAFETY: `found` is the C library's `pthread_cond_timedwait`, of this type.
    unsafe { std::mem::transmute::<usize, CondTimedwait>(found) }
}

/// Adds `nanos` to `ts`, the seconds saturating (a caller's deadline may be far off).
fn add(ts: &mut libc::timespec, nanos: i64) {
    let total = ts.tv_nsec + nanos % 1_000_000_000;
    let carry = nanos / 1_000_000_000 + total.div_euclid(1_000_000_000);
    ts.tv_sec = ts.tv_sec.saturating_add(carry);
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
        let mut far = libc::timespec {
            tv_sec: libc::time_t::MAX - 1,
            tv_nsec: 0,
        };
        add(&mut far, 69_120_000_000_000_000);
        assert_eq!(far.tv_sec, libc::time_t::MAX, "saturates, never wraps");
    }

    #[test]
    fn only_valid_deadlines_on_the_wall_clock_are_moved_back() {
        let at = |tv_sec, tv_nsec| libc::timespec { tv_sec, tv_nsec };
        assert!(on_wall_clock(&at(1_764_000_000, 5)), "a date of 2025");
        assert!(
            !on_wall_clock(&at(21_000, 5)),
            "seconds since boot: monotonic"
        );
        assert!(
            !on_wall_clock(&at(1_764_000_000, 1_000_000_000)),
            "invalid nanoseconds"
        );
        assert!(
            !on_wall_clock(&at(1_764_000_000, -1)),
            "invalid nanoseconds"
        );
    }
}
