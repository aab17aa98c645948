package difftest;

import java.lang.reflect.Array;
import java.lang.reflect.Member;

/**
 * Owns how a Java value is shown as {@code Observed} JSON: {@code null}; {@code value} for
 * boxed primitives, Strings and enum constants (with their Java text); {@code object} with the
 * runtime class name for everything else.
 */
final class Render {
    private Render() {}

    /** Whether {@code v} (non-null) is shown with its text rather than only its class. */
    static boolean isValue(Object v) {
        return isText(v.getClass()) || v instanceof Enum;
    }

    private static boolean isText(Class<?> c) {
        return c == String.class || c == Integer.class || c == Long.class || c == Boolean.class
                || c == Double.class || c == Character.class || c == Float.class || c == Short.class
                || c == Byte.class;
    }

    /** UTF-16 units of a capped value's text kept readable as its prefix. */
    static final int PREFIX_CHARS = 256;

    /**
     * Appends the Observed JSON of a statement's or observer's value; a text whose escaped
     * rendering is longer than {@code maxBytes} becomes a {@code large} value (see
     * {@link #large}).
     */
    static void value(StringBuilder out, Object v, long maxBytes) {
        if (v == null) {
            out.append("{\"kind\":\"null\"}");
        } else if (isText(v.getClass())) {
            value(out, v.getClass().getName(), String.valueOf(v), maxBytes);
        } else if (v instanceof Enum) {
            Enum<?> e = (Enum<?>) v;
            value(out, e.getDeclaringClass().getName(), e.name(), maxBytes);
        } else {
            String cls = className(v.getClass()) + (identityOrdered(v, false) ? IDENTITY_ORDER : "");
            Text.json(out.append("{\"kind\":\"object\",\"class\":"), cls).append('}');
        }
    }

    /**
     * Appended to the class of a hash-based set or map that iterates in identity-hash order
     * ({@code flakes::taint::IDENTITY_ORDER} reads it): its text and what iterates it change
     * from JVM to JVM, which two reruns see only now and then.
     */
    static final String IDENTITY_ORDER = " (identity-hash order)";

    /** Keys looked at, at most, to tell whether a set or map iterates by identity hashes. */
    private static final int KEYS_LOOKED_AT = 64;

    /** Keys of a set or map held by a library's object looked at when a step returns it. */
    private static final int HELD_KEYS_AT_STEP = 8;

    /**
     * Whether {@code v} is a hash-based set or map (not a linked one, which keeps insertion
     * order) holding a key whose hash code is its identity hash: an enum constant, an
     * {@code AttributedCharacterIterator.Attribute}, any object without its own
     * {@code hashCode()}. An {@code IdentityHashMap} always iterates that way. A library's
     * object holding such a set or map is one too, as {@link HeldOrder} tells: at the end of
     * a test ({@code Runner.markIdentityOrderedLater}, once per object) it looks at as many
     * keys as here; when a step returns it, at {@link #HELD_KEYS_AT_STEP} keys of each set or
     * map, as looking at all of them at every step slows generation on a library of
     * collections by a quarter.
     */
    static boolean identityOrdered(Object v, boolean atEnd) {
        try {
            return keysByIdentity(v, KEYS_LOOKED_AT)
                    || HeldOrder.identityOrdered(v, atEnd ? KEYS_LOOKED_AT : HELD_KEYS_AT_STEP);
        } catch (Throwable e) {
            // A subclass's isEmpty(), keySet() or iterator, or a key's own hashCode(), is the
            // library's code and may throw anything (a sorted view over keys that are not
            // Comparable): the order is then the collection's business, not identity's.
            Stop.note(e);
            return false;
        }
    }

    /** Whether {@code v} is a JDK set or map iterating by identity hashes ({@code most} keys looked at). */
    static boolean keysByIdentity(Object v, int most) {
        if (v instanceof java.util.IdentityHashMap) {
            return !((java.util.Map<?, ?>) v).isEmpty();
        }
        if (v instanceof java.util.LinkedHashMap || v instanceof java.util.LinkedHashSet) {
            return false;
        }
        boolean map = v instanceof java.util.HashMap || v instanceof java.util.Hashtable
                || v instanceof java.util.WeakHashMap || v instanceof java.util.concurrent.ConcurrentHashMap;
        if (!map && !(v instanceof java.util.HashSet)) {
            return false;
        }
        Iterable<?> keys = map ? ((java.util.Map<?, ?>) v).keySet() : (java.util.Set<?>) v;
        int seen = 0;
        for (Object k : keys) {
            if (hashesByIdentity(k, 2)) {
                return true;
            }
            if (++seen == most) {
                return false;
            }
        }
        return false;
    }

    /**
     * Whether {@code k}'s hash code is, or is made from, an identity hash: its own (an enum
     * constant, an object without {@code hashCode()}), or, down to {@code depth}, that of an
     * element of a collection, a map's entry or an entry's key or value (a {@code TreeSet} of
     * enum constants, a {@code List} holding an exception); a few elements of each.
     */
    private static boolean hashesByIdentity(Object k, int depth) {
        if (k == null || isText(k.getClass())) {
            return false;
        }
        if (k.hashCode() == System.identityHashCode(k)) {
            return true;
        }
        Iterable<?> parts = null;
        if (depth == 0) {
            return false;
        } else if (k instanceof java.util.Collection) {
            parts = (java.util.Collection<?>) k;
        } else if (k instanceof java.util.Map) {
            parts = ((java.util.Map<?, ?>) k).entrySet();
        } else if (k instanceof java.util.Map.Entry) {
            java.util.Map.Entry<?, ?> e = (java.util.Map.Entry<?, ?>) k;
            parts = java.util.Arrays.asList(e.getKey(), e.getValue());
        }
        if (parts == null) {
            return false;
        }
        int seen = 0;
        for (Object part : parts) {
            if (hashesByIdentity(part, depth - 1)) {
                return true;
            }
            if (++seen == PARTS_LOOKED_AT) {
                break;
            }
        }
        return false;
    }

    /** Elements of one key looked at, at most, by {@link #hashesByIdentity}, at each depth. */
    private static final int PARTS_LOOKED_AT = 8;

    /** Elements looked at, at most, for one {@link #contentDigest}, nested arrays included. */
    private static final int ELEMENTS_DIGESTED = 4096;

    /**
     * A hash of what an array holds, the same in every JVM for the same content: flake
     * removal compares it between runs to learn that an array is random (a key's encoding, a
     * salt, the per-JVM order of a salted set's elements copied out), which its class and
     * length do not show. Elements that are values count by their text, nested arrays by their
     * own digest (down to {@code depth}), objects of a class with its own {@code toString()} by
     * that text with identity hashes left out ({@link #stableText}), other objects by their
     * class only: their identity hashes would make every such array look random. One budget
     * of {@link #ELEMENTS_DIGESTED} reads covers the nested arrays too, so a 4,096 by 4,096
     * grid costs as much as a flat array, not 16 M reads.
     */
    static int contentDigest(Object array, int depth) {
        return digest(array, depth, new int[] {ELEMENTS_DIGESTED});
    }

    private static int digest(Object array, int depth, int[] budget) {
        int n = Array.getLength(array);
        int h = n;
        for (int k = 0; k < n && budget[0] > 0; k++) {
            budget[0]--;
            h = 31 * h + elementDigest(Array.get(array, k), depth, budget);
        }
        return h;
    }

    private static int elementDigest(Object e, int depth, int[] budget) {
        if (e == null) {
            return 0;
        } else if (e.getClass().isArray()) {
            return depth > 0 ? digest(e, depth - 1, budget) : className(e.getClass()).hashCode();
        } else if (isText(e.getClass())) {
            return String.valueOf(e).hashCode();
        } else if (e instanceof Enum) {
            return ((Enum<?>) e).name().hashCode();
        }
        String text = stableText(e);
        return text != null ? text.hashCode() : className(e.getClass()).hashCode();
    }

    /**
     * The {@code toString()} of an object whose class has its own (not {@link Object}'s), with
     * every {@code @} and the hex digits after it dropped and the object's own identity hash
     * masked elsewhere ({@link IdentityText}), so an identity hash inside it
     * ({@code Foo@1b6d3586[done]}, {@code Yaml:1956725890}) does not make the text differ from
     * JVM to JVM; {@code null}
     * when the class has none, when it is a collection or map (whose text can be as long as
     * its content), or when {@code toString()} throws.
     */
    private static String stableText(Object e) {
        if (!OWN_TO_STRING.get(e.getClass()) || e instanceof java.util.Collection
                || e instanceof java.util.Map) {
            return null;
        }
        String text;
        try {
            text = e.toString();
        } catch (Throwable t) {
            Stop.note(t);
            return null;
        }
        if (text != null) {
            text = IdentityText.maskOwn(text, e);
        }
        if (text == null || text.indexOf('@') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c);
            if (c == '@') {
                while (i + 1 < text.length() && Character.digit(text.charAt(i + 1), 16) >= 0) {
                    i++;
                }
            }
        }
        return out.toString();
    }

    /** Whether {@code c} declares or inherits a {@code toString()} other than {@link Object}'s. */
    static boolean ownsToString(Class<?> c) {
        return OWN_TO_STRING.get(c);
    }

    /** Whether a class declares or inherits a {@code toString()} other than {@link Object}'s. */
    private static final ClassValue<Boolean> OWN_TO_STRING = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            try {
                return c.getMethod("toString").getDeclaringClass() != Object.class;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return false;
            }
        }
    };

    private static void value(StringBuilder out, String cls, String text, long maxBytes) {
        if (Text.escapedLongerThan(text, maxBytes)) {
            large(out, cls, text);
            return;
        }
        Text.json(out.append("{\"kind\":\"value\",\"class\":"), cls).append(",\"text\":");
        Text.json(out, text).append('}');
    }

    /**
     * A value too long to store whole: its first {@link #PREFIX_CHARS} units (never half a
     * surrogate pair), its length in UTF-16 units and its {@link Digest#of}, so the big
     * text never crosses the wire and two of them compare by length and digest.
     */
    private static void large(StringBuilder out, String cls, String text) {
        int cut = Math.min(PREFIX_CHARS, text.length());
        if (cut > 0 && cut < text.length() && Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--;
        }
        Text.json(out.append("{\"kind\":\"large\",\"class\":"), cls).append(",\"prefix\":");
        Text.json(out, text.substring(0, cut)).append(",\"length\":").append(text.length());
        out.append(",\"digest\":\"").append(Digest.of(text)).append("\"}");
    }

    /**
     * A type name ({@code int[]} for arrays), without the parts that change from run to run:
     * hidden classes (lambdas) lose their counter and address, so JDK 17's
     * {@code java.util.Comparator$$Lambda$14/0x…} and JDK 21's {@code …$$Lambda/0x…} both
     * become {@code java.util.Comparator$$Lambda}; proxies lose their sequence numbers
     * ({@code jdk.proxy1.$Proxy12} becomes {@code jdk.proxy.$Proxy}).
     */
    static String className(Class<?> c) {
        String name = c.getTypeName();
        int lambda = name.indexOf("$$Lambda");
        if (lambda >= 0) {
            return name.substring(0, lambda + 8);
        }
        int slash = name.indexOf('/');
        if (slash >= 0) {
            name = name.substring(0, slash);
        }
        if (name.contains("$Proxy")) {
            name = name.replaceAll("^jdk\\.proxy\\d+\\.", "jdk.proxy.").replaceAll("\\$Proxy\\d+", "\\$Proxy");
        }
        return name;
    }

    /** {@code Class.member} for messages. */
    static String name(Member m) {
        return m.getDeclaringClass().getName() + "." + m.getName();
    }

    /** {@code getMessage()}, or null when there is none or it throws. */
    static String message(Throwable t) {
        try {
            return t.getMessage();
        } catch (Throwable e) {
            Stop.note(e);
            return null;
        }
    }

    /**
     * The longest escaped exception message stored whole: the run's value limit ({@code M}
     * line), set by {@link Runner} before each sequence; no limit without one.
     */
    static volatile long maxMessageBytes = Long.MAX_VALUE;

    /**
     * {@link #message}, as stored: a message whose escaped text is longer than
     * {@link #maxMessageBytes} becomes its first {@link #PREFIX_CHARS} units followed by
     * {@code ... (N chars, digest HEX)}, the shape of a large value's rendering, so two such
     * messages compare by prefix, length and digest and the big text never crosses the wire.
     */
    static String storedMessage(Throwable t) {
        String m = message(t);
        if (m == null || !Text.escapedLongerThan(m, maxMessageBytes)) {
            return m;
        }
        int cut = Math.min(PREFIX_CHARS, m.length());
        if (cut > 0 && cut < m.length() && Character.isHighSurrogate(m.charAt(cut - 1))) {
            cut--;
        }
        return m.substring(0, cut) + "... (" + m.length() + " chars, digest " + Digest.of(m) + ")";
    }

    /** {@code class: message} (the message as stored), or just the class when there is none. */
    static String summary(Throwable t) {
        String m = storedMessage(t);
        return t.getClass().getName() + (m == null ? "" : ": " + m);
    }
}
