import java.security.*;
import java.util.*;
import java.util.regex.*;
import javax.xml.parsers.*;

// Items added after the tuning/validation split (README.md, "The split"): all of them are in
// the validation half. Found in JDK 18-25 release notes, CSRs and JEPs not read before.
public class HeldOut extends Probe {
    static Object has(Class<?> c, String member, Class<?>... params) {
        try {
            if (params.length == 0 && !member.endsWith("()")) c.getField(member); else c.getMethod(member.replace("()", ""), params);
            return "present";
        } catch (NoSuchMethodException | NoSuchFieldException e) {
            return "absent";
        }
    }
    static Object cls(String name) {
        try { Class.forName(name); return "present"; } catch (ClassNotFoundException e) { return "absent"; }
    }
    static String props(Class<?> c) throws Exception {
        StringBuilder b = new StringBuilder();
        for (java.beans.PropertyDescriptor p : java.beans.Introspector.getBeanInfo(c).getPropertyDescriptors()) b.append(b.length() == 0 ? "" : " ").append(p.getName());
        return b.toString();
    }
    public static void main(String[] a) throws Exception {
        // 17 -> 21
        t("regex-emoji-properties", () -> Pattern.compile("\\p{IsEmoji}").matcher("\u263A").matches() + " " + Pattern.compile("\\p{IsExtended_Pictographic}").matcher("\u00A9").matches());
        t("formatter-double-shortest", () -> String.format("%.17g | %.16e", 2e23, 2e23));
        t("tls-ecdh-disabled", () -> Arrays.asList(Security.getProperty("jdk.tls.disabledAlgorithms").split(",\\s*")).contains("ECDH"));
        t("dtls10-disabled", () -> Arrays.asList(Security.getProperty("jdk.tls.disabledAlgorithms").split(",\\s*")).contains("DTLSv1.0"));
        t("legacy-algorithms-weak-ciphers", () -> Security.getProperty("jdk.security.legacyAlgorithms"));
        t("beans-default-methods", () -> props(StringBuilder.class));
        t("collections-shuffle-randomgenerator", () -> has(Collections.class, "shuffle", List.class, java.util.random.RandomGenerator.class));
        // 21 -> 25
        t("jaxp-restrictive-limits", () -> {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            return f.getAttribute("jdk.xml.entityExpansionLimit") + " " + f.getAttribute("jdk.xml.maxElementDepth") + " "
                + f.getAttribute("jdk.xml.elementAttributeLimit") + " "
                + javax.xml.xpath.XPathFactory.newInstance().getFeature("http://www.oracle.com/xml/jaxp/properties/enableExtensionFunctions");
        });
        t("jaxp-dtd-support-property", () -> DocumentBuilderFactory.newInstance().getAttribute("jdk.xml.dtd.support"));
        t("tls-rsa-key-exchange-disabled", () -> Arrays.asList(Security.getProperty("jdk.tls.disabledAlgorithms").split(",\\s*")).contains("TLS_RSA_*"));
        t("tls-sha1-handshake-signatures-disabled", () -> Security.getProperty("jdk.tls.disabledAlgorithms").contains("rsa_pkcs1_sha1 usage HandshakeSignature"));
        t("file-empty-path-is-user-dir", () -> new java.io.File("").exists() + " " + new java.io.File("").isDirectory());
        t("accesscontroller-checkpermission-unsupported", () -> { AccessController.checkPermission(new RuntimePermission("exitVM")); return "ok"; });
        t("stringtemplate-withdrawn", () -> cls("java.lang.StringTemplate"));
        t("namedparameterspec-ml", () -> has(java.security.spec.NamedParameterSpec.class, "ML_KEM_768") + " " + has(java.security.spec.NamedParameterSpec.class, "ML_DSA_44"));
    }
}
