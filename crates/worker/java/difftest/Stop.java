package difftest;

/**
 * A stop the worker asked for: the call ran past its timeout, and the worker's stopper thread
 * throws this into the thread that runs sequences (JVMTI {@code StopThread}) instead of the
 * supervisor killing the JVM. {@link #requested} is set before the throw; {@link #delivered}
 * once code here sees it; {@link Agent#settle} clears both (and the interrupt the throw sets)
 * before the next sequence runs, so no later sequence sees it. Stackless.
 */
final class Stop extends Error {
    private static final long serialVersionUID = 1L;

    /** The answer of a sequence that was stopped. */
    static final String STOPPED = "!stopped";

    /** Set by the worker (through {@link Agent#requestStop}) just before it throws a stop. */
    static volatile boolean requested;
    /** Set once a stop was seen thrown here. */
    static volatile boolean delivered;

    Stop() {
        super("difftest: the call ran past its timeout", null, false, false);
    }

    /** Notes a stop anywhere in {@code t}'s causes (at most 16 deep: causes may loop). */
    static void note(Throwable t) {
        Throwable c = t;
        for (int depth = 0; c != null && depth < 16; depth++, c = c.getCause()) {
            if (c instanceof Stop) {
                delivered = true;
                return;
            }
        }
    }
}
