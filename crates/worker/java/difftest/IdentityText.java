package difftest;

/**
 * Owns the masking of identity hashes in returned text. A library's object that names itself
 * by its identity hash (snakeyaml's {@code "Yaml:" + System.identityHashCode(this)}, or
 * {@code "Pool#" + Integer.toHexString(hashCode())}) answers other text in every JVM; without
 * a mask its {@code toString()} reads as random content and every call that reads the object
 * is dropped as unstable with it. A run of decimal or lowercase hexadecimal digits that is the
 * identity hash of one of the sequence's values becomes {@link #MARK}, which flake removal
 * reads as identity-based text: never checked, and no taint on the object it describes. A run
 * right after {@code @} is left alone: {@code Object.toString()}'s form already reads so.
 */
final class IdentityText {
    private IdentityText() {}

    /** What stands for an identity hash; identity-based text to {@code looks_identity_based}. */
    static final String MARK = "id@0";

    /** Shorter runs are left alone: a small number is far likelier a count than a hash. */
    private static final int MIN_DIGITS = 5;

    /** Longer runs are left alone: an identity hash has at most 10 decimal digits. */
    private static final int MAX_DIGITS = 10;

    /**
     * {@code s} with every run of digits that is the identity hash of one of
     * {@code values[0..count)} replaced by {@link #MARK}; {@code s} itself when none is.
     */
    static String mask(String s, Object[] values, int count) {
        return mask(s, values, count, MIN_DIGITS);
    }

    /**
     * {@code text}, an object's own {@code toString()}, with every run of digits that is its
     * identity hash replaced by {@link #MARK}, however short: for an array's digest, which
     * must come out the same in the rerun that draws identity hashes from a counter
     * ({@code -XX:hashCode=3}, where an object's hash may be {@code 17}).
     */
    static String maskOwn(String text, Object self) {
        return mask(text, new Object[] {self}, 1, 1);
    }

    private static String mask(String s, Object[] values, int count, int minDigits) {
        int[] hashes = null;
        StringBuilder out = null;
        int copied = 0;
        int n = s.length();
        for (int i = 0; i < n; ) {
            int end = runEnd(s, i);
            if (end == i) {
                i++;
                continue;
            }
            int run = end - i;
            if (run >= minDigits && run <= MAX_DIGITS && (i == 0 || s.charAt(i - 1) != '@')) {
                if (hashes == null) {
                    hashes = hashes(values, count);
                }
                if (isHash(s, i, end, hashes)) {
                    out = out == null ? new StringBuilder(n) : out;
                    out.append(s, copied, i).append(MARK);
                    copied = end;
                }
            }
            i = end;
        }
        return out == null ? s : out.append(s, copied, n).toString();
    }

    /** The end of the run of lowercase hexadecimal digits that starts at {@code i}. */
    private static int runEnd(String s, int i) {
        int j = i;
        while (j < s.length() && isHexDigit(s.charAt(j))) {
            j++;
        }
        return j;
    }

    private static boolean isHexDigit(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    /**
     * Whether {@code s[from..to)} (at most {@link #MAX_DIGITS} long), read as decimal or as
     * hexadecimal (up to 8 digits), is one of {@code hashes}; parsed in place, as a hostile
     * text may hold millions of runs.
     */
    private static boolean isHash(String s, int from, int to, int[] hashes) {
        long decimal = 0;
        long hex = 0;
        boolean allDecimal = true;
        for (int k = from; k < to; k++) {
            char c = s.charAt(k);
            int digit = c <= '9' ? c - '0' : c - 'a' + 10;
            allDecimal &= digit < 10;
            decimal = decimal * 10 + digit;
            hex = hex * 16 + digit;
        }
        return (allDecimal && holds(hashes, decimal)) || (to - from <= 8 && holds(hashes, hex));
    }

    private static boolean holds(int[] hashes, long v) {
        for (int h : hashes) {
            if (h == v) {
                return true;
            }
        }
        return false;
    }

    /** The identity hashes of the objects among {@code values[0..count)}. */
    private static int[] hashes(Object[] values, int count) {
        int[] out = new int[count];
        int k = 0;
        for (int i = 0; i < count; i++) {
            if (values[i] != null) {
                out[k++] = System.identityHashCode(values[i]);
            }
        }
        return java.util.Arrays.copyOf(out, k);
    }
}
