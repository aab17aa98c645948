import java.lang.reflect.*;
import java.util.*;

// Presence of API members added or removed between JDK 17, 21 and 25, checked by reflection
// (so one class file, compiled with --release 17, runs on every JDK).
public class ApiMembers {
    static Class<?> cls(String name) {
        switch (name) {
            case "int": return int.class;
            case "long": return long.class;
            case "char": return char.class;
            case "float": return float.class;
            case "short": return short.class;
            case "double": return double.class;
            case "boolean": return boolean.class;
            case "char[]": return char[].class;
        }
        try { return Class.forName(name); } catch (ClassNotFoundException e) { return null; }
    }
    // spec: "pkg.Class" or "pkg.Class#member(type,type)" or "pkg.Class#FIELD"
    static String has(String spec) {
        int h = spec.indexOf('#');
        Class<?> c = cls(h < 0 ? spec : spec.substring(0, h));
        if (c == null) return "absent";
        if (h < 0) return "present";
        String m = spec.substring(h + 1);
        try {
            int p = m.indexOf('(');
            if (p < 0) { c.getField(m); return "present"; }
            String name = m.substring(0, p);
            String args = m.substring(p + 1, m.length() - 1);
            List<Class<?>> types = new ArrayList<>();
            if (!args.isEmpty()) for (String t : args.split(",")) {
                Class<?> tc = cls(t.trim());
                if (tc == null) return "absent";
                types.add(tc);
            }
            Class<?>[] ta = types.toArray(new Class<?>[0]);
            if (name.equals("<init>")) c.getConstructor(ta); else c.getMethod(name, ta);
            return "present";
        } catch (NoSuchMethodException | NoSuchFieldException e) {
            return "absent";
        }
    }
    static void p(String id, String... specs) {
        StringBuilder b = new StringBuilder();
        for (String s : specs) b.append(b.length() == 0 ? "" : " ").append(has(s));
        System.out.println(id + ": " + b);
    }
    public static void main(String[] a) {
        // 17 -> 21
        p("sequenced-collections", "java.util.SequencedCollection", "java.util.List#reversed()", "java.util.ArrayList#getFirst()", "java.util.LinkedHashMap#sequencedKeySet()");
        p("stringbuilder-repeat", "java.lang.StringBuilder#repeat(java.lang.CharSequence,int)", "java.lang.StringBuilder#repeat(int,int)");
        p("string-indexof-range", "java.lang.String#indexOf(int,int,int)", "java.lang.String#indexOf(java.lang.String,int,int)");
        p("string-split-with-delimiters", "java.lang.String#splitWithDelimiters(java.lang.String,int)", "java.util.regex.Pattern#splitWithDelimiters(java.lang.CharSequence,int)");
        p("character-isemoji", "java.lang.Character#isEmoji(int)", "java.lang.Character#isExtendedPictographic(int)");
        p("math-clamp", "java.lang.Math#clamp(long,int,int)", "java.lang.StrictMath#clamp(double,double,double)");
        p("math-ceildiv", "java.lang.Math#ceilDiv(int,int)", "java.lang.Math#divideExact(long,long)", "java.lang.Math#unsignedMultiplyHigh(long,long)");
        p("locale-of", "java.util.Locale#of(java.lang.String)", "java.util.Locale#of(java.lang.String,java.lang.String,java.lang.String)");
        p("hashmap-newhashmap", "java.util.HashMap#newHashMap(int)", "java.util.LinkedHashSet#newLinkedHashSet(int)");
        p("integer-compress-expand", "java.lang.Integer#compress(int,int)", "java.lang.Long#expand(long,long)");
        p("float16-conversions", "java.lang.Float#float16ToFloat(short)", "java.lang.Float#floatToFloat16(float)");
        p("matcher-named-groups", "java.util.regex.Matcher#hasMatch()", "java.util.regex.MatchResult#namedGroups()");
        p("datetimeformatter-localized-pattern", "java.time.format.DateTimeFormatter#ofLocalizedPattern(java.lang.String)", "java.time.format.DateTimeFormatterBuilder#getLocalizedDateTimePattern(java.lang.String,java.time.chrono.Chronology,java.util.Locale)");
        p("bigdecimal-two", "java.math.BigDecimal#TWO");
        p("objects-toidentitystring", "java.util.Objects#toIdentityString(java.lang.Object)");
        p("bigint-parallel-multiply", "java.math.BigInteger#parallelMultiply(java.math.BigInteger)");
        p("random-from", "java.util.Random#from(java.util.random.RandomGenerator)");
        p("charset-forname-fallback", "java.nio.charset.Charset#forName(java.lang.String,java.nio.charset.Charset)");
        p("kem-api", "javax.crypto.KEM", "javax.crypto.KEM#getInstance(java.lang.String)");
        p("duration-ispositive", "java.time.Duration#isPositive()");
        p("java-lang-compiler", "java.lang.Compiler", "java.lang.Compiler#compileClass(java.lang.Class)");
        p("runtime-trace-methods", "java.lang.Runtime#traceInstructions(boolean)", "java.lang.Runtime#traceMethodCalls(boolean)");
        p("javax-security-cert", "javax.security.cert.X509Certificate", "javax.security.cert.Certificate");
        // 21 -> 25
        p("listformat", "java.text.ListFormat", "java.text.ListFormat#getInstance()");
        p("inetaddress-ofliteral", "java.net.InetAddress#ofLiteral(java.lang.String)", "java.net.Inet6Address#ofLiteral(java.lang.String)");
        p("inet4address-ofposixliteral", "java.net.Inet4Address#ofPosixLiteral(java.lang.String)");
        p("class-forprimitivename", "java.lang.Class#forPrimitiveName(java.lang.String)");
        p("foreign-memory", "java.lang.foreign.Arena", "java.lang.foreign.MemorySegment");
        p("stream-gatherers", "java.util.stream.Gatherers", "java.util.stream.Stream#gather(java.util.stream.Gatherer)");
        p("reader-of", "java.io.Reader#of(java.lang.CharSequence)");
        p("charsequence-getchars", "java.lang.CharSequence#getChars(int,int,char[],int)");
        p("currency-availablecurrencies", "java.util.Currency#availableCurrencies()");
        p("locale-availablelocales", "java.util.Locale#availableLocales()");
        p("instant-until", "java.time.Instant#until(java.time.Instant)");
        p("numberformat-strict", "java.text.NumberFormat#isStrict()", "java.text.NumberFormat#setStrict(boolean)");
        p("kdf-api", "javax.crypto.KDF", "javax.crypto.spec.HKDFParameterSpec");
        p("math-unsigned-multiply-exact", "java.lang.Math#unsignedMultiplyExact(long,long)", "java.lang.Math#powExact(long,int)", "java.lang.Math#unsignedPowExact(int,int)");
        p("deflater-close", "java.util.zip.Deflater#close()", "java.util.zip.Inflater#close()");
        p("classfile-api", "java.lang.classfile.ClassFile");
        p("scoped-value", "java.lang.ScopedValue");
        p("reader-readall", "java.io.Reader#readAllAsString()", "java.io.Reader#readAllLines()");
        p("thread-suspend-resume", "java.lang.Thread#suspend()", "java.lang.Thread#resume()", "java.lang.ThreadGroup#stop()");
        p("runtime-runfinalization", "java.lang.Runtime#runFinalization()", "java.lang.System#runFinalization()");
        p("security-policy", "javax.security.auth.Policy");
    }
}
