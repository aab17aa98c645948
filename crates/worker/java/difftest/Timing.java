package difftest;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Member;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Owns the attribution of a worker's time per test ({@code difftest bench attribute}): while
 * {@link #on}, {@link Runner} times each part of a sequence with {@code System.nanoTime()}
 * (decoding, each statement by callee, rendering by value class, array digests, observers by
 * callee, contracts, the answer's JSON) and {@link #take} hands the totals over as lines
 * {@code part<TAB>key<TAB>count<TAB>nanoseconds}, with the JVM's own counters (GC, JIT,
 * classes loaded, the thread's CPU time) and the cost of one timed section, measured. Off
 * unless the supervisor asked: each hook is one test of a static field then.
 */
final class Timing {
    private Timing() {}

    /** Whether sections are being timed; set by the first {@link #take}. */
    static boolean on;

    /** Part → key (a Member, a Class or a String) → {count, nanoseconds}. */
    private static final Map<String, Map<Object, long[]>> PARTS = new HashMap<>();
    private static long sections;
    private static long[] jvmAtLastTake = new long[5];

    private static final String KIND_LETTERS = "LZENCFA";
    private static final String[] KINDS = {
        "literal", "null", "enum constant", "constructor", "method", "field", "array"
    };

    /**
     * What a statement calls, looked up (through {@link Resolver}'s caches, so the timed run
     * that follows finds it there): the member, or the statement's kind for literals,
     * nulls and arrays, or the lookup's failure.
     */
    static Object callee(String[] f, String line) {
        try {
            switch (line.charAt(0)) {
                case 'E':
                    return Resolver.field(line, f[1], f[2]);
                case 'N':
                    return Resolver.constructor(Runner.prefix(line, 3), f[1], f[2]);
                case 'C':
                    return Resolver.method(Runner.prefix(line, 4), f[1], f[2], f[3]);
                case 'F':
                    return Resolver.field(Runner.prefix(line, 3), f[1], f[2]);
                default:
                    return kind(line);
            }
        } catch (RuntimeException e) {
            return "(lookup failed)";
        }
    }

    /** The kind of the statement on {@code line}, by its first letter. */
    static String kind(String line) {
        return KINDS[Math.max(0, KIND_LETTERS.indexOf(line.charAt(0)))];
    }

    /** The time now, for a section that {@link #add} ends. */
    static long now() {
        return System.nanoTime();
    }

    /** Ends a section of {@code part} begun at {@code began}, counted under {@code key}. */
    static void add(String part, Object key, long began) {
        long spent = System.nanoTime() - began;
        Map<Object, long[]> keys = PARTS.get(part);
        if (keys == null) {
            keys = new IdentityHashMap<>();
            PARTS.put(part, keys);
        }
        long[] total = keys.get(key);
        if (total == null) {
            total = new long[2];
            keys.put(key, total);
        }
        total[0]++;
        total[1] += spent;
        sections++;
    }

    /**
     * The lines gathered since the last take (none the first time, which turns timing on),
     * then starts again from zero. Runs on the thread that runs the sequences, so the
     * thread's CPU time is that thread's.
     */
    static String take() {
        StringBuilder out = new StringBuilder(1 << 14);
        long[] jvm = jvmCounters();
        if (on) {
            for (Map.Entry<String, Map<Object, long[]>> part : PARTS.entrySet()) {
                for (Map.Entry<Object, long[]> e : part.getValue().entrySet()) {
                    line(out, part.getKey(), name(e.getKey()), e.getValue()[0], e.getValue()[1]);
                }
            }
            String[] names = {"gc", "jit", "classes loaded", "thread cpu", "thread user"};
            for (int k = 0; k < names.length; k++) {
                line(out, "jvm", names[k], 1, jvm[k] - jvmAtLastTake[k]);
            }
            line(out, "timing", "sections", sections, sectionCost());
        }
        PARTS.clear();
        sections = 0;
        jvmAtLastTake = jvmCounters();
        on = true;
        return out.toString();
    }

    private static void line(StringBuilder out, String part, String key, long count, long nanos) {
        out.append(part).append('\t').append(key.replace('\t', ' ').replace('\n', ' ')).append('\t').append(count)
                .append('\t').append(nanos).append('\n');
    }

    private static String name(Object key) {
        if (key instanceof Member) {
            return Render.name((Member) key);
        } else if (key instanceof Class) {
            return Render.className((Class<?>) key);
        }
        return String.valueOf(key);
    }

    /** Nanoseconds one timed section costs beyond what it times, measured on a scratch part. */
    private static long sectionCost() {
        int n = 200_000;
        long began = System.nanoTime();
        for (int k = 0; k < n; k++) {
            add("calibration", Timing.class, now());
        }
        long cost = (System.nanoTime() - began) / n;
        PARTS.remove("calibration");
        return cost;
    }

    /** GC ms, JIT ms, classes loaded, this thread's CPU and user ns; -1 where unknown. */
    private static long[] jvmCounters() {
        long[] c = {-1, -1, -1, -1, -1};
        try {
            long gc = 0;
            for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
                gc += Math.max(0, b.getCollectionTime());
            }
            c[0] = gc * 1_000_000;
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            c[1] = jit == null ? -1 : jit.getTotalCompilationTime() * 1_000_000;
            c[2] = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            c[3] = threads.getCurrentThreadCpuTime();
            c[4] = threads.getCurrentThreadUserTime();
        } catch (Throwable e) {
            // A JVM without java.management: the counters stay unknown.
        }
        return c;
    }
}
