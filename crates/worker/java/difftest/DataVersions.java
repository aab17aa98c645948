package difftest;

import java.time.zone.ZoneRulesProvider;
import java.util.NavigableMap;

/**
 * Owns the data versions a runtime reports, for the fingerprint: run as a program it prints
 * {@code unicode=15.0} and {@code tzdata=2024a} lines, one for each version it can read.
 * The time-zone data version is public API ({@link ZoneRulesProvider#getVersions}); the
 * Unicode version is not, so it is the newest version whose first new block the runtime
 * knows ({@link Character.UnicodeBlock#forName}), or whose one new character it defines.
 * The CLDR and currency data versions have no public API and are not printed.
 */
public final class DataVersions {
    /** Unicode versions, newest first, each with a block (or a character) it introduced. */
    private static final String[][] UNICODE = {
        {"17.0", "SIDETIC"},
        {"16.0", "TODHRI"},
        {"15.1", "CJK_UNIFIED_IDEOGRAPHS_EXTENSION_I"},
        {"15.0", "KAWI"},
        {"14.0", "VITHKUQI"},
        {"13.0", "YEZIDI"},
        {"12.1", "U+32FF"},
        {"12.0", "WANCHO"},
        {"11.0", "DOGRA"},
        {"10.0", "MASARAM_GONDI"},
        {"9.0", "ADLAM"},
        {"8.0", "AHOM"},
    };

    private DataVersions() {}

    /** Prints the versions as {@code name=value} lines. */
    public static void main(String[] args) {
        String unicode = unicode();
        if (unicode != null) {
            System.out.println("unicode=" + unicode);
        }
        String tzdata = tzdata();
        if (tzdata != null) {
            System.out.println("tzdata=" + tzdata);
        }
    }

    /** The newest Unicode version this runtime knows, or null. */
    static String unicode() {
        for (String[] v : UNICODE) {
            if (knows(v[1])) {
                return v[0];
            }
        }
        return null;
    }

    private static boolean knows(String probe) {
        if (probe.startsWith("U+")) {
            return Character.isDefined(Integer.parseInt(probe.substring(2), 16));
        }
        try {
            return Character.UnicodeBlock.forName(probe) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The version of the time-zone rules (of UTC, which every provider has), or null. */
    static String tzdata() {
        try {
            NavigableMap<String, ?> versions = ZoneRulesProvider.getVersions("UTC");
            return versions.isEmpty() ? null : versions.lastKey();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
