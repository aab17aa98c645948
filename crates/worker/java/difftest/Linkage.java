package difftest;

/**
 * Owns the one question whether a throwable is the environment's fault rather than the
 * library's behaviour: a class path that lacks a class or member the code was compiled
 * against. Such an outcome is never an oracle; the supervisor stops the record (or leaves
 * the callable out) and labels a replay difference {@code classpath}.
 *
 * <p>The rule, applied to what a statement or observer threw, looking through
 * {@link ExceptionInInitializerError} causes (a static initializer that failed because of
 * one of these is the same fault):
 * <ul>
 * <li>{@link NoClassDefFoundError}: environment when the class it names cannot be loaded
 * now through the class path's loader. {@code Could not initialize class X}, the JVM's
 * answer on the second use of a class whose initializer threw, names a class that loads:
 * behaviour.
 * <li>{@link ClassNotFoundException}: environment only as the cause of such an
 * initializer failure. Thrown by the call itself it is a by-name lookup whose name is an
 * input ({@code Class.forName("no.such.Class")}): behaviour.
 * <li>{@link IncompatibleClassChangeError} and its subclasses ({@link NoSuchMethodError},
 * {@link NoSuchFieldError}, {@link AbstractMethodError}, {@link IllegalAccessError},
 * {@link InstantiationError}): raised only by the JVM while linking code compiled against
 * other classes: environment.
 * <li>{@link UnsatisfiedLinkError}: environment when a native method failed to link (its
 * top frame is that native method); {@code System.loadLibrary(name)} with a name as input
 * is behaviour.
 * </ul>
 * A throwable the sequence itself made (one of its values, passed in and thrown) is
 * behaviour whatever its class: {@code Runner} takes the mark off again.
 * The class that needed the missing one is the top stack frame of code on the class path
 * (not the JDK's, not difftest's); empty when there is none (the lookup of a callee whose
 * signature names a missing class), and the supervisor then names the callee.
 */
final class Linkage {
    private static final int MAX_CAUSES = 16;

    private Linkage() {}

    /** {@code {missing, neededBy}} when {@code t} is a class path fault, else null. */
    static String[] of(Throwable t) {
        Throwable e = t;
        for (int depth = 0; e != null && depth < MAX_CAUSES; depth++) {
            if (e instanceof ExceptionInInitializerError) {
                e = e.getCause();
                continue;
            }
            String missing = missing(e, e == t);
            return missing == null ? null : new String[] {missing, neededBy(e)};
        }
        return null;
    }

    /** What is missing according to one (unwrapped) throwable; null when it is behaviour. */
    private static String missing(Throwable e, boolean thrownByCall) {
        if (e instanceof NoClassDefFoundError
                || e instanceof ClassNotFoundException && !thrownByCall) {
            return absentClass(text(e));
        }
        if (e instanceof IncompatibleClassChangeError) {
            return text(e);
        }
        if (e instanceof UnsatisfiedLinkError) {
            StackTraceElement[] stack = e.getStackTrace();
            return stack.length > 0 && stack[0].isNativeMethod() ? text(e) : null;
        }
        return null;
    }

    /** The message, or the class name when there is none. */
    private static String text(Throwable e) {
        String message = Render.message(e);
        return message == null ? e.getClass().getName() : message;
    }

    /**
     * The class a message names, as a binary name, when no word of the message names a
     * class that loads; null when one does (the class exists, so something else failed) or
     * when it names nothing.
     */
    private static String absentClass(String message) {
        String[] words = message.trim().split("\\s+");
        for (String w : words) {
            if (loads(w.replace('/', '.'))) {
                return null;
            }
        }
        return words[0].isEmpty() ? null : words[0].replace('/', '.');
    }

    private static boolean loads(String name) {
        if (name.isEmpty()) {
            return false;
        }
        try {
            Class.forName(name, false, Linkage.class.getClassLoader());
            return true;
        } catch (Throwable t) {
            Stop.note(t);
            return false;
        }
    }

    /** {@code Class.method} of the top frame of class path code, or "" when none is. */
    private static String neededBy(Throwable e) {
        for (StackTraceElement f : e.getStackTrace()) {
            String loader = f.getClassLoaderName();
            if (f.getModuleName() == null && loader != null && !loader.equals("platform")
                    && !f.getClassName().startsWith("difftest.")) {
                return f.getClassName() + "." + f.getMethodName();
            }
        }
        return "";
    }
}
