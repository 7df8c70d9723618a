package dev.ruminate.providers.testing;

import java.util.Random;
import java.util.function.IntUnaryOperator;

/**
 * What a fast path's differential-test writer does between the shapes it writes: whitespace
 * between tokens, property names with it, commas, a pick among options, and JSON strings of
 * {@link JsonNoise} pieces. The six families' writers extend it and differ in the shapes, in how
 * often whitespace comes and of which kinds, and in how often each string piece comes; those odds
 * are what their fast-path share guards were tuned to, so each writer gives its own.
 *
 * <p>Not thread-safe: one writer per generated stream or chunk, on one test thread.
 */
public abstract class NoisyJsonWriter {

    /** The test's random source; every draw of the writer comes from it, in the order written. */
    protected final Random random;
    /** False for well-formed JSON only, so that a malformed chunk does not end its stream early. */
    protected final boolean malformed;
    /** The JSON being written. */
    protected StringBuilder out = new StringBuilder();

    private final int whitespaceOneIn;
    private final String[] whitespace;

    /**
     * Creates a writer.
     *
     * @param random the test's random source
     * @param malformed whether malformed pieces may be written
     * @param whitespaceOneIn whitespace comes between tokens one time in this many
     * @param whitespace the runs of whitespace to pick from
     */
    protected NoisyJsonWriter(Random random, boolean malformed, int whitespaceOneIn, String... whitespace) {
        this.random = random;
        this.malformed = malformed;
        this.whitespaceOneIn = whitespaceOneIn;
        this.whitespace = whitespace.clone();
    }

    /** Writes a property name and its colon, with whitespace around each. */
    protected void key(String name) {
        ws();
        out.append('"').append(name).append('"');
        ws();
        out.append(':');
        ws();
    }

    /**
     * Writes a property name and its colon, one time in {@code escapedOneIn} with its last character
     * as a {@code \}{@code u} escape (Jackson reads it as the same name; a byte scanner must notice it).
     *
     * @param name the name, ASCII
     * @param escapedOneIn how rarely the name is escaped
     */
    protected void key(String name, int escapedOneIn) {
        if (random.nextInt(escapedOneIn) == 0) {
            escapedKey(name);
        } else {
            key(name);
        }
    }

    /** Writes a property name with its last character as a {@code \}{@code u} escape, and its colon, with whitespace around each. */
    protected void escapedKey(String name) {
        ws();
        out.append('"').append(escapedLast(name)).append('"');
        ws();
        out.append(':');
        ws();
    }

    /**
     * Returns a name with its last character written as a {@code \}{@code u} escape.
     *
     * @param name the name, not empty
     * @return the name as JSON string content
     */
    protected static String escapedLast(String name) {
        return name.substring(0, name.length() - 1) + String.format("\\u%04x", (int) name.charAt(name.length() - 1));
    }

    /**
     * Writes the comma before a member unless it is the first.
     *
     * @param first whether the member is the first of its object or array
     * @return false: the next member is not the first
     */
    protected boolean comma(boolean first) {
        if (!first) {
            ws();
            out.append(',');
        }
        return false;
    }

    /** Writes whitespace between tokens, now and then. */
    protected void ws() {
        out.append(spaces());
    }

    /**
     * Returns whitespace between tokens, now and then, for a writer that builds a piece of JSON as
     * an expression; draws as {@link #ws()} does.
     *
     * @return a run of whitespace, or the empty string
     */
    protected String spaces() {
        return random.nextInt(whitespaceOneIn) == 0 ? pick(whitespace) : "";
    }

    /**
     * Writes a JSON string of 0 to 8 pieces, each of the {@linkplain JsonNoise#stringPiece kind}
     * that {@code kindOfRoll} gives for a roll from 0 to {@code rolls - 1} (it may draw more).
     *
     * @param rolls the number of rolls
     * @param kindOfRoll the piece kind of each roll
     */
    protected void string(int rolls, IntUnaryOperator kindOfRoll) {
        out.append('"');
        int pieces = random.nextInt(9);
        for (int i = 0; i < pieces; i++) {
            JsonNoise.stringPiece(random, out, kindOfRoll.applyAsInt(random.nextInt(rolls)));
        }
        out.append('"');
    }

    /** Returns one of the options, drawn from this writer's random source. */
    protected String pick(String... options) {
        return pick(random, options);
    }

    /**
     * Returns one of the options.
     *
     * @param random the source to draw from
     * @param options what to pick from
     * @return the option drawn
     */
    public static String pick(Random random, String... options) {
        return options[random.nextInt(options.length)];
    }
}
