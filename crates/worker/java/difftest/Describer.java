package difftest;

import java.io.File;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Owns {@code describe}: finds the public classes a request names (single classes, or every
 * class of a package in the runtime image and on the class path) and renders each one's
 * public API by reflection as {@code model.rs}'s {@code ApiClass} JSON.
 */
final class Describer {
    private final ClassLoader loader;
    private final Map<String, String> classes = new TreeMap<>();
    private final List<String> unknown = new ArrayList<>();
    /** Classes left out because loading or describing them needs a class the class path lacks: class → missing class. */
    private final Map<String, String> missing = new TreeMap<>();

    Describer(ClassLoader loader) {
        this.loader = loader;
    }

    /**
     * Answers a request of {@code class NAME}, {@code package NAME} (that package alone),
     * {@code tree NAME} (the package and its subpackages) and {@code jar PATH} (every class in
     * one jar or class folder) lines.
     */
    String describe(String request) {
        for (String line : Text.split(request, '\n')) {
            boolean found;
            if (line.startsWith("class ")) {
                found = addClass(Text.unescape(line.substring(6)));
            } else if (line.startsWith("package ")) {
                found = addPackage(Text.unescape(line.substring(8)), false);
            } else if (line.startsWith("tree ")) {
                found = addPackage(Text.unescape(line.substring(5)), true);
            } else if (line.startsWith("jar ")) {
                found = addJar(Text.unescape(line.substring(4)));
            } else {
                found = line.isEmpty();
            }
            if (!found) {
                unknown.add(line);
            }
        }
        StringBuilder out = new StringBuilder(1 << 16).append("{\"classes\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : classes.entrySet()) {
            Text.json(out.append(first ? "" : ","), e.getKey()).append(':').append(e.getValue());
            first = false;
        }
        Text.jsonArray(out.append("},\"unknown\":"), unknown).append(",\"missing\":{");
        first = true;
        for (Map.Entry<String, String> e : missing.entrySet()) {
            Text.json(Text.json(out.append(first ? "" : ","), e.getKey()).append(':'), e.getValue());
            first = false;
        }
        return out.append("}}").toString();
    }

    /**
     * Adds one class if it loads and is public API; false otherwise. A class that cannot be
     * loaded or described because a class its declaration or public signatures name is not
     * on the class path (a dependency jar left out) is listed in {@code missing} instead,
     * never dropped without a word.
     */
    private boolean addClass(String name) {
        if (classes.containsKey(name) || missing.containsKey(name)) {
            return true;
        }
        try {
            Class<?> c = Class.forName(name, false, loader);
            if (!c.getName().equals(name) || !isPublicApi(c)) {
                return false;
            }
            classes.put(name, classJson(c));
            return true;
        } catch (Throwable t) {
            String[] fault = Linkage.of(t);
            if (fault == null || !Constants.declaredPublic(name, loader) || anonymous(name)) {
                return false;
            }
            missing.put(name, fault[0]);
            return true;
        }
    }

    /** Whether a binary name is an anonymous class's ({@code Outer$1}), never public API. */
    private static boolean anonymous(String name) {
        int dollar = name.lastIndexOf('$');
        return dollar >= 0 && dollar + 1 < name.length() && Character.isDigit(name.charAt(dollar + 1));
    }

    /** Adds every public class of a package (and of its subpackages when {@code deep}); false if there is none. */
    private boolean addPackage(String pkg, boolean deep) {
        Set<String> names = new TreeSet<>();
        if (!pkg.isEmpty()) {
            listImage(pkg, deep, names);
            String prefix = pkg.replace('.', '/') + "/";
            for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                listEntry(new File(entry), prefix, deep, names);
            }
        }
        return addAll(names);
    }

    /** Adds every public class in one jar or class folder; false if there is none. */
    private boolean addJar(String path) {
        Set<String> names = new TreeSet<>();
        listEntry(new File(path), "", true, names);
        return addAll(names);
    }

    private boolean addAll(Set<String> names) {
        boolean any = false;
        for (String name : names) {
            any |= addClass(name);
        }
        return any;
    }

    /** Class names in the runtime image ({@code jrt:/}) in the package, or under it when {@code deep}. */
    private static void listImage(String pkg, boolean deep, Set<String> out) {
        try {
            FileSystem fs = FileSystems.getFileSystem(URI.create("jrt:/"));
            if (!deep) {
                listImagePackage(fs, pkg, out);
                return;
            }
            try (DirectoryStream<Path> packages = Files.newDirectoryStream(fs.getPath("/packages"))) {
                for (Path p : packages) {
                    String name = p.getFileName().toString();
                    if (name.equals(pkg) || name.startsWith(pkg + ".")) {
                        listImagePackage(fs, name, out);
                    }
                }
            }
        } catch (Throwable t) {
            // No image file system (or an unreadable entry): the class path may still have some.
        }
    }

    private static void listImagePackage(FileSystem fs, String pkg, Set<String> out) throws Exception {
        Path modules = fs.getPath("/packages", pkg);
        if (!Files.isDirectory(modules)) {
            return;
        }
        String dir = pkg.replace('.', '/');
        try (DirectoryStream<Path> mods = Files.newDirectoryStream(modules)) {
            for (Path mod : mods) {
                Path classes = fs.getPath("/modules", mod.getFileName().toString(), dir);
                try (DirectoryStream<Path> files = Files.newDirectoryStream(classes, "*.class")) {
                    for (Path f : files) {
                        addEntry(dir + "/" + f.getFileName(), dir + "/", false, out);
                    }
                }
            }
        }
    }

    /** Class names in one class path jar or folder under {@code prefix} (directly, unless {@code deep}). */
    private static void listEntry(File f, String prefix, boolean deep, Set<String> out) {
        try {
            if (f.isDirectory()) {
                listFolder(f, prefix, deep, out);
            } else if (f.isFile()) {
                try (ZipFile zip = new ZipFile(f)) {
                    Enumeration<? extends ZipEntry> entries = zip.entries();
                    while (entries.hasMoreElements()) {
                        addEntry(entries.nextElement().getName(), prefix, deep, out);
                    }
                }
            }
        } catch (Throwable t) {
            // An unreadable class path entry contributes nothing.
        }
    }

    private static void listFolder(File root, String prefix, boolean deep, Set<String> out) {
        ArrayDeque<String> todo = new ArrayDeque<>();
        todo.add(prefix);
        while (!todo.isEmpty()) {
            String rel = todo.poll();
            String[] files = new File(root, rel).list();
            for (String name : files == null ? new String[0] : files) {
                if (deep && new File(new File(root, rel), name).isDirectory()) {
                    todo.add(rel + name + "/");
                } else {
                    addEntry(rel + name, prefix, deep, out);
                }
            }
        }
    }

    /**
     * Adds the class of a class file entry {@code a/b/C.class} that lies under {@code prefix}
     * (directly, unless {@code deep}): not in the unnamed package, not under {@code META-INF/}
     * (a multi-release jar's versions), not {@code module-info} or {@code package-info}.
     */
    private static void addEntry(String entry, String prefix, boolean deep, Set<String> out) {
        int slash = entry.lastIndexOf('/');
        if (!entry.startsWith(prefix) || entry.startsWith("META-INF/") || !entry.endsWith(".class")
                || slash <= 0 || (!deep && slash != prefix.length() - 1)) {
            return;
        }
        String file = entry.substring(slash + 1, entry.length() - 6);
        if (file.indexOf('-') < 0) {
            out.add(entry.substring(0, slash).replace('/', '.') + "." + file);
        }
    }

    /** Public, named, not synthetic, and every enclosing class public too. */
    static boolean isPublicApi(Class<?> c) {
        if (c.isArray() || c.isPrimitive() || c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) {
            return false;
        }
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static String classJson(Class<?> c) {
        String kind = kind(c);
        StringBuilder o = new StringBuilder(4096).append("{\"name\":");
        Text.json(o, c.getName()).append(",\"kind\":\"").append(kind).append('"');
        Text.jsonArray(o.append(",\"supertypes\":"), supertypes(c));
        Map<String, String> ctors = "class".equals(kind) ? constructors(c) : new TreeMap<String, String>();
        rawArray(o.append(",\"constructors\":"), ctors.values());
        rawArray(o.append(",\"methods\":"), methods(c).values());
        o.append(",\"fields\":[");
        List<String> constants = fields(c, o);
        Text.jsonArray(o.append("],\"enum_constants\":"), constants);
        return o.append(",\"deprecated_for_removal\":").append(forRemoval(c)).append('}').toString();
    }

    /** Appends a JSON array of already rendered JSON values. */
    private static void rawArray(StringBuilder o, Iterable<String> json) {
        o.append('[');
        boolean first = true;
        for (String s : json) {
            o.append(first ? "" : ",").append(s);
            first = false;
        }
        o.append(']');
    }

    private static String kind(Class<?> c) {
        if (c.isEnum()) {
            return "enum";
        } else if (c.isInterface()) {
            return "interface";
        }
        return Modifier.isAbstract(c.getModifiers()) ? "abstract_class" : "class";
    }

    /** Superclasses nearest first, then interfaces breadth first, then java.lang.Object. */
    static List<String> supertypes(Class<?> c) {
        Set<String> out = new LinkedHashSet<>();
        ArrayDeque<Class<?>> interfaces = new ArrayDeque<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            if (k != c && k != Object.class) {
                out.add(k.getName());
            }
            for (Class<?> i : k.getInterfaces()) {
                interfaces.add(i);
            }
        }
        while (!interfaces.isEmpty()) {
            Class<?> i = interfaces.poll();
            if (out.add(i.getName())) {
                for (Class<?> s : i.getInterfaces()) {
                    interfaces.add(s);
                }
            }
        }
        if (c != Object.class) {
            out.add("java.lang.Object");
        }
        return new ArrayList<>(out);
    }

    private static Map<String, String> constructors(Class<?> c) {
        Map<String, String> out = new TreeMap<>();
        for (Constructor<?> k : c.getConstructors()) {
            if (!k.isSynthetic()) {
                Class<?>[] p = k.getParameterTypes();
                out.put(sortKey("<init>", p), callable("<init>", p, c, false, forRemoval(k), null));
            }
        }
        return out;
    }

    /** Public methods of public declaring classes, one per name and parameter types. */
    private static Map<String, String> methods(Class<?> c) {
        Map<String, Method> best = new HashMap<>();
        for (Method m : c.getMethods()) {
            if (Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
                String key = sortKey(m.getName(), m.getParameterTypes());
                Method prev = best.get(key);
                if (prev == null || better(m, prev)) {
                    best.put(key, m);
                }
            }
        }
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Method> e : best.entrySet()) {
            Method m = e.getValue();
            boolean isStatic = Modifier.isStatic(m.getModifiers());
            // A static inherited from a superclass: the omit list may name it there.
            Class<?> declaredIn = isStatic && m.getDeclaringClass() != c ? m.getDeclaringClass() : null;
            out.put(e.getKey(), callable(m.getName(), m.getParameterTypes(), m.getReturnType(), isStatic,
                    forRemoval(m), declaredIn));
        }
        return out;
    }

    /** Non-synthetic over synthetic (bridges), then narrower return, then nearer declarer. */
    private static boolean better(Method m, Method prev) {
        if (m.isSynthetic() != prev.isSynthetic()) {
            return prev.isSynthetic();
        }
        Class<?> r = m.getReturnType();
        Class<?> pr = prev.getReturnType();
        if (r != pr && (pr.isAssignableFrom(r) || r.isAssignableFrom(pr))) {
            return pr.isAssignableFrom(r);
        }
        Class<?> d = m.getDeclaringClass();
        Class<?> pd = prev.getDeclaringClass();
        if (d != pd && (pd.isAssignableFrom(d) || d.isAssignableFrom(pd))) {
            return pd.isAssignableFrom(d);
        }
        return (d.getName() + r.getName()).compareTo(pd.getName() + pr.getName()) < 0;
    }

    /** Name, then parameters joined: {@code \0} keeps {@code add} before {@code addAll}. */
    private static String sortKey(String name, Class<?>[] params) {
        StringBuilder k = new StringBuilder(name).append('\0');
        for (int i = 0; i < params.length; i++) {
            k.append(i == 0 ? "" : ",").append(params[i].getTypeName());
        }
        return k.toString();
    }

    private static String callable(String name, Class<?>[] params, Class<?> returns, boolean isStatic,
            boolean forRemoval, Class<?> declaredIn) {
        StringBuilder o = new StringBuilder(128).append("{\"name\":");
        Text.json(o, name).append(",\"params\":[");
        for (int i = 0; i < params.length; i++) {
            Text.json(o.append(i == 0 ? "" : ","), params[i].getTypeName());
        }
        Text.json(o.append("],\"returns\":"), returns.getTypeName());
        o.append(",\"is_static\":").append(isStatic).append(",\"deprecated_for_removal\":").append(forRemoval);
        if (declaredIn != null) {
            Text.json(o.append(",\"declared_in\":"), declaredIn.getName());
        }
        return o.append('}').toString();
    }

    /** Appends the public fields (nearest declaration of each name); returns enum constants. */
    private static List<String> fields(Class<?> c, StringBuilder o) {
        Map<String, Field> byName = new TreeMap<>();
        for (Field f : c.getFields()) {
            if (!f.isSynthetic() && !byName.containsKey(f.getName())) {
                byName.put(f.getName(), f);
            }
        }
        List<String> constants = new ArrayList<>();
        boolean first = true;
        for (Field f : byName.values()) {
            int mod = f.getModifiers();
            Text.json(o.append(first ? "{\"name\":" : ",{\"name\":"), f.getName());
            Text.json(o.append(",\"ty\":"), f.getType().getTypeName());
            o.append(",\"is_static\":").append(Modifier.isStatic(mod))
                    .append(",\"is_final\":").append(Modifier.isFinal(mod)).append('}');
            first = false;
            if (f.isEnumConstant() && f.getDeclaringClass() == c) {
                constants.add(f.getName());
            }
        }
        return constants;
    }

    private static boolean forRemoval(AnnotatedElement e) {
        try {
            Deprecated d = e.getAnnotation(Deprecated.class);
            return d != null && d.forRemoval();
        } catch (Throwable t) {
            return false;
        }
    }
}
