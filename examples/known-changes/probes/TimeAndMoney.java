import java.time.*;
import java.util.*;

// Time-zone data (tzdata) and currency data (ISO 4217) shipped with each runtime.
public class TimeAndMoney extends Probe {
    static String code(String c) {
        try { return c + "=" + Currency.getInstance(c).getNumericCode(); } catch (IllegalArgumentException e) { return c + "=" + e.getClass().getName(); }
    }
    public static void main(String[] a) throws Exception {
        t("tzdata-version", () -> java.time.zone.ZoneRulesProvider.getVersions("UTC").keySet());
        t("tzdata-kazakhstan", () -> ZoneId.of("Asia/Almaty").getRules().getOffset(Instant.parse("2025-01-01T00:00:00Z")) + " " + TimeZone.getTimeZone("Asia/Almaty").getRawOffset());
        t("tzdata-paraguay", () -> ZoneId.of("America/Asuncion").getRules().getOffset(Instant.parse("2025-07-01T00:00:00Z")) + " " + TimeZone.getTimeZone("America/Asuncion").getRawOffset());
        t("tzdata-posix-zones-links", () -> ZoneId.of("EST5EDT").getRules().getTransitions().size() + " " + ZoneId.of("EST5EDT").getRules().getOffset(Instant.parse("1950-07-01T00:00:00Z")));
        t("zoneid-short-ids-est", () -> ZoneId.SHORT_IDS.get("EST") + " " + ZoneId.SHORT_IDS.get("MST") + " " + ZoneId.of("HST", ZoneId.SHORT_IDS));
        t("currency-curacao-xcg", () -> Currency.getInstance(new Locale("", "CW")) + " " + Currency.getInstance(new Locale("", "SX")) + " " + code("XCG"));
        t("currency-zimbabwe-zwg", () -> Currency.getInstance(new Locale("", "ZW")) + " " + code("ZWG"));
        t("currency-bulgaria-euro", () -> Currency.getInstance(new Locale("", "BG")));
    }
}
