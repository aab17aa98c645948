package example.lib;

/** Unchanged between releases: its tests must pass on both. */
public class Counter {
    private int count;

    public Counter increment() {
        count++;
        return this;
    }

    public int getCount() {
        return count;
    }

    public boolean isZero() {
        return count == 0;
    }

    @Override
    public String toString() {
        return "Counter(" + count + ")";
    }
}
