package difftest;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a library's object iterates or prints in an order made of identity hashes because
 * of a JDK hash set or map it holds in its own fields: a bag kept in a {@code HashMap} whose
 * keys are enum constants, a multi-valued map whose {@code HashSet} values hold objects
 * without {@code hashCode()}, a counter map printing its {@code ConcurrentHashMap}. Identity
 * hashes come from a per-thread sequence, so such an order can pass every rerun and still
 * differ on a release that draws a few more hashes: the object is marked like a JDK set that
 * iterates by identity hashes ({@link Render#IDENTITY_ORDER}), and what reads its order is
 * left unchecked.
 *
 * <p>A collection or map of the library is marked when it holds such a set or map (its
 * iteration follows what it is built on); any other object only when its text shows that
 * set's or map's text, so an object that merely caches something by class keeps its checks.
 */
final class HeldOrder {
    private HeldOrder() {}

    /** How deep fields are followed: the object's own, and those of the library objects in them. */
    private static final int DEPTH = 2;

    /** Values of a map looked at, at most, for a set or map that iterates by identity hashes. */
    private static final int VALUES_LOOKED_AT = 16;

    /**
     * Whether {@code v}'s order or text comes from an identity-ordered set or map it holds,
     * looking at {@code keys} keys (and as many values of a map, at most
     * {@link #VALUES_LOOKED_AT}) of each.
     */
    static boolean identityOrdered(Object v, int keys) {
        if (isJdk(v.getClass())) {
            return false;
        }
        Object held = heldByIdentity(v, DEPTH, keys);
        if (held == null) {
            return false;
        }
        if (v instanceof java.util.Collection || v instanceof java.util.Map) {
            return true;
        }
        String heldText = String.valueOf(held);
        return heldText.length() > 2 && String.valueOf(v).contains(heldText);
    }

    /** The first JDK set or map iterating by identity hashes in {@code v}'s fields, or null. */
    private static Object heldByIdentity(Object v, int depth, int keys) {
        for (Field f : FIELDS.get(v.getClass())) {
            Object x;
            try {
                x = f.get(v);
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            if (x == null || x == v) {
                continue;
            }
            if (isJdk(x.getClass())) {
                if (Render.keysByIdentity(x, keys) || valuesByIdentity(x, keys)) {
                    return x;
                }
            } else if (depth > 1) {
                Object inner = heldByIdentity(x, depth - 1, keys);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /** Whether a JDK map holds, among its first values, a set or map iterating by identity hashes. */
    private static boolean valuesByIdentity(Object x, int keys) {
        if (!(x instanceof java.util.Map)) {
            return false;
        }
        int seen = 0;
        for (Object value : ((java.util.Map<?, ?>) x).values()) {
            if (value != null && Render.keysByIdentity(value, keys)) {
                return true;
            }
            if (++seen == Math.min(keys, VALUES_LOOKED_AT)) {
                break;
            }
        }
        return false;
    }

    /** Whether {@code c} is the JDK's own (its order rules are {@link Render}'s business). */
    private static boolean isJdk(Class<?> c) {
        if (c.isArray() || c.isPrimitive()) {
            return true;
        }
        String n = c.getName();
        return n.startsWith("java.") || n.startsWith("javax.") || n.startsWith("jdk.")
                || n.startsWith("sun.") || n.startsWith("com.sun.");
    }

    /**
     * A library class's instance fields of a reference type that may hold a set, a map or
     * another library object, its superclasses' up to the first JDK class, made accessible.
     */
    private static final ClassValue<Field[]> FIELDS = new ClassValue<Field[]>() {
        @Override
        protected Field[] computeValue(Class<?> c) {
            List<Field> out = new ArrayList<>();
            try {
                for (Class<?> k = c; k != null && !isJdk(k); k = k.getSuperclass()) {
                    for (Field f : k.getDeclaredFields()) {
                        if (mayHoldOrder(f) && f.trySetAccessible()) {
                            out.add(f);
                        }
                    }
                }
            } catch (RuntimeException | LinkageError e) {
                Stop.note(e);
            }
            return out.toArray(new Field[0]);
        }
    };

    private static boolean mayHoldOrder(Field f) {
        Class<?> t = f.getType();
        if (Modifier.isStatic(f.getModifiers()) || t.isPrimitive() || t.isArray()) {
            return false;
        }
        return java.util.Map.class.isAssignableFrom(t) || java.util.Collection.class.isAssignableFrom(t)
                || t == Object.class || t.isInterface() || !isJdk(t);
    }
}
