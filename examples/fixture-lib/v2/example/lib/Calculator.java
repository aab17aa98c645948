package example.lib;

/** Release 2 of the tiny library, with one injected regression of every kind. */
public class Calculator {
    private int memory;

    public Calculator() {}

    public Calculator(int memory) {
        this.memory = memory;
    }

    public int add(int a, int b) {
        return a + b;
    }

    /** Regression: a different exception class for b == 0. */
    public int divide(int a, int b) {
        if (b == 0) throw new IllegalArgumentException("divisor is zero");
        return a / b;
    }

    /** Regression: a changed value (punctuation and a narrow no-break space). */
    public String greet(String name) {
        return "Hello,\u202F" + name + "!";
    }

    /** Regression: a new exception when the bounds are reversed. */
    public int clamp(int value, int low, int high) {
        if (low > high) throw new IllegalArgumentException("low > high");
        return Math.max(low, Math.min(high, value));
    }

    // Regression: legacyName() was removed.

    /** New in release 2: only a suite recorded on release 2 calls it. */
    public int negate(int n) {
        return -n;
    }

    public int store(int value) {
        memory = value;
        return memory;
    }

    public int getMemory() {
        return memory;
    }

    /** Regression: hangs for 0. */
    public int twice(int n) {
        while (n == 0) {
            Thread.onSpinWait();
        }
        return n * 2;
    }

    /** Regression: ends the JVM for 1. */
    public int checked(int n) {
        if (n == 1) System.exit(1);
        return n;
    }

    /** Nondeterministic on every implementation: must never reach a report. */
    public long ticket() {
        return System.nanoTime();
    }

    @Override
    public String toString() {
        return "Calculator[" + memory + "]";
    }
}
