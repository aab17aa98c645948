package difftest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * Owns the digest of a value too large to store whole: CRC-32C then CRC-32 of its UTF-16
 * units (little-endian), as 16 lowercase hex digits. Both are intrinsics even in the C1-only
 * workers and the text is copied out in small chunks, so a 10 MB text costs a few tens of
 * milliseconds (SHA-256 took 130–250 ms there and slowed generation to a crawl); both live in
 * {@code java.base}, where no code under test can swap them. With the length they tell
 * accidental changes apart; they are not meant to resist text crafted to collide.
 */
final class Digest {
    /** UTF-16 units copied out of the text at a time. */
    private static final int CHUNK = 8192;

    private Digest() {}

    /** The 16 hex digits of {@code s}'s digest. */
    static String of(String s) {
        CRC32C c = new CRC32C();
        CRC32 d = new CRC32();
        char[] chars = new char[CHUNK];
        ByteBuffer bytes = ByteBuffer.allocate(2 * CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        CharBuffer view = bytes.asCharBuffer();
        for (int i = 0, n = s.length(); i < n; i += CHUNK) {
            int end = Math.min(n, i + CHUNK);
            s.getChars(i, end, chars, 0);
            view.clear();
            view.put(chars, 0, end - i);
            c.update(bytes.array(), 0, 2 * (end - i));
            d.update(bytes.array(), 0, 2 * (end - i));
        }
        return hex8(c.getValue()) + hex8(d.getValue());
    }

    private static String hex8(long v) {
        String h = Long.toHexString(v);
        return "00000000".substring(h.length()) + h;
    }
}
