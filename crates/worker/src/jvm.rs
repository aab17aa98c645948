//! The embedded JVM of one worker process: starts it from the target's libjvm with
//! `JavaVM::with_libjvm`, loads the Java agent, and calls the agent's `String -> String`
//! entry points, each call inside its own JNI local frame.
//!
//! For an Espresso target the JVM started here is only the host: [`Jvm::start_espresso`]
//! builds one Espresso context in it (`difftest.EspressoHost`), and the same entry points,
//! called on `EspressoHost`, run the agent inside the guest.

use difftest_protocol::jvm::EspressoRuntime;
use jni::objects::{JClass, JString, JValue};
use jni::refs::Global;
use jni::{Env, InitArgsBuilder, JNIVersion, JavaVM, jni_sig, jni_str};
use std::path::{Path, PathBuf};

/// Local references one agent call may create before its frame is popped.
const FRAME_CAPACITY: usize = 16;

/// A started JVM with the agent class loaded.
pub struct Jvm {
    vm: JavaVM,
    agent: Global<JClass<'static>>,
}

// SAFETY: a JavaVM may be used from any thread, and a JNI global reference is valid in every
// thread of its JVM; each call attaches the calling thread first.
unsafe impl Send for Jvm {}
// SAFETY: as above; no call mutates the struct.
unsafe impl Sync for Jvm {}

/// The agent's entry points.
#[derive(Clone, Copy, Debug)]
pub enum Entry {
    Describe,
    Constants,
    Properties,
    Coverage,
    Timings,
    Run,
    /// `requestStop`: a stop is about to be thrown (see [`crate::stop`]).
    RequestStop,
    /// `settle`: a stop thrown is delivered and cleared.
    Settle,
}

impl Jvm {
    /// Starts the JVM at `libjvm` with `options` and a class path of `agent_dir` followed by
    /// `classpath`, then loads `difftest.Agent`.
    pub fn start(
        libjvm: &Path,
        options: &[String],
        agent_dir: &Path,
        classpath: &[PathBuf],
    ) -> Result<Jvm, String> {
        let vm = create(libjvm, options, agent_dir, classpath)?;
        let agent = load(&vm, jni_str!("difftest/Agent"))?;
        Ok(Jvm { vm, agent })
    }

    /// Starts the host JVM with the Espresso jars, then one Espresso context whose guest runs
    /// the agent (from `agent_dir`, which must outlive the worker) on `classpath`.
    pub fn start_espresso(
        libjvm: &Path,
        options: &[String],
        agent_dir: &Path,
        classpath: &[PathBuf],
        rt: &EspressoRuntime,
    ) -> Result<Jvm, String> {
        let mut host_options = options.to_vec();
        host_options.extend(rt.host_options());
        let vm = create(libjvm, &host_options, agent_dir, &rt.jars)?;
        let host = load(&vm, jni_str!("difftest/EspressoHost"))?;
        let mut guest_cp = vec![agent_dir.to_path_buf()];
        guest_cp.extend(classpath.iter().cloned());
        let context = context_options(options, &rt.guest_home, &guest_cp);
        let jvm = Jvm { vm, agent: host };
        let answer = jvm.call_named(jni_str!("start"), &context)?;
        match answer.strip_prefix('!') {
            Some(error) => Err(format!("cannot start Espresso: {error}")),
            None => Ok(jvm),
        }
    }
}

/// The context options of the guest: its class library and class path, and every `-Dk=v`
/// of the target's options as a guest system property, so the guest is pinned like a JVM.
fn context_options(options: &[String], guest_home: &Path, guest_cp: &[PathBuf]) -> String {
    let cp: Vec<String> = guest_cp.iter().map(|p| p.display().to_string()).collect();
    let mut lines = vec![
        format!("java.JavaHome={}", guest_home.display()),
        format!("java.Classpath={}", cp.join(":")),
        "engine.WarnInterpreterOnly=false".to_string(),
    ];
    for opt in options {
        if let Some((key, value)) = opt.strip_prefix("-D").and_then(|kv| kv.split_once('=')) {
            lines.push(format!("java.Properties.{key}={value}"));
        }
    }
    lines.join("\n")
}

fn create(
    libjvm: &Path,
    options: &[String],
    agent_dir: &Path,
    classpath: &[PathBuf],
) -> Result<JavaVM, String> {
    let mut builder = InitArgsBuilder::new().version(JNIVersion::V1_8);
    for opt in options {
        builder = builder.option(opt.as_str());
    }
    builder = builder.option(class_path_option(agent_dir, classpath));
    let args = builder.build().map_err(|e| format!("JVM options: {e}"))?;
    JavaVM::with_libjvm(args, || Ok(libjvm))
        .map_err(|e| format!("cannot start JVM from {}: {e}", libjvm.display()))
}

/// Loads every agent class (the folder they come from may be deleted next) and returns a
/// global reference to `entry`, the class whose static methods the worker calls.
fn load(vm: &JavaVM, entry: &jni::strings::JNIStr) -> Result<Global<JClass<'static>>, String> {
    vm.attach_current_thread(|env| -> jni::errors::Result<_> {
        let class = env.find_class(entry)?;
        let agent = env.new_global_ref(class)?;
        // Load every agent class now: the folder they come from is deleted next.
        for (file, _) in crate::agent::AGENT_CLASSES {
            let name = file.trim_end_matches(".class");
            env.with_local_frame(4, |env| {
                env.find_class(jni::strings::JNIString::new(name))
                    .map(|_| ())
            })?;
        }
        Ok(agent)
    })
    .map_err(|e| format!("cannot load the difftest agent: {e}"))
}

impl Jvm {
    /// Calls an agent entry point with `input` and returns its answer.
    pub fn call(&self, entry: Entry, input: &str) -> Result<String, String> {
        let name = match entry {
            Entry::Describe => jni_str!("describe"),
            Entry::Constants => jni_str!("constants"),
            Entry::Properties => jni_str!("properties"),
            Entry::Coverage => jni_str!("coverage"),
            Entry::Timings => jni_str!("timings"),
            Entry::Run => jni_str!("run"),
            Entry::RequestStop => jni_str!("requestStop"),
            Entry::Settle => jni_str!("settle"),
        };
        self.call_named(name, input)
    }

    /// Attaches the calling thread to the JVM for good (JVMTI calls need it).
    pub(crate) fn attach(&self) -> Result<(), String> {
        self.vm
            .attach_current_thread(|_| Ok::<(), jni::errors::Error>(()))
            .map_err(|e| format!("cannot attach a thread: {e}"))
    }

    /// The JVM's `JavaVM*`.
    pub(crate) fn raw_vm(&self) -> *mut std::ffi::c_void {
        self.vm.get_raw().cast()
    }

    /// Global references (leaked: they live as long as the process) to the calling thread's
    /// `Thread` object and to a `difftest.Stop` to throw into it, as raw handles.
    pub(crate) fn thread_and_stop(&self) -> Result<(usize, usize), String> {
        self.vm
            .attach_current_thread(|env| -> jni::errors::Result<_> {
                let thread_class = env.find_class(jni_str!("java/lang/Thread"))?;
                let sig = jni_sig!("()Ljava/lang/Thread;");
                let name = jni_str!("currentThread");
                let thread = env.call_static_method(&thread_class, name, sig, &[])?.l()?;
                let stop_class = env.find_class(jni_str!("difftest/Stop"))?;
                let stop = env.new_object(&stop_class, jni_sig!("()V"), &[])?;
                let thread = env.new_global_ref(thread)?.into_raw() as usize;
                let stop = env.new_global_ref(stop)?.into_raw() as usize;
                Ok((thread, stop))
            })
            .map_err(|e| format!("cannot prepare stops: {e}"))
    }

    /// `System.currentTimeMillis()` as the JVM sees it (the host's, under Espresso).
    pub fn current_time_millis(&self) -> Result<i64, String> {
        self.vm
            .attach_current_thread(|env| {
                let system = env.find_class(jni_str!("java/lang/System"))?;
                let sig = jni_sig!("()J");
                env.call_static_method(&system, jni_str!("currentTimeMillis"), sig, &[])?
                    .j()
            })
            .map_err(|e: jni::errors::Error| format!("wall clock: cannot read the JVM's: {e}"))
    }

    fn call_named(&self, name: &jni::strings::JNIStr, input: &str) -> Result<String, String> {
        self.vm
            .attach_current_thread(|env| {
                env.with_local_frame(FRAME_CAPACITY, |env| self.call_in_frame(env, name, input))
            })
            .map_err(|e: jni::errors::Error| format!("agent call failed: {e}"))
    }

    fn call_in_frame(
        &self,
        env: &mut Env,
        name: &jni::strings::JNIStr,
        input: &str,
    ) -> jni::errors::Result<String> {
        let arg = env.new_string(input)?;
        let sig = jni_sig!("(Ljava/lang/String;)Ljava/lang/String;");
        let out = env
            .call_static_method(&self.agent, name, sig, &[JValue::Object(&arg)])?
            .l()?;
        let out: JString = env.cast_local::<JString>(out)?;
        out.try_to_string(env)
    }
}

fn class_path_option(agent_dir: &Path, classpath: &[PathBuf]) -> String {
    let mut parts = vec![agent_dir.display().to_string()];
    parts.extend(classpath.iter().map(|p| p.display().to_string()));
    format!("-Djava.class.path={}", parts.join(":"))
}
