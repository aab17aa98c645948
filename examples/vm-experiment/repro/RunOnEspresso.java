import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/**
 * Runs the main method of a class on Espresso, embedded in this (HotSpot) JVM:
 * java -cp POLYGLOT_JARS:. RunOnEspresso GUEST_JAVA_HOME GUEST_CLASSPATH MainClass
 */
public final class RunOnEspresso {
    public static void main(String[] args) {
        try (Context context = Context.newBuilder("java")
                .option("java.JavaHome", args[0])
                .option("java.Classpath", args[1])
                .option("engine.WarnInterpreterOnly", "false")
                .allowAllAccess(true)
                .build()) {
            Value main = context.getBindings("java").getMember(args[2]);
            main.invokeMember("main", (Object) new String[0]);
        }
    }
}
