package difftest;

/**
 * Owns the abnormal end of a statement: a stackless exception carrying the rendered
 * {@code Observed} JSON ({@code threw} or {@code missing}). Missing lookups are cached and the
 * same instance is thrown again, which is safe because it records no stack.
 */
final class Abort extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final String json;
    /** What the code under test threw, for {@code threw}; null otherwise. */
    final Throwable thrown;
    /** Whether {@code json} marks the class path at fault. */
    final boolean classpath;

    private Abort(String json) {
        this(json, null, false);
    }

    private Abort(String json, Throwable thrown, boolean classpath) {
        super(null, null, false, false);
        this.json = json;
        this.thrown = thrown;
        this.classpath = classpath;
    }

    /** {@code {"kind":"missing","what":…}}. */
    static Abort missing(String what) {
        StringBuilder o = new StringBuilder(64).append("{\"kind\":\"missing\",\"what\":");
        return new Abort(Text.json(o, what).append('}').toString());
    }

    /**
     * A reflection-level misuse (bad argument types, inaccessible, abstract class). Module
     * names like {@code unnamed module @6d06d69c} lose their identity hash, which changes
     * from run to run.
     */
    static Abort invalid(Throwable e) {
        return missing("invalid call: " + Render.summary(e).replaceAll(" @[0-9a-f]+\\b", ""));
    }

    /**
     * {@code {"kind":"threw","class":…,"message":…}}, message omitted when null, with
     * {@code "classpath":{"missing":…,"needed_by":…}} when {@link Linkage} finds the class
     * path at fault. A later use of a class whose initializer threw answers as the first
     * use did ({@link Initializers}).
     */
    static Abort threw(Throwable t) {
        return threw(t, true);
    }

    /** {@link #threw(Throwable)}, asking {@link Linkage} only when {@code judge}. */
    static Abort threw(Throwable t, boolean judge) {
        if (!Timing.on) {
            return rendered(t, judge);
        }
        long began = Timing.now();
        Abort a = rendered(t, judge);
        Timing.add("exception render", t.getClass(), began);
        return a;
    }

    private static Abort rendered(Throwable t, boolean judge) {
        Stop.note(t);
        String earlier = Initializers.earlier(t);
        if (earlier != null) {
            return new Abort(earlier, t, earlier.contains(",\"classpath\":{"));
        }
        StringBuilder o = new StringBuilder(128).append("{\"kind\":\"threw\",\"class\":");
        Text.json(o, t.getClass().getName());
        String message = Render.storedMessage(t);
        if (message != null) {
            Text.json(o.append(",\"message\":"), message);
        }
        String[] fault = judge ? Linkage.of(t) : null;
        if (fault != null) {
            Text.json(o.append(",\"classpath\":{\"missing\":"), fault[0]).append(",\"needed_by\":");
            Text.json(o, fault[1]).append('}');
        }
        String json = o.append('}').toString();
        Initializers.remember(t, json);
        return new Abort(json, t, fault != null);
    }
}
