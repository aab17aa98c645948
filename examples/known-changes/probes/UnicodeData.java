// Unicode upgrades: JDK 17 = Unicode 13, JDK 21 = Unicode 15.0, JDK 25 = Unicode 16.0.
public class UnicodeData extends Probe {
    public static void main(String[] a) {
        // Unicode 14 (JDK 19) and 15.0 (JDK 20)
        t("unicode14-15-letters", () -> Character.isLetter(0x0870) + " " + Character.getType(0x0870) + " " + Character.isLetter(0x10570) + " " + Character.getType(0x1E030) + " " + Character.isDefined(0x1E030));
        t("unicode14-case", () -> Integer.toHexString(Character.toLowerCase(0x10570)) + " " + Integer.toHexString(Character.toUpperCase(0x10597)) + " " + Integer.toHexString(Character.toLowerCase(0x2C2F)) + " " + esc(new String(Character.toChars(0x10570)).toLowerCase()));
        t("unicode14-15-blocks", () -> Character.UnicodeBlock.of(0x0870) + " " + Character.UnicodeBlock.of(0x10570) + " " + Character.UnicodeBlock.of(0x1E030));
        t("unicode14-15-scripts", () -> Character.UnicodeScript.of(0x11F04) + " " + Character.UnicodeScript.of(0x10570));
        t("unicode15-names", () -> Character.getName(0x1FAE8));
        // Unicode 15.1 (JDK 22) and 16.0 (JDK 24)
        t("unicode151-cjk-ext-i", () -> Character.isIdeographic(0x2EBF0) + " " + Character.isLetter(0x2EBF0) + " " + Character.UnicodeBlock.of(0x2EBF0));
        t("unicode16-letters", () -> Character.isLetter(0x105C0) + " " + Character.getType(0x105C0) + " " + Character.isDefined(0x11BC0));
        t("unicode16-case", () -> Integer.toHexString(Character.toLowerCase(0x10D50)) + " " + Integer.toHexString(Character.toUpperCase(0x10D70)) + " " + Character.isUpperCase(0x10D50) + " " + esc(new String(Character.toChars(0x10D50)).toLowerCase()));
        t("unicode16-scripts", () -> Character.UnicodeScript.of(0x10D40) + " " + Character.UnicodeScript.of(0x105C0));
        t("unicode16-blocks", () -> Character.UnicodeBlock.of(0x10D40) + " " + Character.UnicodeBlock.of(0x1CC00));
    }
}
