package difftest;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Owns decoding for {@code run}: literals, and class / constructor / method / field lookup
 * through the loader that loaded the agent. Lookups are cached for the life of the JVM, keyed
 * by type name or by statement text without indices; something missing is cached as the
 * {@link Abort} that reports it. Classes are loaded without initialising them: the JVM
 * initialises a class at its first real use (static call, constructor, static field read).
 */
final class Resolver {
    private static final ClassLoader LOADER = Resolver.class.getClassLoader();
    private static final ConcurrentHashMap<String, Object> TYPES = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, Object> MEMBERS = new ConcurrentHashMap<>();
    private static final Class<?>[] NO_TYPES = new Class<?>[0];

    private Resolver() {}

    /**
     * A primitive (boxed) or String literal from its unescaped Java text, the object the
     * same literal in Java source gives: boxed as autoboxing does ({@code valueOf}, so small
     * integers are shared) and strings interned, so two equal String literals of a test are
     * one object here as in its exported reproducer. A {@code java.lang.Class} literal is the
     * class its binary name names, loaded without initialization.
     */
    static Object literal(String ty, String v) {
        try {
            switch (ty) {
                case "boolean":
                    if (v.equals("true") || v.equals("false")) {
                        return Boolean.valueOf(v);
                    }
                    break;
                case "byte":
                    return Byte.valueOf(v);
                case "short":
                    return Short.valueOf(v);
                case "int":
                    return Integer.valueOf(v);
                case "long":
                    return Long.valueOf(v);
                case "float":
                    return Float.valueOf(v);
                case "double":
                    return Double.valueOf(v);
                case "char":
                    if (v.length() == 1) {
                        return Character.valueOf(v.charAt(0));
                    }
                    break;
                case "java.lang.String":
                    return v.intern();
                case "java.lang.Class":
                    // A class literal: missing on a target that lacks the class, never initialized here.
                    return type(v);
                default:
                    throw new Text.Malformed("no literals of type " + ty);
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new Text.Malformed("bad " + ty + " literal: " + v);
    }

    /** A class by (unescaped) type name: primitives, {@code X[]} and binary names. */
    static Class<?> type(String name) {
        Object t = TYPES.get(name);
        if (t == null) {
            t = loadType(name);
            TYPES.put(name, t);
        }
        if (t instanceof Abort) {
            throw (Abort) t;
        }
        return (Class<?>) t;
    }

    private static Object loadType(String name) {
        switch (name) {
            case "boolean": return boolean.class;
            case "byte": return byte.class;
            case "short": return short.class;
            case "int": return int.class;
            case "long": return long.class;
            case "float": return float.class;
            case "double": return double.class;
            case "char": return char.class;
            case "void": return void.class;
            default: break;
        }
        try {
            if (name.endsWith("[]")) {
                return Array.newInstance(type(name.substring(0, name.length() - 2)), 0).getClass();
            }
            return Class.forName(name, false, LOADER);
        } catch (Abort a) {
            return a;
        } catch (ClassNotFoundException | IllegalArgumentException e) {
            return Abort.missing("class " + name);
        }
    }

    /** Comma-separated (escaped) type names. */
    private static Class<?>[] types(String list) {
        if (list.isEmpty()) {
            return NO_TYPES;
        }
        String[] names = Text.split(list, ',');
        Class<?>[] out = new Class<?>[names.length];
        for (int k = 0; k < names.length; k++) {
            out[k] = type(Text.unescape(names[k]));
        }
        return out;
    }

    static Method method(String key, String cls, String name, String params) {
        Object m = MEMBERS.get(key);
        if (m == null) {
            m = lookupMethod(Text.unescape(cls), Text.unescape(name), Text.unescape(params));
            MEMBERS.put(key, m);
        }
        return (Method) cached(m);
    }

    private static Object lookupMethod(String cls, String name, String params) {
        try {
            Class<?> c = type(cls);
            Class<?>[] p = types(params);
            try {
                return callable(c, c.getMethod(name, p));
            } catch (NoSuchMethodException e) {
                if (c.isInterface()) {
                    return Object.class.getMethod(name, p);
                }
                throw e;
            }
        } catch (Abort a) {
            return a;
        } catch (NoSuchMethodException e) {
            return Abort.missing("method " + cls + "." + name + "(" + params + ")");
        }
    }

    /**
     * A method {@code c.getMethod} found that Java code calling it on {@code c} may call but
     * reflection may not: a public member of a class that is not public, reached through the
     * public class {@code c} (javac links {@code c.name}, and its bridges hide most such
     * members, not a {@code final} one a release moved up into a package-private base). The
     * same method as a public supertype declares it, which dispatches to the same code, or
     * else the member made accessible where the module allows it (a library's jar does).
     */
    private static Method callable(Class<?> c, Method m) {
        if (!hiddenOwner(c, m.getDeclaringClass())) {
            return m;
        }
        if (!Modifier.isStatic(m.getModifiers())) {
            Method declared = publicDeclaration(c, m.getName(), m.getParameterTypes());
            if (declared != null) {
                return declared;
            }
        }
        m.trySetAccessible();
        return m;
    }

    /** Whether a member of {@code owner} is reached through {@code c}, public, while
     * {@code owner} is not public. */
    private static boolean hiddenOwner(Class<?> c, Class<?> owner) {
        return owner != c
                && Modifier.isPublic(c.getModifiers())
                && !Modifier.isPublic(owner.getModifiers());
    }

    /** The public instance method {@code name(params)} as a public supertype of {@code c}
     * declares it (superclasses and interfaces, nearest first), or null. */
    private static Method publicDeclaration(Class<?> c, String name, Class<?>[] params) {
        ArrayDeque<Class<?>> todo = new ArrayDeque<>();
        todo.add(c);
        while (!todo.isEmpty()) {
            Class<?> t = todo.poll();
            if (t != c && Modifier.isPublic(t.getModifiers())) {
                try {
                    Method m = t.getDeclaredMethod(name, params);
                    int mod = m.getModifiers();
                    if (Modifier.isPublic(mod) && !Modifier.isStatic(mod)) {
                        return m;
                    }
                } catch (NoSuchMethodException e) {
                    // Not declared here: look further up.
                }
            }
            if (t.getSuperclass() != null) {
                todo.add(t.getSuperclass());
            }
            todo.addAll(java.util.Arrays.asList(t.getInterfaces()));
        }
        return null;
    }

    static Constructor<?> constructor(String key, String cls, String params) {
        Object c = MEMBERS.get(key);
        if (c == null) {
            c = lookupConstructor(Text.unescape(cls), Text.unescape(params));
            MEMBERS.put(key, c);
        }
        return (Constructor<?>) cached(c);
    }

    private static Object lookupConstructor(String cls, String params) {
        try {
            return type(cls).getConstructor(types(params));
        } catch (Abort a) {
            return a;
        } catch (NoSuchMethodException e) {
            return Abort.missing("constructor " + cls + "(" + params + ")");
        }
    }

    static Field field(String key, String cls, String name) {
        Object f = MEMBERS.get(key);
        if (f == null) {
            f = lookupField(Text.unescape(cls), Text.unescape(name));
            MEMBERS.put(key, f);
        }
        return (Field) cached(f);
    }

    private static Object lookupField(String cls, String name) {
        try {
            Class<?> c = type(cls);
            Field f = c.getField(name);
            if (hiddenOwner(c, f.getDeclaringClass())) {
                f.trySetAccessible();
            }
            return f;
        } catch (Abort a) {
            return a;
        } catch (NoSuchFieldException e) {
            return Abort.missing("field " + cls + "." + name);
        }
    }

    private static Object cached(Object member) {
        if (member instanceof Abort) {
            throw (Abort) member;
        }
        return member;
    }
}
