package example.lib;

/** Release 1 of a tiny library: the reference for the fixture experiment. */
public class Calculator {
    private int memory;

    public Calculator() {}

    public Calculator(int memory) {
        this.memory = memory;
    }

    public int add(int a, int b) {
        return a + b;
    }

    public int divide(int a, int b) {
        return a / b;
    }

    public String greet(String name) {
        return "Hello, " + name;
    }

    public int clamp(int value, int low, int high) {
        return Math.max(low, Math.min(high, value));
    }

    public String legacyName() {
        return "calc-1";
    }

    public int store(int value) {
        memory = value;
        return memory;
    }

    public int getMemory() {
        return memory;
    }

    /** Doubles n. */
    public int twice(int n) {
        return n * 2;
    }

    /** Returns n. */
    public int checked(int n) {
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
