/** The message of an ArrayStoreException thrown by System.arraycopy and by aastore. */
public class ArrayStoreMessageRepro {
    public static void main(String[] args) {
        Object[] src = {java.sql.Types.class.getName(), Integer.valueOf(1)};
        try {
            System.arraycopy(src, 0, new String[2], 0, 2);
        } catch (ArrayStoreException e) {
            System.out.println("arraycopy: " + e.getMessage());
        }
        try {
            Object[] strings = new String[1];
            strings[0] = Integer.valueOf(1);
        } catch (ArrayStoreException e) {
            System.out.println("aastore:   " + e.getMessage());
        }
        try {
            java.util.List.of(Integer.valueOf(1)).toArray(new String[0]);
        } catch (ArrayStoreException e) {
            System.out.println("toArray:   " + e.getMessage());
        }
    }
}
