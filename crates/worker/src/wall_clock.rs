//! The wall clock of a worker's JVM, moved by a fixed amount and run faster than real time
//! when the supervisor asks (`JvmSpec::clock_shift_ms`, `JvmSpec::clock_rate`). A value
//! that depends on the date or the time of day — a clock that ticks in 8-minute steps,
//! today's date, whether a certificate is still valid — is the same in every run of a
//! record taken within minutes, yet not when the suite is replayed next week; a value that
//! depends on how much wall-clock time passed between two calls at millisecond grain (an
//! object's age, whether a second has ended) is the same in warm workers that take
//! microseconds between calls, yet not in replay's cold ones. Record's reruns run with a
//! shifted clock that runs faster ([`RATE`]), so that such values change and are
//! dropped, whatever computed them (the JDK or a library).
//!
//! How: this binary defines `clock_gettime` itself and exports it (`build.rs` of the
//! `difftest` package), so the libjvm it loads calls this one, which calls the C library's
//! and moves `CLOCK_REALTIME` readings: a reading `t` becomes `origin + shift + rate × (t -
//! origin)`, `origin` being the real time when the clock was set. Monotonic clocks, which
//! time-outs, sleeps and the JIT use, are never moved. Unset, it only forwards the call. A
//! JVM that reads the time another way is not moved: [`check`] compares what Java sees with
//! the moved time and the worker says so at start-up.
//!
//! A wait until a wall-clock deadline (`LockSupport.parkUntil`, which an idle fork-join
//! worker uses to retire after its keep-alive) reaches the kernel as an absolute time on
//! the real clock, computed from the moved one: a deadline moved into the past ends the
//! wait at once, and the waiter spins (a whole core per idle pool thread, measured). So this
//! binary defines `pthread_cond_timedwait` too, and maps a deadline on the wall clock back
//! to real time before the C library's waits on it (a wait of `d` on a clock that runs
//! `rate` times faster lasts `d / rate`). A deadline on the monotonic clock
//! (every relative wait of the JVM) counts from boot, far below any wall-clock time since
//! [`WALL_CLOCK_FLOOR`], and is left as it is.

use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering::Relaxed};

type ClockGettime = unsafe extern "C" fn(libc::clockid_t, *mut libc::timespec) -> libc::c_int;

/// Nanoseconds added to `CLOCK_REALTIME` readings (0: none).
static SHIFT_NANOS: AtomicI64 = AtomicI64::new(0);
/// How many times faster than real time the moved clock runs (1: as fast).
static RATE: AtomicI64 = AtomicI64::new(1);
/// The real wall-clock time, in nanoseconds since the epoch, from which the clock runs at
/// [`RATE`].
static ORIGIN_NANOS: AtomicI64 = AtomicI64::new(0);
/// The C library's `clock_gettime`, looked up on first use (0: not yet).
static REAL: AtomicUsize = AtomicUsize::new(0);

/// Moves this process's wall clock by `shift_ms` milliseconds (negative: into the past)
/// and makes it run `rate` times faster than real time from now on (1, or 0: as fast).
pub(crate) fn set(shift_ms: i64, rate: u32) {
    ORIGIN_NANOS.store(nanos(&real_now()) as i64, Relaxed);
    RATE.store(i64::from(rate.max(1)), Relaxed);
    SHIFT_NANOS.store(shift_ms.saturating_mul(1_000_000), Relaxed);
}

/// Whether the clock is moved at all (shifted or sped up).
pub(crate) fn is_set() -> bool {
    SHIFT_NANOS.load(Relaxed) != 0 || RATE.load(Relaxed) != 1
}

/// How the wall clock is moved: `origin + shift + (t - origin) * rate` for a real time `t`
/// (nanoseconds since the epoch).
#[derive(Clone, Copy, Debug)]
struct Motion {
    origin: i128,
    shift: i128,
    rate: i128,
}

impl Motion {
    /// The motion [`set`] asked for.
    fn current() -> Motion {
        Motion {
            origin: ORIGIN_NANOS.load(Relaxed).into(),
            shift: SHIFT_NANOS.load(Relaxed).into(),
            rate: RATE.load(Relaxed).max(1).into(),
        }
    }

    /// The moved reading of the real time `real`.
    fn moved(self, real: i128) -> i128 {
        self.origin + self.shift + (real - self.origin) * self.rate
    }

    /// The real time at which the moved clock reads `reading`: [`Motion::moved`] undone.
    fn unmoved(self, reading: i128) -> i128 {
        self.origin + (reading - self.origin - self.shift).div_euclid(self.rate)
    }
}

fn real_now() -> libc::timespec {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { real()(libc::CLOCK_REALTIME, &mut ts) };
    ts
}

/// The real wall clock, in milliseconds since the epoch.
pub(crate) fn real_millis() -> i64 {
    let ts = real_now();
    ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}

/// `None` if the JVM's `System.currentTimeMillis()` (`java_millis`, read between real
/// time `before` and now) shows the moved clock; otherwise why not, as a warning.
pub(crate) fn check(java_millis: i64, before: i64) -> Option<String> {
    if !is_set() {
        return None;
    }
    let after = real_millis();
    let motion = Motion::current();
    let moved_ms = |ms: i64| (motion.moved(i128::from(ms) * 1_000_000) / 1_000_000) as i64;
    let (from, to) = (moved_ms(before), moved_ms(after + 1));
    let seen = (from - 1000..=to + 1000).contains(&java_millis);
    (!seen).then(|| {
        format!(
            "wall clock: the JVM does not read the moved clock (it is {} ms off the moved \
             time); values that depend on the date or on time passing may reach the suite",
            java_millis - from
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
    let wall = clock == libc::CLOCK_REALTIME || clock == libc::CLOCK_REALTIME_COARSE;
    if rc == 0 && wall && !ts.is_null() && is_set() {
        // SAFETY: the call succeeded, so `ts` is a valid timespec.
        let ts = unsafe { &mut *ts };
        *ts = timespec(Motion::current().moved(nanos(ts)));
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
/// C library's, with a deadline on the wall clock mapped back to real time (see the module
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
    // SAFETY: the caller passes a valid deadline or null.
    let deadline = unsafe { abstime.as_ref() };
    match deadline.filter(|d| is_set() && on_wall_clock(d)) {
        Some(d) => {
            let unmoved = timespec(Motion::current().unmoved(nanos(d)));
            // SAFETY: forwarded as given, with a deadline of our own that outlives the call.
            unsafe { real(cond, mutex, &unmoved) }
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

/// `ts` in nanoseconds since the epoch.
fn nanos(ts: &libc::timespec) -> i128 {
    i128::from(ts.tv_sec) * 1_000_000_000 + i128::from(ts.tv_nsec)
}

/// The timespec of `nanos` since the epoch, the seconds saturating (a caller's deadline may
/// be far off).
fn timespec(nanos: i128) -> libc::timespec {
    let secs = nanos.div_euclid(1_000_000_000);
    libc::timespec {
        tv_sec: secs.clamp(libc::time_t::MIN.into(), libc::time_t::MAX.into()) as libc::time_t,
        tv_nsec: nanos.rem_euclid(1_000_000_000) as libc::c_long,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timespecs_carry_nanoseconds_into_seconds_both_ways_and_saturate() {
        let ts = timespec(100 * 1_000_000_000 + 900_000_000 + 200_000_000);
        assert_eq!((ts.tv_sec, ts.tv_nsec), (101, 100_000_000));
        let ts = timespec(nanos(&ts) - 1_300_000_000);
        assert_eq!((ts.tv_sec, ts.tv_nsec), (99, 800_000_000));
        let ts = timespec(-1);
        assert_eq!((ts.tv_sec, ts.tv_nsec), (-1, 999_999_999));
        let far = timespec(i128::from(libc::time_t::MAX) * 2_000_000_000);
        assert_eq!(far.tv_sec, libc::time_t::MAX, "saturates, never wraps");
    }

    #[test]
    fn a_moved_clock_runs_rate_times_faster_from_its_origin_and_waits_map_back() {
        const S: i128 = 1_000_000_000;
        let m = Motion {
            origin: 1_764_000_000 * S,
            shift: -400 * 86_400 * S,
            rate: 1000,
        };
        assert_eq!(
            m.moved(m.origin),
            m.origin + m.shift,
            "shifted at the origin"
        );
        let later = m.origin + 5_000; // 5 µs of real time
        assert_eq!(
            m.moved(later) - m.moved(m.origin),
            5_000_000,
            "5 ms on the moved clock"
        );
        // A wait of 60 s on the moved clock lasts 60 ms of real time.
        let deadline = m.moved(later) + 60 * S;
        assert_eq!(m.unmoved(deadline) - later, 60_000_000);
        for real in [m.origin - 3 * S, m.origin, later, m.origin + 7 * S + 3] {
            assert_eq!(m.unmoved(m.moved(real)), real, "round trip of {real}");
        }
        let still = Motion { rate: 1, ..m };
        assert_eq!(still.moved(later), later + m.shift, "rate 1: a plain shift");
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
