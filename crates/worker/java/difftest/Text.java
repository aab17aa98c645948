package difftest;

/**
 * Owns the text conventions shared with the Rust side: the escape of `sequence.rs`
 * (printable ASCII stays, `\` `LF` `TAB` `CR` get short forms, every other UTF-16 unit
 * becomes {@code \}uXXXX), its reverse for input fields, JSON string output on top of the
 * escape (so everything emitted is ASCII), and splitting of separated input.
 */
final class Text {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Text() {}

    /** Appends {@code s}, escaped, as a JSON string literal. */
    static StringBuilder json(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c <= 0x7e) {
                if (c == '\\') {
                    out.append("\\\\\\\\");
                } else if (c == '"') {
                    out.append("\\\"");
                } else {
                    out.append(c);
                }
            } else if (c == '\n') {
                out.append("\\\\n");
            } else if (c == '\t') {
                out.append("\\\\t");
            } else if (c == '\r') {
                out.append("\\\\r");
            } else {
                out.append("\\\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15])
                        .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
            }
        }
        return out.append('"');
    }

    /**
     * Whether the escape of {@code s} (the text {@code sequence.rs} stores) is longer than
     * {@code max} characters; it stops counting as soon as it is.
     */
    static boolean escapedLongerThan(String s, long max) {
        if (s.length() <= max / 6) {
            return false;
        }
        long n = 0;
        for (int i = 0, len = s.length(); i < len; i++) {
            char c = s.charAt(i);
            n += c >= 0x20 && c <= 0x7e ? (c == '\\' ? 2 : 1) : (c == '\n' || c == '\t' || c == '\r' ? 2 : 6);
            if (n > max) {
                return true;
            }
        }
        return false;
    }

    /** Appends a JSON array of strings. */
    static StringBuilder jsonArray(StringBuilder out, Iterable<String> items) {
        out.append('[');
        boolean first = true;
        for (String s : items) {
            if (!first) {
                out.append(',');
            }
            first = false;
            json(out, s);
        }
        return out.append(']');
    }

    /** Reverses the escape; throws {@link Malformed} for a malformed escape. */
    static String unescape(String s) {
        int b = s.indexOf('\\');
        if (b < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        out.append(s, 0, b);
        for (int i = b, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = ++i < n ? s.charAt(i) : '?';
            if (e == '\\') {
                out.append('\\');
            } else if (e == 'n') {
                out.append('\n');
            } else if (e == 't') {
                out.append('\t');
            } else if (e == 'r') {
                out.append('\r');
            } else if (e == 'u') {
                out.append(hex4(s, i + 1));
                i += 4;
            } else {
                throw new Malformed("bad escape in: " + s);
            }
        }
        return out.toString();
    }

    private static char hex4(String s, int at) {
        if (at + 4 > s.length()) {
            throw new Malformed("short \\u escape in: " + s);
        }
        int v = 0;
        for (int k = at; k < at + 4; k++) {
            int d = "0123456789ABCDEFabcdef".indexOf(s.charAt(k));
            if (d < 0) {
                throw new Malformed("bad \\u escape in: " + s);
            }
            v = v * 16 + (d < 16 ? d : d - 6);
        }
        return (char) v;
    }

    /** Splits on {@code sep}, keeping empty fields (like {@code split(sep, -1)}). */
    static String[] split(String s, char sep) {
        int count = 1;
        for (int i = s.indexOf(sep); i >= 0; i = s.indexOf(sep, i + 1)) {
            count++;
        }
        String[] out = new String[count];
        int start = 0;
        for (int k = 0; k < count - 1; k++) {
            int end = s.indexOf(sep, start);
            out[k] = s.substring(start, end);
            start = end + 1;
        }
        out[count - 1] = s.substring(start);
        return out;
    }

    /** The input was not produced by the Rust encoder: a bug on the caller's side. */
    static final class Malformed extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }
}
