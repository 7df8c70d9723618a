package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.internal.JsonCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A fixed set of property names, each with a code, looked up by the name a {@link JsonCursor} last
 * read. For {@link DeltaScanner}, whose profile showed a tenth of its time comparing names one
 * array at a time: here a name is first sorted by its length, which leaves at most a few
 * candidates (usually none or one), and those are compared a word at a time by
 * {@link JsonCursor#nameIs}.
 *
 * <p>Immutable; safe to share between threads (a cursor is not).
 */
final class NameTable {

    /** What {@link #find} returns for a name not in the table. */
    static final int NONE = -1;

    /** The names of each length, by length. */
    private final byte[][][] names;
    /** Their codes, in the same places. */
    private final int[][] codes;

    private NameTable(byte[][][] names, int[][] codes) {
        this.names = names;
        this.codes = codes;
    }

    /**
     * Starts a table.
     *
     * @return a builder with no names
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Looks up the name the cursor last read with {@link JsonCursor#name()}.
     *
     * @param c the cursor, just after a name
     * @return the name's code, or {@link #NONE}
     */
    int find(JsonCursor c) {
        int n = c.nameLength();
        if (n >= names.length) {
            return NONE;
        }
        byte[][] candidates = names[n];
        for (int i = 0; i < candidates.length; i++) {
            // a word at a time: a byte at a time, through a bounds-checked accessor, was the scanner's hottest spot
            if (c.nameIs(candidates[i])) {
                return codes[n][i];
            }
        }
        return NONE;
    }

    /** Collects names and codes; not thread-safe. */
    static final class Builder {

        private final List<byte[]> names = new ArrayList<>();
        private final List<Integer> codes = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds a name, unless the table already has it: the first code given for a name is its code,
         * as the first matching {@code case} is the one a {@code switch} takes.
         *
         * @param name the name, plain ASCII (a cursor reads no other names)
         * @param code its code, not negative
         * @return this builder
         */
        Builder add(String name, int code) {
            if (code < 0) {
                throw new IllegalArgumentException("negative code " + code);
            }
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            for (byte[] known : names) {
                if (Arrays.equals(known, bytes)) {
                    return this;
                }
            }
            names.add(bytes);
            codes.add(code);
            return this;
        }

        /**
         * Builds the table.
         *
         * @return the table of the names added
         */
        NameTable build() {
            int longest = 0;
            for (byte[] name : names) {
                longest = Math.max(longest, name.length);
            }
            byte[][][] byLength = new byte[longest + 1][][];
            int[][] codesByLength = new int[longest + 1][];
            for (int length = 0; length <= longest; length++) {
                List<byte[]> same = new ArrayList<>();
                List<Integer> sameCodes = new ArrayList<>();
                for (int i = 0; i < names.size(); i++) {
                    if (names.get(i).length == length) {
                        same.add(names.get(i));
                        sameCodes.add(codes.get(i));
                    }
                }
                byLength[length] = same.toArray(new byte[0][]);
                codesByLength[length] = sameCodes.stream().mapToInt(Integer::intValue).toArray();
            }
            return new NameTable(byLength, codesByLength);
        }
    }
}
