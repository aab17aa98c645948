package difftest;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The host side of an Espresso worker. The worker's JVM is a HotSpot that has the GraalVM
 * polyglot and Espresso jars on its class path; {@link #start} builds one Espresso context
 * (a JVM written in Java, running on Truffle) whose guest class path holds these same agent
 * classes, and every other entry point forwards to {@link Agent} inside the guest, so the
 * sequences run on Espresso, not on the host.
 *
 * <p>The polyglot API is reached by reflection: the agent is compiled without it (it must
 * also load on plain JDKs, where it is never used), and one reflective call per sequence
 * costs nothing next to the guest's own work.
 */
public final class EspressoHost {
    private static Object guestAgent;
    private static Method invokeMember;
    private static Method asString;

    private EspressoHost() {}

    /**
     * Builds the context from {@code name=value} lines of context options
     * ({@code java.JavaHome}, {@code java.Classpath}, {@code java.Properties.*}, …), loads
     * the agent in the guest and returns its {@code java.version}; on failure {@code "!"}
     * and the error (its stack trace goes to stderr).
     */
    public static String start(String options) {
        try {
            return build(options);
        } catch (Throwable e) {
            java.io.StringWriter trace = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(trace));
            System.err.print(trace);
            return "!" + e;
        }
    }

    private static String build(String options) throws ReflectiveOperationException {
        Class<?> context = Class.forName("org.graalvm.polyglot.Context");
        Object builder =
                context.getMethod("newBuilder", String[].class).invoke(null, (Object) new String[] {"java"});
        Method option = builder.getClass().getMethod("option", String.class, String.class);
        for (String line : Text.split(options, '\n')) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                option.invoke(builder, line.substring(0, eq), line.substring(eq + 1));
            }
        }
        builder.getClass().getMethod("allowAllAccess", boolean.class).invoke(builder, true);
        Object ctx = unwrap(() -> builder.getClass().getMethod("build").invoke(builder));
        Object bindings = context.getMethod("getBindings", String.class).invoke(ctx, "java");
        Class<?> value = Class.forName("org.graalvm.polyglot.Value");
        invokeMember = value.getMethod("invokeMember", String.class, Object[].class);
        asString = value.getMethod("asString");
        Method getMember = value.getMethod("getMember", String.class);
        guestAgent = unwrap(() -> getMember.invoke(bindings, "difftest.Agent"));
        if (guestAgent == null || (Boolean) value.getMethod("isNull").invoke(guestAgent)) {
            throw new IllegalStateException("the guest cannot load difftest.Agent");
        }
        String version = call("properties", "java.version");
        // Warm the guest's interpreter on the agent's own code before the first sequence.
        call("ping", null);
        return version;
    }

    /** A liveness check, answered by the guest. */
    public static String ping() throws ReflectiveOperationException {
        return call("ping", null);
    }

    /** {@link Agent#properties}, in the guest. */
    public static String properties(String names) throws ReflectiveOperationException {
        return call("properties", names);
    }

    /** {@link Agent#describe}, in the guest. */
    public static String describe(String request) throws ReflectiveOperationException {
        return call("describe", request);
    }

    /** {@link Agent#constants}, in the guest. */
    public static String constants(String request) throws ReflectiveOperationException {
        return call("constants", request);
    }

    /** {@link Agent#timings}, in the guest. */
    public static String timings(String ignored) throws ReflectiveOperationException {
        return call("timings", "");
    }

    /** {@link Agent#run}, in the guest. */
    public static String run(String encoded) throws ReflectiveOperationException {
        return call("run", encoded);
    }

    private static String call(String entry, String input) throws ReflectiveOperationException {
        Object[] args = input == null ? new Object[0] : new Object[] {input};
        try {
            Object result = unwrap(() -> invokeMember.invoke(guestAgent, entry, args));
            return (String) asString.invoke(result);
        } catch (RuntimeException e) {
            haltIfExited(e);
            throw e;
        }
    }

    /**
     * A guest that called {@code System.exit} or {@code Runtime.halt} has closed its
     * context: the worker ends with the guest's status, as a plain JVM would, and the
     * supervisor reports a crash and starts a fresh worker.
     */
    private static void haltIfExited(RuntimeException e) {
        try {
            Class<?> c = e.getClass();
            if (c.getName().equals("org.graalvm.polyglot.PolyglotException")
                    && (Boolean) c.getMethod("isExit").invoke(e)) {
                System.err.println("difftest: the Espresso guest exited");
                System.err.flush();
                Runtime.getRuntime().halt((Integer) c.getMethod("getExitStatus").invoke(e));
            }
        } catch (ReflectiveOperationException ignored) {
            // not a polyglot exception we understand: the caller rethrows it
        }
    }

    /** A reflective step whose target's own exception is rethrown as itself when unchecked. */
    private interface Step {
        Object get() throws ReflectiveOperationException;
    }

    private static Object unwrap(Step step) throws ReflectiveOperationException {
        try {
            return step.get();
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            if (e.getCause() instanceof Error) {
                throw (Error) e.getCause();
            }
            throw e;
        }
    }

    /**
     * For provisioning and for maintainers: {@code java -cp AGENT:JARS difftest.EspressoHost
     * JAVA_HOME} starts a context on that class library and prints the guest's properties.
     */
    public static void main(String[] args) throws ReflectiveOperationException {
        String home = args.length > 0 ? args[0] : System.getProperty("java.home");
        String cp = System.getProperty("difftest.guest.classpath", System.getProperty("java.class.path"));
        long began = System.nanoTime();
        String failed = start("java.JavaHome=" + home + "\njava.Classpath=" + cp + "\nengine.WarnInterpreterOnly=false");
        if (failed.startsWith("!")) {
            System.err.println(failed);
            System.exit(1);
        }
        long started = System.nanoTime();
        System.out.println(call("properties",
                "java.version\njava.vendor\njava.vm.name\njava.runtime.version\njava.vm.version\njava.vm.info"));
        System.out.println("started in " + (started - began) / 1_000_000 + " ms");
    }
}
