package difftest;

import java.io.DataInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Owns {@code constants}: reads the class file of each requested class through the agent's
 * loader ({@code jrt:/} for JDK classes, jars and folders of the class path) and lists the
 * String, int, long, float and double constants of its constant pool, in pool order, each as
 * a type letter ({@code S I J F D}) followed by the value as Java renders it (Strings in the
 * escape of {@code sequence.rs}). {@link DataInputStream#readUTF} decodes the pool's modified
 * UTF-8. A class whose file cannot be read lists nothing.
 */
final class Constants {
    private Constants() {}

    /** {@code {"name":["Sabc","I100000",…],…}} for the {@code \n}-separated class names. */
    static String constants(String request, ClassLoader loader) {
        StringBuilder out = new StringBuilder(1 << 16).append('{');
        for (String name : Text.split(request, '\n')) {
            if (name.isEmpty()) {
                continue;
            }
            List<String> found = new ArrayList<>();
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = loader.getResourceAsStream(resource)) {
                if (in != null) {
                    pool(new DataInputStream(in), found);
                }
            } catch (Throwable t) {
                // An unreadable or malformed class file: what was read so far stays.
            }
            Text.json(out.append(out.length() > 1 ? "," : ""), name).append(':');
            out.append('[');
            for (int i = 0; i < found.size(); i++) {
                Text.json(out.append(i == 0 ? "" : ","), found.get(i));
            }
            out.append(']');
        }
        return out.append('}').toString();
    }

    /**
     * Whether the class file of {@code name} declares a public class (its access flags, which
     * follow the constant pool): read from the file, so it answers for a class that cannot be
     * loaded (a superclass or interface missing from the class path). False when unreadable.
     */
    static boolean declaredPublic(String name, ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                return false;
            }
            DataInputStream data = new DataInputStream(in);
            pool(data, new ArrayList<String>());
            return (data.readUnsignedShort() & 0x0001) != 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Reads the constant pool (JVMS 4.4) and appends its literal constants to {@code out}. */
    private static void pool(DataInputStream in, List<String> out) throws Exception {
        if (in.readInt() != 0xCAFEBABE) {
            throw new IllegalStateException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] strings = new int[count];
        int nStrings = 0;
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1:
                    utf8[i] = in.readUTF();
                    break;
                case 3:
                    out.add("I" + in.readInt());
                    break;
                case 4:
                    out.add("F" + Float.intBitsToFloat(in.readInt()));
                    break;
                case 5:
                    out.add("J" + in.readLong());
                    i++;
                    break;
                case 6:
                    out.add("D" + Double.longBitsToDouble(in.readLong()));
                    i++;
                    break;
                case 8:
                    strings[nStrings++] = in.readUnsignedShort();
                    break;
                case 7: case 16: case 19: case 20:
                    in.readUnsignedShort();
                    break;
                case 15:
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                    break;
                case 9: case 10: case 11: case 12: case 17: case 18:
                    in.readInt();
                    break;
                default:
                    throw new IllegalStateException("unknown constant pool tag " + tag);
            }
        }
        for (int k = 0; k < nStrings; k++) {
            int at = strings[k];
            if (at > 0 && at < count && utf8[at] != null) {
                out.add("S" + utf8[at]);
            }
        }
    }
}
