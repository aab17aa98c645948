// Double.toString and Float.toString give the shortest decimal that rounds back (JDK 19, JDK-4511638).
public class FloatingPoint extends Probe {
    public static void main(String[] a) throws Exception {
        t("double-tostring-shortest", () -> Double.toString(2.0E23) + " " + Double.toString(1.0E23) + " " + Double.toString(2.82879384806159E17) + " " + Double.toString(1.0E-322) + " " + String.valueOf(8.41E21));
        t("float-tostring-shortest", () -> Float.toString(Float.MIN_NORMAL) + " " + Float.toString(2.0E-44f) + " " + Float.intBitsToFloat(16));
    }
}
