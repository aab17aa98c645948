//! Ctrl-C and SIGTERM for long commands. The first Ctrl-C stops the current phase at once:
//! pools watching [`FIRST`] kill the workers of the calls still running (however long they
//! hang) and drop that round; the second stops the next phase too, so what was recorded is
//! still written; the third ends the process at once (exit 130; the workers then die with it
//! through their parent-death signal). SIGTERM, which usually comes with a short grace
//! period, counts as two Ctrl-Cs. Handlers are installed with `sigaction` and only touch
//! atomics (async-signal-safe).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// Set by the first signal.
pub(crate) static FIRST: AtomicBool = AtomicBool::new(false);
/// Set by the second signal.
pub static SECOND: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(sig: libc::c_int) {
    if sig == libc::SIGTERM && SIGNALS.load(Ordering::SeqCst) == 0 {
        SIGNALS.store(2, Ordering::SeqCst);
        FIRST.store(true, Ordering::SeqCst);
        SECOND.store(true, Ordering::SeqCst);
        return;
    }
    match SIGNALS.fetch_add(1, Ordering::SeqCst) {
        0 => FIRST.store(true, Ordering::SeqCst),
        1 => SECOND.store(true, Ordering::SeqCst),
        // SAFETY: _exit is async-signal-safe.
        _ => unsafe { libc::_exit(130) },
    }
}

/// Installs the handler for SIGTERM, and for SIGINT unless this process started with SIGINT
/// ignored: a shell runs the background jobs of a script with SIGINT ignored so that Ctrl-C
/// stops the script alone, and POSIX programs keep that (SIGTERM still stops them).
pub(crate) fn install() -> std::io::Result<()> {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        if sig == libc::SIGINT && ignored(sig)? {
            continue;
        }
        // SAFETY: a zeroed sigaction is valid; the handler only touches atomics and _exit.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Whether `sig` is ignored now (as inherited from the parent, before any handler).
fn ignored(sig: libc::c_int) -> std::io::Result<bool> {
    // SAFETY: a null new action only reads the current one into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(old.sa_sigaction == libc::SIG_IGN)
    }
}

/// Whether any signal arrived.
pub fn interrupted() -> bool {
    FIRST.load(Ordering::SeqCst)
}
