/** The message of a ClassCastException thrown by a checkcast in library code. */
public class ClassCastMessageRepro {
    public static void main(String[] args) {
        try {
            Double.valueOf(100.0).compareTo((Double) (Object) Character.UnicodeScript.GLAGOLITIC);
        } catch (ClassCastException e) {
            System.out.println("cast in caller:  " + e.getMessage());
        }
        try {
            ((Comparable<Object>) (Object) Double.valueOf(100.0)).compareTo(Character.UnicodeScript.GLAGOLITIC);
        } catch (ClassCastException e) {
            System.out.println("cast in bridge:  " + e.getMessage());
        }
    }
}
