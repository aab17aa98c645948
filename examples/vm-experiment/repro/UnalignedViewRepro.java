import java.nio.ByteBuffer;

/**
 * An int view of a direct buffer at an odd offset. The JDK picks the view class from
 * Unsafe.unalignedAccess(): true on HotSpot/x86-64 (a DirectIntBuffer), false on Espresso
 * (a ByteBufferAsIntBuffer that assembles ints byte by byte).
 */
public class UnalignedViewRepro {
    public static void main(String[] args) {
        ByteBuffer direct = ByteBuffer.allocateDirect(16);
        direct.position(3);
        System.out.println("os.arch=" + System.getProperty("os.arch"));
        System.out.println("view at offset 3: " + direct.asIntBuffer().getClass().getName());
        System.out.println("long view:        " + direct.asLongBuffer().getClass().getName());
    }
}
