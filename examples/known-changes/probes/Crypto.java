import java.security.*;
import java.util.*;
import javax.crypto.*;

// Security defaults and the algorithms the built-in providers offer.
public class Crypto extends Probe {
    public static void main(String[] a) throws Exception {
        // 17 -> 21: JDK-8267319 (JDK 19) larger default key sizes
        t("default-aes-keysize", () -> {
            SecretKey k = KeyGenerator.getInstance("AES").generateKey();
            String r = k.getEncoded().length * 8 + " bits; AES_128 cipher init: ";
            try { Cipher.getInstance("AES_128/ECB/NoPadding").init(Cipher.ENCRYPT_MODE, k); r += "ok"; } catch (Exception e) { r += e.getClass().getName(); }
            return r;
        });
        t("default-ec-dh-keysize", () -> ((java.security.interfaces.ECKey) KeyPairGenerator.getInstance("EC").generateKeyPair().getPublic()).getParams().getCurve().getField().getFieldSize()
                + " " + ((javax.crypto.interfaces.DHKey) KeyPairGenerator.getInstance("DH").generateKeyPair().getPublic()).getParams().getP().bitLength());
        t("security-algorithms-kem", () -> new TreeSet<>(Security.getAlgorithms("KEM")));
        t("signature-hss-lms", () -> Security.getAlgorithms("Signature").contains("HSS/LMS") + " " + Security.getAlgorithms("KeyFactory").contains("HSS/LMS"));
        t("pbes2-sha512-truncated", () -> Security.getAlgorithms("Cipher").contains("PBEWITHHMACSHA512/224ANDAES_128") + " " + Security.getAlgorithms("SecretKeyFactory").contains("PBKDF2WITHHMACSHA512/256"));
        // 21 -> 25
        t("ml-kem", () -> new TreeSet<>(Security.getAlgorithms("KEM")) + " " + Security.getAlgorithms("KeyPairGenerator").contains("ML-KEM"));
        t("ml-dsa", () -> Security.getAlgorithms("Signature").contains("ML-DSA") + " " + Security.getAlgorithms("KeyFactory").contains("ML-DSA-65"));
        t("hkdf-kdf", () -> new TreeSet<>(Security.getAlgorithms("KDF")));
        t("shake-digests", () -> Security.getAlgorithms("MessageDigest").contains("SHAKE128-256") + " " + Security.getAlgorithms("MessageDigest").contains("SHAKE256-512"));
    }
}
