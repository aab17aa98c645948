import java.text.*;
import java.time.*;
import java.time.format.*;
import java.util.*;

// Locale data (CLDR) changes visible with the en/ROOT data of java.base alone.
public class LocaleData extends Probe {
    public static void main(String[] a) throws Exception {
        Date epoch = new Date(0L);
        // JDK 20, CLDR 42
        t("cldr42-nnbsp-dateformat", () -> DateFormat.getTimeInstance(DateFormat.SHORT).format(epoch) + " | " + epoch.toLocaleString());
        t("cldr42-nnbsp-datetimeformatter", () -> DateTimeFormatter.ofLocalizedTime(FormatStyle.MEDIUM).format(LocalTime.NOON));
        t("cldr42-no-at", () -> ((SimpleDateFormat) DateFormat.getDateTimeInstance(DateFormat.LONG, DateFormat.LONG)).toPattern().replace("\u202f", " "));
        t("cldr42-turkiye", () -> new Locale("", "TR").getDisplayCountry() + " | " + new Locale("tr", "TR").getDisplayName());
        t("cldr42-china-first-day", () -> Calendar.getInstance(Locale.CHINA).getFirstDayOfWeek() + " " + java.time.temporal.WeekFields.of(Locale.CHINA).getFirstDayOfWeek());
        t("compact-number-rollover", () -> NumberFormat.getCompactNumberInstance(Locale.US, NumberFormat.Style.SHORT).format(999_999) + " | " + NumberFormat.getCompactNumberInstance(Locale.US, NumberFormat.Style.LONG).format(999_999_999L));
        t("cldr-currency-names-17-21", () -> Currency.getInstance("SLL").getDisplayName() + " | " + Currency.getInstance("VED").getDisplayName());
        // JDK 22-25
        t("root-zone-names-gmt", () -> TimeZone.getTimeZone("UTC").getDisplayName(Locale.ROOT) + " | " + TimeZone.getTimeZone("America/Los_Angeles").getDisplayName(false, TimeZone.SHORT, Locale.ROOT) + " | " + DateFormat.getTimeInstance(DateFormat.FULL, Locale.ROOT).format(epoch));
        t("generic-zone-city", () -> DateTimeFormatter.ofPattern("vvvv", Locale.US).format(ZonedDateTime.of(2020, 1, 1, 0, 0, 0, 0, ZoneId.of("Asia/Kolkata"))));
        t("cldr-currency-names-21-25", () -> Currency.getInstance("ZWG").getDisplayName() + " | " + Currency.getInstance("XCG").getDisplayName() + " | " + Currency.getInstance("ZWL").getDisplayName());
    }
}
