package difftest;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;

/**
 * Owns the digest of a value too large to store whole: SHA-256 of its UTF-16 units
 * (big-endian), lowercase hex. The JDK's own implementation (the {@code SUN} provider, when
 * it is still the one the boot loader defined: the code under test can replace providers)
 * does the work, several times faster than the one written here, which stands in when it
 * is gone; both give the same hex for the same text in every JVM.
 */
final class Digest {
    private static final int[] K = new int[64];
    private static final int[] H0 = new int[8];

    static {
        int found = 0;
        for (int p = 2; found < 64; p++) {
            if (prime(p)) {
                K[found] = fraction(Math.cbrt(p));
                if (found < 8) {
                    H0[found] = fraction(Math.sqrt(p));
                }
                found++;
            }
        }
    }

    private Digest() {}

    private static boolean prime(int p) {
        for (int d = 2; d * d <= p; d++) {
            if (p % d == 0) {
                return false;
            }
        }
        return true;
    }

    /** The first 32 bits of the fractional part of {@code x}, as SHA-2 defines its constants. */
    private static int fraction(double x) {
        return (int) (long) ((x - Math.floor(x)) * 4294967296.0);
    }

    /** UTF-16 units fed to the JDK's digest at a time. */
    private static final int CHUNK = 8192;

    /** The lowercase hex SHA-256 of {@code s}'s UTF-16 units, big-endian. */
    static String sha256(String s) {
        MessageDigest jdk = jdkSha256();
        return jdk == null ? own(s) : hex(withJdk(jdk, s));
    }

    /** The boot loader's SHA-256, or null when the {@code SUN} provider was replaced or removed. */
    private static MessageDigest jdkSha256() {
        try {
            Provider sun = Security.getProvider("SUN");
            if (sun == null || sun.getClass().getClassLoader() != null) {
                return null;
            }
            MessageDigest md = MessageDigest.getInstance("SHA-256", sun);
            return md.getClass().getClassLoader() == null ? md : null;
        } catch (GeneralSecurityException | RuntimeException e) {
            return null;
        }
    }

    private static byte[] withJdk(MessageDigest md, String s) {
        byte[] buf = new byte[2 * CHUNK];
        for (int i = 0, n = s.length(); i < n; ) {
            int k = 0;
            for (int end = Math.min(n, i + CHUNK); i < end; i++) {
                char c = s.charAt(i);
                buf[k++] = (byte) (c >>> 8);
                buf[k++] = (byte) c;
            }
            md.update(buf, 0, k);
        }
        return md.digest();
    }

    private static String hex(byte[] digest) {
        StringBuilder out = new StringBuilder(2 * digest.length);
        for (byte b : digest) {
            out.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        return out.toString();
    }

    /** SHA-256 as FIPS 180-4 defines it, for when the JDK's is not to be trusted. */
    static String own(String s) {
        int[] h = H0.clone();
        int[] w = new int[64];
        long bytes = 2L * s.length();
        long blocks = (bytes + 8) / 64 + 1;
        for (long b = 0; b < blocks; b++) {
            boolean whole = b * 64 + 64 <= bytes;
            for (int t = 0; t < 16; t++) {
                long at = b * 64 + 4L * t;
                w[t] = whole ? s.charAt((int) (at >> 1)) << 16 | s.charAt((int) (at >> 1) + 1) : word(s, at, bytes);
            }
            compress(h, w);
        }
        StringBuilder out = new StringBuilder(64);
        for (int v : h) {
            String hex = Integer.toHexString(v);
            out.append("00000000", hex.length(), 8).append(hex);
        }
        return out.toString();
    }

    /** The big-endian word at byte {@code at} of the padded message. */
    private static int word(String s, long at, long bytes) {
        int v = 0;
        for (long i = at; i < at + 4; i++) {
            v = (v << 8) | paddedByte(s, i, bytes);
        }
        return v;
    }

    private static int paddedByte(String s, long i, long bytes) {
        if (i < bytes) {
            char c = s.charAt((int) (i >> 1));
            return (i & 1) == 0 ? c >>> 8 : c & 0xff;
        } else if (i == bytes) {
            return 0x80;
        }
        long fromEnd = ((bytes + 8) / 64 + 1) * 64 - 1 - i;
        return fromEnd < 8 ? (int) ((bytes * 8) >>> (8 * fromEnd)) & 0xff : 0;
    }

    private static void compress(int[] h, int[] w) {
        for (int t = 16; t < 64; t++) {
            int s0 = Integer.rotateRight(w[t - 15], 7) ^ Integer.rotateRight(w[t - 15], 18) ^ (w[t - 15] >>> 3);
            int s1 = Integer.rotateRight(w[t - 2], 17) ^ Integer.rotateRight(w[t - 2], 19) ^ (w[t - 2] >>> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        int a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
        for (int t = 0; t < 64; t++) {
            int t1 = k + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25))
                    + ((e & f) ^ (~e & g)) + K[t] + w[t];
            int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22))
                    + ((a & b) ^ (a & c) ^ (b & c));
            k = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += k;
    }
}
