package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The records of a text stream in order (SSE events, NDJSON lines), each already framed, and the
 * malformed records a script asks for: a fault put before the record it names.
 *
 * <p>Only counted records (JSON records) are numbered for the fault; the others (SSE comments) keep
 * their place between them. Mutable, for one writer on one thread.
 */
final class Records {

    private final List<String> frames = new ArrayList<>();
    private final List<Boolean> counted = new ArrayList<>();
    private int count;

    /** Adds a record that counts when placing malformed records. */
    void add(String frame) {
        frames.add(frame);
        counted.add(true);
        count++;
    }

    /** Adds a record that sits between counted records without being one (an SSE comment). */
    void addUncounted(String frame) {
        frames.add(frame);
        counted.add(false);
    }

    int count() {
        return count;
    }

    /**
     * Joins the records, with one malformed record before the counted record of each index in
     * {@code malformedAt} (after the last one for an index equal to the count).
     *
     * @param unit what a record is called in the error message, such as {@code chunk}
     * @param malformed renders a framed malformed record, once per insertion
     * @throws IllegalStateException if an index is past the end
     */
    String join(List<Integer> malformedAt, String unit, Supplier<String> malformed) {
        for (int position : malformedAt) {
            if (position > count) {
                throw new IllegalStateException("malformed " + unit + " index " + position
                        + " is past the end: the stream has " + count + " " + unit + "s");
            }
        }
        StringBuilder out = new StringBuilder();
        int index = 0;
        for (int i = 0; i < frames.size(); i++) {
            if (counted.get(i)) {
                insert(out, malformedAt, index++, malformed);
            }
            out.append(frames.get(i));
        }
        insert(out, malformedAt, index, malformed);
        return out.toString();
    }

    private static void insert(StringBuilder out, List<Integer> malformedAt, int index, Supplier<String> malformed) {
        for (int position : malformedAt) {
            if (position == index) {
                out.append(malformed.get());
            }
        }
    }
}
