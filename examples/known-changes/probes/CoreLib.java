import java.text.BreakIterator;
import java.util.*;
import java.util.regex.Pattern;

// Behaviour changes in java.lang / java.util / java.text outside locale and Unicode data.
public class CoreLib extends Probe {
    static List<Integer> bounds(String s) {
        BreakIterator b = BreakIterator.getCharacterInstance();
        b.setText(s);
        List<Integer> l = new ArrayList<>();
        for (int i = b.first(); i != BreakIterator.DONE; i = b.next()) l.add(i);
        return l;
    }
    public static void main(String[] a) throws Exception {
        // 17 -> 21
        t("regex-word-boundary", () -> Pattern.compile("\\b").matcher("\u00e9").find() + " " + "caf\u00e9 x".replaceAll("\\b", "|"));
        t("identityhashmap-identity-remove", () -> {
            IdentityHashMap<String, String> m = new IdentityHashMap<>();
            String k = "k";
            m.put(k, new String("v"));
            boolean removed = m.remove(k, new String("v"));
            boolean replaced = m.replace(k, new String("v"), "w");
            return removed + " " + replaced + " " + m;
        });
        t("codepoint-array-exception", () -> {
            String r;
            try { r = "" + Character.codePointAt(new char[3], -1, 2); } catch (RuntimeException e) { r = e.getClass().getName(); }
            try { r += " | " + Character.codePointBefore(new char[3], 9, 0); } catch (RuntimeException e) { r += " | " + e.getClass().getName(); }
            return r;
        });
        t("stringbuilder-index-messages", () -> new StringBuilder("abc").substring(2, 1));
        t("breakiterator-grapheme-emoji", () -> bounds("\uD83D\uDC68\u200D\uD83D\uDC69x\uD83C\uDDEF\uD83C\uDDF5"));
        // 21 -> 25
        t("breakiterator-indic-conjunct", () -> bounds("\u0915\u094D\u0937"));
        t("random-lxm-in-java-base", () -> java.util.random.RandomGeneratorFactory.of("L64X128MixRandom").create(42L).nextInt());
        t("subject-getsubject-unsupported", () -> javax.security.auth.Subject.getSubject(java.security.AccessController.getContext()));
    }
}
