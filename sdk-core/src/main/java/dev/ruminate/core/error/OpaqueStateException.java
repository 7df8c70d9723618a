package dev.ruminate.core.error;

import dev.ruminate.core.event.Seal;
import java.util.Objects;

/**
 * An opaque value of an earlier turn failed its integrity checks and the history policy says to
 * fail ({@link dev.ruminate.core.history.IntegrityPolicy#FAIL}): a malformed signature, an empty
 * value, encrypted content without its item id, a value from a block the stream never finished,
 * sealed blocks out of their order. Raised before any request is made: nothing was sent.
 *
 * <p>It names the turn (the message's index in the conversation as given), the part (its index in
 * that message), the kind of value and the problem; never the value itself.
 *
 * <p>Safe to share between threads once thrown.
 *
 * @since 0.2
 */
public final class OpaqueStateException extends InvalidRequestException {

    private static final long serialVersionUID = 1L;

    /** The message index in the conversation as given. */
    private final int turn;
    /** The part index in that message. */
    private final int part;
    /** The kind of the bad value. */
    private final Seal.Kind kind;
    /** What is wrong with the value, never the value. */
    private final String problem;

    /**
     * Creates the error.
     *
     * @param provider the provider the request was for
     * @param turn the message index in the conversation as given
     * @param part the part index in that message
     * @param kind the kind of the bad value
     * @param problem what is wrong with it, never quoting it
     */
    public OpaqueStateException(String provider, int turn, int part, Seal.Kind kind, String problem) {
        super(provider, "turn " + turn + " part " + part + ": the " + name(Objects.requireNonNull(kind, "kind"))
                + " is bad: " + Objects.requireNonNull(problem, "problem"), null);
        this.turn = turn;
        this.part = part;
        this.kind = kind;
        this.problem = problem;
    }

    /**
     * Returns the message index in the conversation as given.
     *
     * @return the turn
     */
    public int turn() {
        return turn;
    }

    /**
     * Returns the part index in that message.
     *
     * @return the part
     */
    public int part() {
        return part;
    }

    /**
     * Returns the kind of the bad value.
     *
     * @return the kind
     */
    public Seal.Kind kind() {
        return kind;
    }

    /**
     * Returns what is wrong with the value (never the value).
     *
     * @return the problem
     */
    public String problem() {
        return problem;
    }

    /**
     * Returns {@code opaque_state}.
     *
     * @return the type name
     */
    @Override
    public String type() {
        return "opaque_state";
    }

    /**
     * Returns a value kind's name as plans and messages write it ({@code signature},
     * {@code item id}).
     *
     * @param kind the kind
     * @return the name
     */
    public static String name(Seal.Kind kind) {
        return kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
}
