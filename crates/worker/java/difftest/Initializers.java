package difftest;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Owns the second use of a class whose static initializer threw. The first use throws
 * {@link ExceptionInInitializerError}; every later use in the same JVM throws
 * {@code NoClassDefFoundError: Could not initialize class X}. Which use comes first in a
 * worker depends on batching, not on the test, so the reruns would see the two answers
 * swap and drop every such check. The first answer is the behaviour: it is remembered for
 * each class whose initializer the failure passed through, and a later
 * {@code NoClassDefFoundError} naming one of those classes is reported as that first
 * answer again.
 */
final class Initializers {
    private static final String CLINIT = "<clinit>";
    private static final ConcurrentHashMap<String, String> FAILED = new ConcurrentHashMap<>();

    private Initializers() {}

    /** The first answer of a class that failed to initialise, if {@code t} is its later use. */
    static String earlier(Throwable t) {
        if (!(t instanceof NoClassDefFoundError) || FAILED.isEmpty()) {
            return null;
        }
        String message = Render.message(t);
        if (message == null) {
            return null;
        }
        for (String word : message.trim().split("\\s+")) {
            String json = FAILED.get(word.replace('/', '.'));
            if (json != null) {
                return json;
            }
        }
        return null;
    }

    /** Remembers {@code json} as the answer of every class whose initializer {@code t} left. */
    static void remember(Throwable t, String json) {
        if (!(t instanceof ExceptionInInitializerError) || t.getCause() == null) {
            return;
        }
        for (StackTraceElement f : t.getCause().getStackTrace()) {
            if (f.getMethodName().equals(CLINIT)) {
                FAILED.putIfAbsent(f.getClassName(), json);
            }
        }
    }
}
