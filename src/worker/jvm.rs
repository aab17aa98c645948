//! The embedded JVM of one worker process: starts it from the target's libjvm with
//! `JavaVM::with_libjvm`, loads the Java agent, and calls the agent's `String -> String`
//! entry points, each call inside its own JNI local frame.

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

/// The agent's entry points.
#[derive(Clone, Copy, Debug)]
pub enum Entry {
    Describe,
    Constants,
    Properties,
    Run,
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
        let mut builder = InitArgsBuilder::new().version(JNIVersion::V1_8);
        for opt in options {
            builder = builder.option(opt.as_str());
        }
        builder = builder.option(class_path_option(agent_dir, classpath));
        let args = builder.build().map_err(|e| format!("JVM options: {e}"))?;
        let vm = JavaVM::with_libjvm(args, || Ok(libjvm))
            .map_err(|e| format!("cannot start JVM from {}: {e}", libjvm.display()))?;
        let agent = vm
            .attach_current_thread(|env| -> jni::errors::Result<_> {
                let class = env.find_class(jni_str!("difftest/Agent"))?;
                let agent = env.new_global_ref(class)?;
                // Load every agent class now: the folder they come from is deleted next.
                for (file, _) in super::agent::AGENT_CLASSES {
                    let name = file.trim_end_matches(".class");
                    env.with_local_frame(4, |env| {
                        env.find_class(jni::strings::JNIString::new(name))
                            .map(|_| ())
                    })?;
                }
                Ok(agent)
            })
            .map_err(|e| format!("cannot load the difftest agent: {e}"))?;
        Ok(Jvm { vm, agent })
    }

    /// Calls an agent entry point with `input` and returns its answer.
    pub fn call(&self, entry: Entry, input: &str) -> Result<String, String> {
        self.vm
            .attach_current_thread(|env| {
                env.with_local_frame(FRAME_CAPACITY, |env| self.call_in_frame(env, entry, input))
            })
            .map_err(|e: jni::errors::Error| format!("agent call failed: {e}"))
    }

    fn call_in_frame(
        &self,
        env: &mut Env,
        entry: Entry,
        input: &str,
    ) -> jni::errors::Result<String> {
        let arg = env.new_string(input)?;
        let sig = jni_sig!("(Ljava/lang/String;)Ljava/lang/String;");
        let name = match entry {
            Entry::Describe => jni_str!("describe"),
            Entry::Constants => jni_str!("constants"),
            Entry::Properties => jni_str!("properties"),
            Entry::Run => jni_str!("run"),
        };
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
