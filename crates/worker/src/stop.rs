//! Stopping a call that ran past its timeout without killing the JVM. A worker killed for a
//! hang starts cold: its successor interprets, compiles and links every method again, and
//! generation loses seconds of throughput to each of the ten or more hangs of a record. So
//! when the supervisor's clock runs out it first sends the worker [`STOP_SIGNAL`], carrying
//! the index of the sequence it waits for; the worker's stopper thread (the one thread that
//! takes the signal: every other thread blocks it) checks that this sequence is still running
//! and throws a `difftest.Stop` into the thread that runs sequences (JVMTI `StopThread`).
//! The agent ends the run at its next step and answers `!stopped`; before the next sequence
//! the worker settles the stop (`Agent.settle`: the throw delivered and cleared, the
//! interrupt it sets cleared), and reports the sequence as timed out.
//!
//! The supervisor still kills the worker when no answer comes within a grace period: code
//! under test that catches the stop and goes on, a call blocked outside Java. The stopper
//! never stops a thread inside a class initializer (the class would be left unusable for
//! every later sequence of this JVM: the supervisor kills it instead), nor an Espresso guest.
//! A stop that never arrives makes the worker exit after its answer, so no later sequence
//! can meet it.

use super::jvm::{Entry, Jvm};
use difftest_protocol::message::STOP_SIGNAL;
use std::ffi::{CStr, c_char, c_void};
use std::sync::{Arc, Mutex, PoisonError};

/// `JVMTI_VERSION_1_2` (jvmti.h).
const JVMTI_VERSION_1_2: i32 = 0x3001_0200;
/// Slots of the JVMTI function table (jvmti.h's numbers minus one).
const STOP_THREAD: usize = 6;
const DEALLOCATE: usize = 46;
const GET_METHOD_NAME: usize = 63;
const GET_STACK_TRACE: usize = 103;
const ADD_CAPABILITIES: usize = 141;
/// `GetEnv`'s slot in the JNI invocation interface (jni.h).
const GET_ENV: usize = 6;
/// `can_signal_thread`, bit 10 of the first word of `jvmtiCapabilities`.
const CAN_SIGNAL_THREAD: u32 = 1 << 10;
/// Frames looked at for a class initializer.
const MAX_FRAMES: usize = 1024;

/// Blocks [`STOP_SIGNAL`] in the calling thread. Called before any other thread starts, so
/// every thread (the JVM's too) inherits the mask and only the stopper's wait takes it.
pub(crate) fn block_signal() {
    // SAFETY: plain signal-mask calls on a set built here.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, STOP_SIGNAL);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// Which sequence runs now, and whether a stop was thrown into it.
#[derive(Default)]
struct State {
    current: Option<u32>,
    issued: bool,
}

/// The stopper, as the thread that runs sequences sees it.
pub(crate) struct Stopper {
    state: Arc<Mutex<State>>,
}

/// What the stopper thread needs: raw JVMTI and JNI handles that live as long as the process.
struct Handles {
    jvmti: usize,
    thread: usize,
    stop: usize,
}

impl Stopper {
    /// Sets up stopping for the calling thread (the one that runs sequences) and starts the
    /// stopper thread; an error says why this JVM cannot be stopped (it is then killed).
    pub(crate) fn start(jvm: &Arc<Jvm>) -> Result<Stopper, String> {
        let jvmti = jvmti_env(jvm)?;
        add_capability(jvmti)?;
        let (thread, stop) = jvm.thread_and_stop()?;
        let handles = Handles {
            jvmti: jvmti as usize,
            thread,
            stop,
        };
        let state = Arc::new(Mutex::new(State::default()));
        let (shared, jvm) = (Arc::clone(&state), Arc::clone(jvm));
        // The stopper attaches to the JVM before the worker says it can stop (JVMTI calls
        // from a thread the JVM does not know fail).
        let (attached, was_attached) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("difftest-stopper".into())
            .spawn(move || {
                let attach = jvm.attach();
                let ok = attach.is_ok();
                let _ = attached.send(attach);
                if ok {
                    serve_stops(&jvm, &handles, &shared);
                }
            })
            .map_err(|e| format!("cannot start the stopper thread: {e}"))?;
        match was_attached.recv() {
            Ok(Ok(())) => Ok(Stopper { state }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the stopper thread ended at start".into()),
        }
    }

    /// Sequence `index` of the current run starts.
    pub(crate) fn begin(&self, index: u32) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        *state = State {
            current: Some(index),
            issued: false,
        };
    }

    /// The sequence ended; whether a stop was thrown into it. Once this returns, no stop
    /// is thrown until the next [`Stopper::begin`].
    pub(crate) fn end(&self) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let issued = state.issued;
        *state = State::default();
        issued
    }
}

/// After a stop: makes sure it was delivered and clears it. False when it never arrived.
pub(crate) fn settle(jvm: &Jvm) -> bool {
    match jvm.call(Entry::Settle, "") {
        Ok(answer) => answer == "ok",
        // The stop arrived as the call began, and the call ended with it: cleared now.
        Err(_) => jvm.call(Entry::Settle, "caught").is_ok_and(|a| a == "ok"),
    }
}

/// The stopper thread, attached to the JVM: waits for the signal and stops the sequence it
/// names, if it still runs.
fn serve_stops(jvm: &Jvm, handles: &Handles, state: &Mutex<State>) {
    loop {
        let Some(index) = wait_for_signal() else {
            continue;
        };
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.current != Some(index) || state.issued {
            continue;
        }
        // SAFETY: the handles were made for this JVM and live as long as the process.
        if unsafe { in_class_initializer(handles) } {
            continue;
        }
        if jvm.call(Entry::RequestStop, "").is_err() {
            continue;
        }
        state.issued = true;
        // SAFETY: as above; this thread is attached.
        unsafe { stop_thread(handles) };
    }
}

/// The index the next [`STOP_SIGNAL`] carries; `None` when the wait was interrupted.
fn wait_for_signal() -> Option<u32> {
    // SAFETY: sigwaitinfo on a set built here, into a zeroed siginfo.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, STOP_SIGNAL);
        let mut info: libc::siginfo_t = std::mem::zeroed();
        if libc::sigwaitinfo(&set, &mut info) != STOP_SIGNAL || info.si_code != libc::SI_QUEUE {
            return None;
        }
        Some(info.si_value().sival_ptr as usize as u32)
    }
}

type Table = *const *const c_void;

/// The `index`th function of the JVMTI table of `env`.
///
/// # Safety
/// `env` is a JVMTI environment and `F` the function's type.
unsafe fn function<F: Copy>(env: usize, index: usize) -> F {
    // SAFETY: a jvmtiEnv* points at a pointer to the function table.
    unsafe {
        let table = *(env as *const Table);
        let f = *table.add(index);
        std::mem::transmute_copy(&f)
    }
}

fn jvmti_env(jvm: &Jvm) -> Result<*mut c_void, String> {
    type GetEnv = unsafe extern "system" fn(*mut c_void, *mut *mut c_void, i32) -> i32;
    let vm = jvm.raw_vm();
    let mut env: *mut c_void = std::ptr::null_mut();
    // SAFETY: a JavaVM* points at the invocation interface, whose GetEnv slot is fixed.
    let code = unsafe {
        let table = *(vm as *const Table);
        let get_env: GetEnv = std::mem::transmute_copy(&*table.add(GET_ENV));
        get_env(vm, &mut env, JVMTI_VERSION_1_2)
    };
    match code {
        0 if !env.is_null() => Ok(env),
        code => Err(format!("no JVMTI environment (GetEnv returned {code})")),
    }
}

fn add_capability(jvmti: *mut c_void) -> Result<(), String> {
    type AddCapabilities = unsafe extern "system" fn(*mut c_void, *const [u32; 4]) -> i32;
    let caps = [CAN_SIGNAL_THREAD, 0, 0, 0];
    // SAFETY: the slot holds AddCapabilities; the capability set is 128 bits.
    let code = unsafe {
        let add: AddCapabilities = function(jvmti as usize, ADD_CAPABILITIES);
        add(jvmti, &caps)
    };
    match code {
        0 => Ok(()),
        code => Err(format!("JVMTI cannot signal threads (error {code})")),
    }
}

/// Throws the stop into the thread that runs sequences.
///
/// # Safety
/// The handles are live, and the calling thread is attached to the JVM.
unsafe fn stop_thread(h: &Handles) {
    type StopThread = unsafe extern "system" fn(*mut c_void, usize, usize) -> i32;
    // SAFETY: the slot holds StopThread.
    unsafe {
        let stop: StopThread = function(h.jvmti, STOP_THREAD);
        stop(h.jvmti as *mut c_void, h.thread, h.stop);
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
struct FrameInfo {
    method: *mut c_void,
    location: i64,
}

/// Whether the thread that runs sequences is inside a class initializer (`<clinit>`), or its
/// stack cannot be read.
///
/// # Safety
/// The handles are live, and the calling thread is attached to the JVM.
unsafe fn in_class_initializer(h: &Handles) -> bool {
    type GetStackTrace =
        unsafe extern "system" fn(*mut c_void, usize, i32, i32, *mut FrameInfo, *mut i32) -> i32;
    type GetMethodName = unsafe extern "system" fn(
        *mut c_void,
        *mut c_void,
        *mut *mut c_char,
        *mut *mut c_char,
        *mut *mut c_char,
    ) -> i32;
    type Deallocate = unsafe extern "system" fn(*mut c_void, *mut u8) -> i32;
    let env = h.jvmti as *mut c_void;
    let empty = FrameInfo {
        method: std::ptr::null_mut(),
        location: 0,
    };
    let mut frames = vec![empty; MAX_FRAMES];
    let mut count = 0i32;
    // SAFETY: the slots hold these functions; buffers are as large as said.
    unsafe {
        let trace: GetStackTrace = function(h.jvmti, GET_STACK_TRACE);
        let max = MAX_FRAMES as i32;
        if trace(env, h.thread, 0, max, frames.as_mut_ptr(), &mut count) != 0 {
            return true;
        }
        let name_of: GetMethodName = function(h.jvmti, GET_METHOD_NAME);
        let free: Deallocate = function(h.jvmti, DEALLOCATE);
        frames[..count.max(0) as usize].iter().any(|f| {
            let mut name: *mut c_char = std::ptr::null_mut();
            let null = std::ptr::null_mut();
            if name_of(env, f.method, &mut name, null, null) != 0 || name.is_null() {
                return true;
            }
            let clinit = CStr::from_ptr(name).to_bytes() == b"<clinit>";
            free(env, name.cast());
            clinit
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_signal_is_sigusr1_which_hotspot_leaves_to_applications() {
        assert_eq!(STOP_SIGNAL, libc::SIGUSR1);
    }
}
