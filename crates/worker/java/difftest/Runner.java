package difftest;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Owns {@code run}: decodes one encoded sequence, executes its statements reflectively in
 * order, calls the observers and checks the contracts when every statement ran normally, and
 * renders {@code SeqResult::Done} JSON. The first statement that throws or names something
 * missing ends the sequence. In a generation run ({@code R} line) a call repeated on the same
 * values right after it returned a value too large to store whole is not run: the sequence
 * ends before it (see {@link #repeatsLarge}). Lookups go through {@link Resolver}'s caches.
 */
final class Runner {
    private static final Object VOID = new Object();
    private static final String NO_RECEIVER = "-";
    /** How a value too large to store whole begins its rendering ({@link Render#value}). */
    private static final String LARGE = "{\"kind\":\"large\"";

    private final Object[] values;
    private final StringBuilder steps = new StringBuilder(512).append('[');
    private final StringBuilder observations = new StringBuilder(128).append('[');
    private final StringBuilder violations = new StringBuilder(32).append('[');
    private final StringBuilder contents = new StringBuilder(16).append('[');
    private int count;
    /** Where each step's rendered value starts and ends in {@link #steps}. */
    private final int[] renderedStart;
    private final int[] renderedEnd;
    /** The longest text stored whole ({@code M} line; see {@link Render#value}): no limit without one. */
    private long maxValueBytes = Long.MAX_VALUE;
    /** Whether a repeat of a call that returned a large value ends the sequence ({@code R} line). */
    private boolean endLargeRepeats;
    /** {@code I}: see {@link #plainText}. */
    private boolean plainClassText;
    /** The last statement run, and whether its value was too large to store whole. */
    private String lastLine = "";
    private boolean lastLarge;

    private Runner(int capacity) {
        values = new Object[capacity];
        renderedStart = new int[capacity];
        renderedEnd = new int[capacity];
    }

    static String run(String encoded) {
        if (!Timing.on) {
            String[] lines = Text.split(encoded, '\n');
            return new Runner(lines.length).execute(lines);
        }
        long began = Timing.now();
        String[] lines = Text.split(encoded, '\n');
        Timing.add("decode", "lines", began);
        String answer = new Runner(lines.length).execute(lines);
        Timing.add("run", "whole sequence", began);
        return answer;
    }

    private String execute(String[] lines) {
        List<String> observers = new ArrayList<>();
        boolean check = false;
        boolean normal = true;
        Render.maxMessageBytes = Long.MAX_VALUE;
        for (int i = 0; i < lines.length && normal && !Stop.requested; i++) {
            String line = lines[i];
            if (line.startsWith("O\t")) {
                observers.add(line);
            } else if (line.startsWith("M\t")) {
                maxValueBytes = maxValueBytes(line);
                Render.maxMessageBytes = maxValueBytes;
            } else if (line.equals("K")) {
                check = true;
            } else if (line.equals("R")) {
                endLargeRepeats = true;
            } else if (line.equals("I")) {
                plainClassText = true;
            } else if (!line.isEmpty()) {
                normal = step(line);
            }
        }
        if (normal) {
            for (String o : observers) {
                if (Stop.requested) {
                    break;
                }
                observe(o);
            }
            if (check && !Stop.requested) {
                checkContracts();
            }
        }
        if (!Stop.requested) {
            // A stop already delivered is not thrown again: a look that spun once (a held
            // set's text that never comes) would spin on until the worker is killed.
            markIdentityOrderedLater();
        }
        long began = Timing.on ? Timing.now() : 0;
        String answer = answer();
        if (Timing.on) {
            Timing.add("answer", "json", began);
        }
        return answer;
    }

    /** How an object (not a value) is rendered, up to its class. */
    private static final String OBJECT = "{\"kind\":\"object\",\"class\":";

    /**
     * Marks a set or map (or a library's object holding one) that iterates by identity hashes
     * now, though it did not when its step returned it (an empty {@code HashSet} given an
     * exception by a later {@code add}): the mark goes on that step's class, where flake
     * removal looks for it, so what iterates the set is never checked. Latest steps first, so
     * earlier offsets hold.
     */
    private void markIdentityOrderedLater() {
        String mark = Render.IDENTITY_ORDER + "\"}";
        java.util.Map<Object, Boolean> looked = new java.util.IdentityHashMap<>();
        for (int i = count - 1; i >= 0; i--) {
            Object v = values[i];
            int end = renderedEnd[i];
            if (v != null && !Render.isValue(v)
                    && startsAt(steps, renderedStart[i], OBJECT)
                    && !startsAt(steps, end - mark.length(), mark)
                    && looked.computeIfAbsent(v, o -> Render.identityOrdered(o, true))) {
                steps.insert(end - 2, Render.IDENTITY_ORDER);
            }
        }
    }

    private String answer() {
        return new StringBuilder(steps.length() + observations.length() + violations.length() + 64)
                .append("{\"outcome\":\"done\",\"steps\":").append(steps).append("],\"observations\":")
                .append(observations).append("],\"violations\":").append(violations)
                .append("],\"contents\":").append(contents).append("]}").toString();
    }

    /**
     * Whether {@code line} is the statement just run again (the same call on the same values)
     * after it returned a value too large to store whole. Each repeat would build and hold
     * another such value and check nothing smaller; a hundred of them outlast any timeout,
     * so generation's runs end the sequence there, whatever the call.
     */
    private boolean repeatsLarge(String line) {
        return endLargeRepeats && lastLarge && line.equals(lastLine);
    }

    /**
     * Whether {@code text} holds {@code prefix} at {@code from}: compares that many characters
     * only, where {@code indexOf} would scan a whole rendered value on every statement.
     */
    private static boolean startsAt(StringBuilder text, int from, String prefix) {
        if (from < 0 || text.length() - from < prefix.length()) {
            return false;
        }
        for (int k = 0; k < prefix.length(); k++) {
            if (text.charAt(from + k) != prefix.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Runs statement number {@code count}; false if it ended the sequence. */
    private boolean step(String line) {
        int i = count;
        if (repeatsLarge(line)) {
            return false;
        }
        if (i > 0) {
            steps.append(',');
        }
        int mark = steps.length();
        try {
            Object v = statement(Text.split(line, '\t'), line, i);
            values[i] = v == VOID ? null : v;
            long began = Timing.on ? Timing.now() : 0;
            render(steps, v);
            renderedStart[i] = mark;
            renderedEnd[i] = steps.length();
            if (Timing.on) {
                Timing.add("render", timingKey(v), began);
            }
            lastLarge = startsAt(steps, mark, LARGE);
            lastLine = line;
            if (v != null && v.getClass().isArray()) {
                began = Timing.on ? Timing.now() : 0;
                contents.append(contents.length() > 1 ? ",[" : "[").append(i).append(',')
                        .append(Render.contentDigest(v, 2)).append(']');
                if (Timing.on) {
                    Timing.add("array digest", v.getClass(), began);
                }
            }
            count++;
            return true;
        } catch (Text.Malformed e) {
            throw new Text.Malformed("statement " + i + ": " + e.getMessage());
        } catch (Abort a) {
            steps.setLength(mark);
            steps.append(own(a, i).json);
        } catch (Throwable t) {
            Stop.note(t);
            steps.setLength(mark);
            threw(steps, t);
        }
        return false;
    }

    /** The key a value is timed under: its class, or what stands for null and void. */
    private static Object timingKey(Object v) {
        return v == null ? "null" : v == VOID ? "void" : v.getClass();
    }

    private Object statement(String[] f, String line, int i) throws Throwable {
        if (!Timing.on) {
            return untimedStatement(f, line, i);
        }
        long began = Timing.now();
        Object member = Timing.callee(f, line);
        Timing.add("resolve", Timing.kind(line), began);
        began = Timing.now();
        try {
            return untimedStatement(f, line, i);
        } finally {
            Timing.add("statement", member, began);
        }
    }

    private Object untimedStatement(String[] f, String line, int i) throws Throwable {
        switch (line.charAt(0)) {
            case 'L':
                arity(f, 3);
                return Resolver.literal(f[1], Text.unescape(f[2]));
            case 'Z':
                arity(f, 2);
                Resolver.type(Text.unescape(f[1]));
                return null;
            case 'E':
                arity(f, 3);
                return get(Resolver.field(line, f[1], f[2]), null);
            case 'N':
                arity(f, 4);
                return construct(Resolver.constructor(prefix(line, 3), f[1], f[2]), args(f[3], i));
            case 'C':
                arity(f, 6);
                Method m = Resolver.method(prefix(line, 4), f[1], f[2], f[3]);
                return invoke(m, receiver(f[4], i), args(f[5], i));
            case 'F':
                arity(f, 4);
                return get(Resolver.field(prefix(line, 3), f[1], f[2]), receiver(f[3], i));
            case 'A':
                arity(f, 3);
                return array(Resolver.type(Text.unescape(f[1])), args(f[2], i));
            default:
                throw new Text.Malformed("unknown statement: " + line);
        }
    }

    private static void arity(String[] f, int fields) {
        if (f.length != fields || f[0].length() != 1) {
            throw new Text.Malformed("expected " + fields + " fields: " + String.join("\t", f));
        }
    }

    /** The cache key of a statement: its text up to (not including) tab number {@code tabs}. */
    static String prefix(String line, int tabs) {
        int at = -1;
        for (int k = 0; k < tabs; k++) {
            at = line.indexOf('\t', at + 1);
        }
        return line.substring(0, at);
    }

    private Object receiver(String field, int before) {
        return field.equals(NO_RECEIVER) ? NO_RECEIVER : values[index(field, before)];
    }

    private Object[] args(String list, int before) {
        if (list.isEmpty()) {
            return new Object[0];
        }
        String[] parts = Text.split(list, ',');
        Object[] out = new Object[parts.length];
        for (int k = 0; k < parts.length; k++) {
            out[k] = values[index(parts[k], before)];
        }
        return out;
    }

    private static int index(String s, int before) {
        int i;
        try {
            i = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new Text.Malformed("bad index: " + s);
        }
        if (i < 0 || i >= before) {
            throw new Text.Malformed("index " + i + " does not name an earlier statement");
        }
        return i;
    }

    private static Object invoke(Method m, Object receiver, Object[] args) throws Throwable {
        boolean isStatic = Modifier.isStatic(m.getModifiers());
        if (!isStatic && receiver == NO_RECEIVER) {
            throw Abort.missing("invalid call: " + Render.name(m) + " is not static");
        }
        if (!isStatic && receiver == null) {
            throw Abort.threw(new NullPointerException());
        }
        try {
            Object r = m.invoke(isStatic ? null : receiver, args);
            return m.getReturnType() == void.class ? VOID : r;
        } catch (InvocationTargetException e) {
            throw Abort.threw(e.getCause() == null ? e : e.getCause());
        } catch (IllegalArgumentException | IllegalAccessException e) {
            throw Abort.invalid(e);
        }
    }

    private static Object construct(Constructor<?> c, Object[] args) throws Throwable {
        try {
            return c.newInstance(args);
        } catch (InvocationTargetException e) {
            throw Abort.threw(e.getCause() == null ? e : e.getCause());
        } catch (IllegalArgumentException | IllegalAccessException | InstantiationException e) {
            throw Abort.invalid(e);
        }
    }

    private static Object get(Field f, Object receiver) throws Throwable {
        boolean isStatic = Modifier.isStatic(f.getModifiers());
        if (!isStatic && (receiver == null || receiver == NO_RECEIVER)) {
            throw receiver == null ? Abort.threw(new NullPointerException())
                    : Abort.missing("invalid call: " + Render.name(f) + " is not static");
        }
        try {
            return f.get(isStatic ? null : receiver);
        } catch (IllegalArgumentException | IllegalAccessException e) {
            throw Abort.invalid(e);
        }
    }

    private static Object array(Class<?> elem, Object[] elems) {
        try {
            Object a = Array.newInstance(elem, elems.length);
            for (int k = 0; k < elems.length; k++) {
                Array.set(a, k, elems[k]);
            }
            return a;
        } catch (IllegalArgumentException e) {
            throw Abort.invalid(e);
        }
    }

    /** {@code O<TAB>stmt<TAB>class<TAB>method}: one observation, never ending anything. */
    private void observe(String line) {
        if (observations.length() > 1) {
            observations.append(',');
        }
        int mark = observations.length();
        try {
            String[] f = Text.split(line, '\t');
            arity(f, 4);
            Object v = values[index(f[1], count)];
            if (v == null) {
                render(observations, null);
                return;
            }
            if (Timing.on) {
                timedObserve(line, f, v);
                return;
            }
            Method m = Resolver.method("O" + line.substring(line.indexOf('\t', 2)), f[2], f[3], "");
            render(observations, callObserver(m, v));
        } catch (Text.Malformed e) {
            throw new Text.Malformed("observer: " + e.getMessage());
        } catch (Abort a) {
            observations.setLength(mark);
            observations.append(own(a, count).json);
        } catch (Throwable t) {
            Stop.note(t);
            observations.setLength(mark);
            threw(observations, t);
        }
    }

    /** Observer {@code m} on {@code v}, or its {@link #plainText} when that stands for it. */
    private Object callObserver(Method m, Object v) throws Throwable {
        if (plainClassText && m.getName().equals("toString") && m.getParameterCount() == 0
                && !Render.ownsToString(v.getClass())) {
            return plainText(v);
        }
        return invoke(m, v, new Object[0]);
    }

    /**
     * With {@code I}, the {@code toString()} observer of an object whose class keeps
     * {@link Object#toString()} answers {@code Class@0} without calling the class's
     * {@code hashCode()}: such text is never checked (it reads as identity-based), and a
     * content hash behind it can cost milliseconds a call ({@code DateFormatSymbols} hashes
     * every zone name). Always {@code 0}, not the identity hash: where the reference's class had
     * its own text and the target's keeps Object's, the difference must read the same in the
     * confirmation run, or it would pass for an unstable value. Suites recorded with it say so
     * in their header, so replay does the same.
     */
    private static String plainText(Object v) {
        return v.getClass().getName() + "@0";
    }

    /** {@link #observe}'s lookup, call and rendering, each timed. */
    private void timedObserve(String line, String[] f, Object v) throws Throwable {
        long began = Timing.now();
        Method m = Resolver.method("O" + line.substring(line.indexOf('\t', 2)), f[2], f[3], "");
        Timing.add("observer lookup", "observer", began);
        began = Timing.now();
        Object r;
        try {
            r = callObserver(m, v);
        } finally {
            Timing.add("observer", m, began);
        }
        began = Timing.now();
        render(observations, r);
        Timing.add("observer render", timingKey(r), began);
    }

    /**
     * A class path fault whose throwable (or a cause of it) is one of the sequence's own
     * values, made by an earlier statement and passed in to be thrown, is behaviour: the
     * JVM did not raise it while linking.
     */
    private Abort own(Abort a, int before) {
        if (!a.classpath) {
            return a;
        }
        Throwable c = a.thrown;
        for (int depth = 0; c != null && depth < 16; depth++, c = c.getCause()) {
            for (int k = 0; k < before; k++) {
                if (values[k] == c) {
                    return Abort.threw(a.thrown, false);
                }
            }
        }
        return a;
    }

    private void checkContracts() {
        for (int i = 0; i < count; i++) {
            Object v = values[i];
            if (v == null || Render.isValue(v)) {
                continue;
            }
            long began = Timing.on ? Timing.now() : 0;
            checkContracts(i, v);
            if (Timing.on) {
                Timing.add("contracts", v.getClass(), began);
            }
        }
    }

    /** Randoop's three contracts on value {@code i}: equals reflexive, hashCode and toString not throwing. */
    private void checkContracts(int i, Object v) {
        try {
            if (!v.equals(v)) {
                violation(i, "equals-reflexive", "equals returned false");
            }
        } catch (Throwable t) {
            Stop.note(t);
            violation(i, "equals-throws", Render.summary(t));
        }
        try {
            v.hashCode();
        } catch (Throwable t) {
            Stop.note(t);
            violation(i, "hashCode-throws", Render.summary(t));
        }
        try {
            v.toString();
        } catch (Throwable t) {
            Stop.note(t);
            violation(i, "toString-throws", Render.summary(t));
        }
    }

    private void violation(int stmt, String contract, String detail) {
        StringBuilder o = violations.append(violations.length() > 1 ? ",{\"stmt\":" : "{\"stmt\":");
        Text.json(o.append(stmt).append(",\"contract\":"), contract).append(",\"detail\":");
        Text.json(o, detail).append('}');
    }

    private void render(StringBuilder out, Object v) {
        if (v == VOID) {
            out.append("{\"kind\":\"void\"}");
        } else if (v instanceof String) {
            // The values so far, the one this step returned included ({@link IdentityText}).
            int made = Math.min(count + 1, values.length);
            Render.value(out, IdentityText.mask((String) v, values, made), maxValueBytes);
        } else {
            Render.value(out, v, maxValueBytes);
        }
    }

    private static long maxValueBytes(String line) {
        try {
            long max = Long.parseLong(line.substring(2));
            if (max > 0) {
                return max;
            }
        } catch (NumberFormatException e) {
            // Reported below, like any other malformed line.
        }
        throw new Text.Malformed("bad value limit: " + line);
    }

    private static void threw(StringBuilder out, Throwable t) {
        out.append(Abort.threw(t).json);
    }
}
