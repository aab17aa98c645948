package difftest;

import java.util.Map;
import java.util.TreeMap;

/**
 * Owns {@code characters}: the reference's own character data, for generation's text inputs
 * ({@code generate::text}). For every pair of Unicode script and general category that has
 * code points on this JDK, its first, middle and last code point, and the code point after
 * its last one when this JDK leaves that one unassigned (scripts grow at their ends, so a
 * later Unicode version often assigns it). Each is a line {@code HEX TYPE SCRIPT}, the
 * general category as {@link Character#getType} numbers it, sorted by code point. Private
 * use and surrogate code points are left out (lone surrogates are the edge values' job).
 */
final class Characters {
    private Characters() {}

    /** Categories per script in the run table ({@link Character#getType} is below 32). */
    private static final int TYPES = 32;

    /** The lines described above; the request is ignored. */
    static String characters(String ignored) {
        Character.UnicodeScript[] scripts = Character.UnicodeScript.values();
        int[] first = new int[scripts.length * TYPES];
        int[] last = new int[first.length];
        int[] count = new int[first.length];
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            int key = key(cp);
            if (key < 0) {
                continue;
            }
            if (count[key]++ == 0) {
                first[key] = cp;
            }
            last[key] = cp;
        }
        int[] seen = new int[first.length];
        int[] middle = new int[first.length];
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            int key = key(cp);
            if (key >= 0 && seen[key]++ == count[key] / 2) {
                middle[key] = cp;
            }
        }
        Map<Integer, String> chosen = new TreeMap<>();
        for (int key = 0; key < first.length; key++) {
            if (count[key] == 0) {
                continue;
            }
            String what = (key % TYPES) + " " + scripts[key / TYPES].name();
            chosen.put(first[key], what);
            chosen.put(middle[key], what);
            chosen.put(last[key], what);
            int after = last[key] + 1;
            if (after <= Character.MAX_CODE_POINT && Character.getType(after) == Character.UNASSIGNED) {
                chosen.put(after, Character.UNASSIGNED + " " + Character.UnicodeScript.UNKNOWN.name());
            }
        }
        StringBuilder out = new StringBuilder(1 << 16);
        for (Map.Entry<Integer, String> e : chosen.entrySet()) {
            out.append(Integer.toHexString(e.getKey())).append(' ').append(e.getValue()).append('\n');
        }
        return out.toString();
    }

    /** The run a code point belongs to, or -1 for unassigned, private use and surrogates. */
    private static int key(int cp) {
        int type = Character.getType(cp);
        if (type == Character.UNASSIGNED || type == Character.PRIVATE_USE
                || type == Character.SURROGATE) {
            return -1;
        }
        return Character.UnicodeScript.of(cp).ordinal() * TYPES + type;
    }
}
