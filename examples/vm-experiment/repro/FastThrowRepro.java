/**
 * HotSpot's C2 throws a preallocated exception, without message or stack trace, from an
 * implicit check that has failed often in compiled code (-XX:+OmitStackTraceInFastThrow, on
 * by default). Under -Xcomp the code is compiled before its first run, so it happens sooner.
 */
public class FastThrowRepro {
    public static void main(String[] args) {
        Comparable<Object> state = (Comparable<Object>) (Object) Thread.State.NEW;
        for (int i = 1; i <= 200_000; i++) {
            try {
                state.compareTo("x");
            } catch (ClassCastException e) {
                if (e.getMessage() == null) {
                    System.out.println("call " + i + ": ClassCastException without a message");
                    return;
                }
            }
        }
        System.out.println("200000 calls: every ClassCastException had its message");
    }
}
