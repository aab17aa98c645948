//! The worker's sandbox, which the worker applies to itself before its JVM starts (the JVM
//! is embedded, so it never needs to exec anything):
//!
//! - **network**: a new, empty network namespace (`unshare(CLONE_NEWNET)`, inside a new user
//!   namespace when the process lacks `CAP_SYS_ADMIN`): no interface is up, not even
//!   loopback; Landlock (ABI 4+) also denies every TCP bind and connect, and seccomp denies
//!   creating `AF_UNIX` sockets, which could otherwise reach daemons through the file system;
//! - **file system**: Landlock: read and execute everywhere, write only in the worker's own
//!   temporary directory (and `/dev/null`); with ABI 6+, no signals to processes outside the
//!   sandbox and no abstract Unix sockets outside it;
//! - **processes**: a seccomp filter: `execve`/`execveat`, `fork`/`vfork` and `clone`
//!   without `CLONE_THREAD` fail with `EPERM` (threads are still fine; `clone3` answers
//!   `ENOSYS` so the C library falls back to `clone`, whose flags the filter can read), as do
//!   namespace, mount, ptrace and kernel-module calls;
//! - **memory**: after the JVM started, `RLIMIT_DATA` bounds what the worker may still
//!   commit; the supervisor also kills a worker whose resident set passes `--worker-memory`.
//!
//! Every mechanism the kernel refuses becomes one warning line naming the failed check, and
//! the worker runs without it. `DIFFTEST_SANDBOX_REFUSE=network,landlock,seccomp` makes the
//! worker act as if the kernel refused those (how the tests reach the fallbacks on a kernel
//! that has everything). The parent-death signal is set here too, sandbox or not.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Asks for SIGKILL when the supervisor (the thread that spawned us) ends; if it already
/// ended before the request was made, ends this process now.
pub fn die_with_parent(parent: i32) {
    // SAFETY: prctl with integer arguments, getppid and _exit have no memory effects.
    unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        );
        if libc::getppid() != parent {
            libc::_exit(3);
        }
    }
}

/// Applies network, file system and process rules; returns one warning per refusal. Must run
/// while the process has a single thread (a user namespace requires it).
pub fn apply(writable: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Err(e) = refuse("network", "unshare(CLONE_NEWNET)").and_then(|_| isolate_network()) {
        warnings.push(format!("sandbox: workers can reach the network: {e}"));
    }
    // SAFETY: prctl with integer arguments.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        let e = io::Error::last_os_error();
        warnings.push(format!(
            "sandbox: prctl(PR_SET_NO_NEW_PRIVS) failed ({e}); Landlock and seccomp may refuse"
        ));
    }
    match refuse("landlock", "landlock_create_ruleset").and_then(|_| landlock(writable)) {
        Ok(abi) if abi < 6 => warnings.push(format!(
            "sandbox: Landlock ABI {abi} (< 6): workers can signal other processes and reach \
             abstract Unix sockets"
        )),
        Ok(_) => {}
        Err(e) => warnings.push(format!("sandbox: workers can write files anywhere: {e}")),
    }
    if let Err(e) = refuse("seccomp", "prctl(PR_SET_SECCOMP)").and_then(|_| seccomp()) {
        warnings.push(format!("sandbox: workers can start processes: {e}"));
    }
    warnings
}

/// Fails as the kernel would if `DIFFTEST_SANDBOX_REFUSE` names `mechanism`.
fn refuse(mechanism: &str, call: &str) -> Result<(), String> {
    let refused = std::env::var("DIFFTEST_SANDBOX_REFUSE").unwrap_or_default();
    match refused.split(',').any(|m| m.trim() == mechanism) {
        true => Err(format!("{call}: refused (DIFFTEST_SANDBOX_REFUSE)")),
        false => Ok(()),
    }
}

/// Bounds what the process may still commit (`RLIMIT_DATA`) to what it uses now plus
/// `extra` bytes: the JVM's own start-up reservation does not count against the bound.
pub fn limit_data(extra: u64) -> Result<(), String> {
    let now_kib = crate::usage::self_data_kib()?;
    let bound = (now_kib * 1024).saturating_add(extra);
    let limit = libc::rlimit {
        rlim_cur: bound as libc::rlim_t,
        rlim_max: bound as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct we pass.
    if unsafe { libc::setrlimit(libc::RLIMIT_DATA, &limit) } != 0 {
        return Err(format!(
            "setrlimit(RLIMIT_DATA): {}",
            io::Error::last_os_error()
        ));
    }
    Ok(())
}

fn isolate_network() -> Result<(), String> {
    // SAFETY: unshare takes flags only.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } == 0 {
        return Ok(());
    }
    let direct = io::Error::last_os_error();
    // SAFETY: getuid/getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    // SAFETY: as above; the caller guarantees a single thread.
    if unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) } != 0 {
        let e = io::Error::last_os_error();
        return Err(format!(
            "unshare(CLONE_NEWNET) failed ({direct}) and unshare(CLONE_NEWUSER|CLONE_NEWNET) \
             failed ({e})"
        ));
    }
    // Keep our own ids inside the new user namespace (else files show as nobody's).
    let maps = [
        ("/proc/self/setgroups", "deny".to_string()),
        ("/proc/self/uid_map", format!("{uid} {uid} 1")),
        ("/proc/self/gid_map", format!("{gid} {gid} 1")),
    ];
    for (file, text) in maps {
        std::fs::write(file, text).map_err(|e| format!("writing {file}: {e}"))?;
    }
    Ok(())
}

// Landlock's interface (linux/landlock.h); the libc crate does not have it yet.
const LANDLOCK_CREATE_RULESET_VERSION: u32 = 1;
const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
const FS_EXECUTE: u64 = 1 << 0;
const FS_WRITE_FILE: u64 = 1 << 1;
const FS_READ_FILE: u64 = 1 << 2;
const FS_READ_DIR: u64 = 1 << 3;
const FS_REFER: u64 = 1 << 13;
const FS_TRUNCATE: u64 = 1 << 14;
const FS_IOCTL_DEV: u64 = 1 << 15;
const NET_BIND_TCP: u64 = 1 << 0;
const NET_CONNECT_TCP: u64 = 1 << 1;
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// Restricts writes to `writable`; returns the Landlock ABI used.
fn landlock(writable: &Path) -> Result<i64, String> {
    // SAFETY: the version query takes no attribute.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    if abi < 1 {
        let e = io::Error::last_os_error();
        return Err(format!(
            "Landlock unavailable (landlock_create_ruleset: {e})"
        ));
    }
    let mut fs = (1u64 << 13) - 1; // ABI 1: execute … make_sym
    if abi >= 2 {
        fs |= FS_REFER;
    }
    if abi >= 3 {
        fs |= FS_TRUNCATE;
    }
    if abi >= 5 {
        fs |= FS_IOCTL_DEV;
    }
    let attr = RulesetAttr {
        handled_access_fs: fs,
        handled_access_net: if abi >= 4 {
            NET_BIND_TCP | NET_CONNECT_TCP
        } else {
            0
        },
        scoped: if abi >= 6 {
            SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
        } else {
            0
        },
    };
    // Older kernels reject a larger struct with fields they do not know set.
    let size = match abi {
        1..=3 => 8,
        4 | 5 => 16,
        _ => std::mem::size_of::<RulesetAttr>(),
    };
    // SAFETY: attr outlives the call; size never exceeds it.
    let fd = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, &attr, size, 0u32) };
    if fd < 0 {
        let e = io::Error::last_os_error();
        return Err(format!("landlock_create_ruleset: {e}"));
    }
    let fd = fd as libc::c_int;
    let result = (|| {
        let read = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;
        add_rule(fd, Path::new("/"), read)?;
        add_rule(fd, writable, fs)?;
        let file_rights = FS_READ_FILE | FS_WRITE_FILE | (fs & FS_TRUNCATE);
        add_rule(fd, Path::new("/dev/null"), file_rights)?;
        // SAFETY: restricts this process with the ruleset we own.
        if unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) } != 0 {
            let e = io::Error::last_os_error();
            return Err(format!("landlock_restrict_self: {e}"));
        }
        Ok(abi)
    })();
    // SAFETY: closing the descriptor we opened.
    unsafe { libc::close(fd) };
    result
}

fn add_rule(ruleset: libc::c_int, path: &Path, access: u64) -> Result<(), String> {
    let name = CString::new(path.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: a NUL-terminated path; O_PATH opens nothing for reading or writing.
    let fd = unsafe { libc::open(name.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if fd < 0 {
        let e = io::Error::last_os_error();
        return Err(format!("Landlock rule for {}: {e}", path.display()));
    }
    let attr = PathBeneathAttr {
        allowed_access: access,
        parent_fd: fd,
    };
    // SAFETY: attr outlives the call; the kernel copies it.
    let added = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            LANDLOCK_RULE_PATH_BENEATH,
            &attr,
            0u32,
        )
    };
    let e = io::Error::last_os_error();
    // SAFETY: closing the descriptor we opened.
    unsafe { libc::close(fd) };
    if added != 0 {
        return Err(format!("landlock_add_rule for {}: {e}", path.display()));
    }
    Ok(())
}

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

/// System calls that fail with `EPERM`: new programs, new processes, and ways out of the
/// namespaces and rules above.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn denied_calls() -> Vec<libc::c_long> {
    let mut calls = vec![
        libc::SYS_execve,
        libc::SYS_execveat,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_setns,
        libc::SYS_unshare,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_open_by_handle_at,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_kexec_load,
        libc::SYS_reboot,
        libc::SYS_bpf,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([libc::SYS_fork, libc::SYS_vfork]);
    calls
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn seccomp() -> Result<(), String> {
    use libc::{BPF_ABS, BPF_JEQ, BPF_JMP, BPF_JSET, BPF_K, BPF_LD, BPF_RET, BPF_W, sock_filter};
    const NR: u32 = 0; // offsets in struct seccomp_data
    const ARCH: u32 = 4;
    const ARG0_LOW: u32 = 16; // little-endian: the low 32 bits of args[0]
    let stmt = |code: u32, k: u32| sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jump = |code: u32, k: u32, jt: u8, jf: u8| sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    let ret = |k: u32| stmt(BPF_RET | BPF_K, k);
    let errno = |e: i32| ret(libc::SECCOMP_RET_ERRNO | (e as u32 & libc::SECCOMP_RET_DATA));
    let allow = ret(libc::SECCOMP_RET_ALLOW);
    let load = |off: u32| stmt(BPF_LD | BPF_W | BPF_ABS, off);
    let eq = |k: u32, jt: u8, jf: u8| jump(BPF_JMP | BPF_JEQ | BPF_K, k, jt, jf);

    let mut prog = vec![
        load(ARCH),
        eq(AUDIT_ARCH, 1, 0),
        errno(libc::EPERM),
        load(NR),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        // x32 system calls (bit 30) would bypass the numbers below.
        prog.push(jump(BPF_JMP | libc::BPF_JGE | BPF_K, 0x4000_0000, 0, 1));
        prog.push(errno(libc::EPERM));
    }
    for nr in denied_calls() {
        prog.push(eq(nr as u32, 0, 1));
        prog.push(errno(libc::EPERM));
    }
    prog.push(eq(libc::SYS_clone3 as u32, 0, 1));
    prog.push(errno(libc::ENOSYS));
    // clone: threads (CLONE_THREAD) only.
    prog.push(eq(libc::SYS_clone as u32, 0, 4));
    prog.push(load(ARG0_LOW));
    prog.push(jump(
        BPF_JMP | BPF_JSET | BPF_K,
        libc::CLONE_THREAD as u32,
        0,
        1,
    ));
    prog.push(allow);
    prog.push(errno(libc::EPERM));
    // socket: no AF_UNIX (a path could reach a daemon outside).
    prog.push(eq(libc::SYS_socket as u32, 0, 4));
    prog.push(load(ARG0_LOW));
    prog.push(eq(libc::AF_UNIX as u32, 0, 1));
    prog.push(errno(libc::EPERM));
    prog.push(allow);
    prog.push(allow);

    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_mut_ptr(),
    };
    // SAFETY: the program outlives the call; the kernel copies it.
    let r = unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER as libc::c_ulong,
            &fprog as *const libc::sock_fprog,
        )
    };
    if r != 0 {
        let e = io::Error::last_os_error();
        return Err(format!("prctl(PR_SET_SECCOMP): {e}"));
    }
    Ok(())
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn seccomp() -> Result<(), String> {
    Err("no seccomp filter for this architecture".into())
}
