package difftest;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Owns the entry points the Rust worker calls through JNI. Each is static and takes and
 * returns one String, so one call costs one JNI round trip; results are ASCII JSON whose
 * strings are escaped like {@code sequence.rs}'s {@code escape}. The work lives in
 * {@link Describer} (API model), {@link Constants} (class file constants) and {@link Runner} (method-call sequences).
 */
public final class Agent {
    private Agent() {}

    /** A liveness check: {@code "pong"}. */
    public static String ping() {
        return "pong";
    }

    /** {@code {"name":"value",…}} for the {@code \n}-separated system property names that are set. */
    public static String properties(String names) {
        Set<String> unique = new LinkedHashSet<>();
        for (String name : Text.split(names, '\n')) {
            unique.add(name);
        }
        StringBuilder out = new StringBuilder(256).append('{');
        for (String name : unique) {
            String value = name.isEmpty() ? null : System.getProperty(name);
            if (value != null) {
                Text.json(out.append(out.length() > 1 ? "," : ""), name).append(':');
                Text.json(out, value);
            }
        }
        return out.append('}').toString();
    }

    /**
     * The execution data of a JaCoCo agent started with this JVM ({@code -javaagent:…jacocoagent.jar}),
     * as lower-case hex, or {@code !reason} when there is none; the agent's counts start again
     * from zero (the supervisor keeps what it took). Found reflectively, so nothing
     * here depends on JaCoCo.
     */
    public static String coverage(String ignored) {
        try {
            ClassLoader loader = ClassLoader.getSystemClassLoader();
            Class<?> rt = Class.forName("org.jacoco.agent.rt.RT", true, loader);
            Class<?> api = Class.forName("org.jacoco.agent.rt.IAgent", true, loader);
            Object agent = rt.getMethod("getAgent").invoke(null);
            byte[] data = (byte[]) api.getMethod("getExecutionData", boolean.class).invoke(agent, true);
            char[] digits = "0123456789abcdef".toCharArray();
            StringBuilder out = new StringBuilder(data.length * 2);
            for (byte b : data) {
                out.append(digits[(b >> 4) & 15]).append(digits[b & 15]);
            }
            return out.toString();
        } catch (Throwable e) {
            return "!no JaCoCo agent in this JVM: " + e;
        }
    }

    /** The API of the requested classes and packages (see {@link Describer}). */
    public static String describe(String request) {
        return new Describer(Agent.class.getClassLoader()).describe(request);
    }

    /** The literal constants of the requested classes' class files (see {@link Constants}). */
    public static String constants(String request) {
        return Constants.constants(request, Agent.class.getClassLoader());
    }

    /**
     * The time spent per part of a run since the last ask, as lines (see {@link Timing});
     * the first ask turns the timing on and answers nothing.
     */
    public static String timings(String ignored) {
        return Timing.take();
    }

    /**
     * Runs one encoded sequence (see {@link Runner}). Anything the code under test throws is
     * reported in the result; only input the Rust encoder could not have produced throws
     * ({@code IllegalArgumentException}).
     */
    public static String run(String encoded) {
        try {
            String answer = Runner.run(encoded);
            return Stop.requested ? Stop.STOPPED : answer;
        } catch (Throwable t) {
            Stop.note(t);
            if (Stop.requested) {
                return Stop.STOPPED;
            }
            throw t;
        }
    }

    /**
     * Called by the worker's stopper thread just before it throws a {@link Stop} into the
     * thread that runs sequences: the run then ends at its next step, whatever catches the
     * stop. Answers {@code "ok"}.
     */
    public static String requestStop(String ignored) {
        Stop.requested = true;
        return "ok";
    }

    /**
     * Called by the worker after a stop was requested, before anything else runs: waits up to
     * 200 ms for the stop to arrive if nothing here has seen it ({@code how} is
     * {@code "caught"} when the worker caught it as this call began), then clears the request
     * and the thread's interrupt. {@code "ok"}, or {@code "!lost"} when the stop never
     * arrived (code under test swallowed it, or it is still on its way): the JVM is then not
     * trusted with another sequence.
     */
    public static String settle(String how) {
        if (how.equals("caught")) {
            Stop.delivered = true;
        }
        try {
            long end = System.nanoTime() + 200_000_000L;
            while (!Stop.delivered && System.nanoTime() - end < 0) {
                Thread.onSpinWait();
            }
        } catch (Stop s) {
            Stop.delivered = true;
        }
        boolean ok = Stop.delivered;
        Stop.requested = false;
        Stop.delivered = false;
        Thread.interrupted();
        return ok ? "ok" : "!lost";
    }
}
