// What every probe shares: a result printed as one line, non-ASCII escaped (backslash, u, four hex digits),
// a thrown exception as "throws …". Not a probe itself (run-probes.sh skips it).
public class Probe {
    static String esc(Object o) {
        String s = String.valueOf(o);
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04X", (int) c)); else b.append(c);
        }
        return b.toString();
    }
    interface T { Object get() throws Throwable; }
    static void t(String id, T f) {
        Object r;
        try { r = f.get(); } catch (Throwable e) { r = "throws " + e; }
        System.out.println(id + ": " + esc(r));
    }
}
