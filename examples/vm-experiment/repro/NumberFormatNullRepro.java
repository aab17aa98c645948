/** NumberFormat.getInstance(null) in a fresh JVM: which null dereference is reported. */
public class NumberFormatNullRepro {
    public static void main(String[] args) {
        try {
            java.text.NumberFormat.getInstance((java.util.Locale) null);
        } catch (NullPointerException e) {
            System.out.println("fresh:  " + e.getMessage());
        }
        java.text.NumberFormat.getInstance(java.util.Locale.US);
        try {
            java.text.NumberFormat.getInstance((java.util.Locale) null);
        } catch (NullPointerException e) {
            System.out.println("warmed: " + e.getMessage());
        }
    }
}
