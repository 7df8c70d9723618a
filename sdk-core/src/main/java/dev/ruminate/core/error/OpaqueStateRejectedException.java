package dev.ruminate.core.error;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The provider refused the request because of the opaque reasoning state it carried back: a
 * signature it could not verify or that is missing, encrypted reasoning it could not decrypt, a
 * Gemini thought signature missing or invalid, DeepSeek {@code reasoning_content} not passed back.
 * Still a {@link ProviderHttpException} (the status, provider error and excerpt are the original
 * ones), so handling written for HTTP errors keeps working; the original untyped error is the
 * {@linkplain #getCause() cause}.
 *
 * <p><b>Where.</b> {@link #location()} is the provider's own words for the place it names, such as
 * Anthropic's {@code messages.1.content.0}, Gemini's {@code function call `get_weather` in the 2.
 * content block}, DeepSeek's {@code message index 2} or a Responses item id {@code rs_…}.
 * {@link #turn()} and {@link #part()} translate it, when that can be done correctly, into the
 * caller's conversation: the index of the message in the request's {@code messages} as given, and
 * of the part in that message. A family's classifier finds the place in the conversation that was
 * encoded (the messages <em>after</em> the history policy prepared them,
 * {@link dev.ruminate.core.history.History#plan}, which may have dropped turns and parts); the
 * provider's pipeline maps it back through
 * {@link dev.ruminate.core.history.PreparedHistory#originalTurn} and
 * {@link dev.ruminate.core.history.PreparedHistory#originalPart} before the error reaches the
 * caller. They are null when the provider named no place or the place cannot be mapped back with
 * certainty (the family's encoder lifts system messages out, merges messages, drops blocks, …).
 *
 * <p>The message names the reason and the location, never an opaque value or a credential.
 *
 * <p>Safe to share between threads once thrown.
 *
 * @since 0.3
 */
public final class OpaqueStateRejectedException extends ProviderHttpException {

    private static final long serialVersionUID = 1L;

    /**
     * Why the provider refused the opaque state.
     *
     * @since 0.3
     */
    public enum Reason {
        /** A signature the provider could not verify (Anthropic or Bedrock Claude {@code thinking}). */
        INVALID_SIGNATURE(true),
        /** A thinking block sent without its signature (Anthropic {@code thinking.signature: Field required}). */
        MISSING_SIGNATURE(false),
        /**
         * The signed thinking the current tool-use turn needs is not there (Anthropic
         * {@code Expected `thinking` or `redacted_thinking`, but found `tool_use`}): nothing to strip.
         */
        MISSING_THINKING(false),
        /** Encrypted reasoning the provider could not decrypt or verify (Responses {@code invalid_encrypted_content}). */
        INVALID_ENCRYPTED_CONTENT(true),
        /** A reasoning item referenced by id that the provider does not keep (Responses with {@code store: false}). */
        ITEM_NOT_FOUND(true),
        /** A Gemini function call of the current turn without its thought signature: nothing to strip. */
        MISSING_THOUGHT_SIGNATURE(false),
        /** A Gemini thought signature the API could not verify. */
        INVALID_THOUGHT_SIGNATURE(true),
        /**
         * DeepSeek thinking mode wants the {@code reasoning_content} of a tool-call turn back:
         * stripping cannot add what is missing.
         */
        MISSING_REASONING_CONTENT(false),
        /** Opaque state was refused for a reason not listed here. */
        OTHER(false);

        private final boolean strippable;

        Reason(boolean strippable) {
            this.strippable = strippable;
        }

        /**
         * Tells whether removing opaque state can make the provider accept the request: true for a
         * value it refused, false when it misses a value that is not there.
         *
         * @return true when a stripped retry makes sense
         */
        public boolean strippable() {
            return strippable;
        }
    }

    /** Why the provider refused. */
    private final Reason reason;
    /** The provider's words for the place, or null. */
    private final @Nullable String location;
    /** The index of the message in the request's messages (see the class comment), or null. */
    private final @Nullable Integer turn;
    /** The index of the part in that message, or null. */
    private final @Nullable Integer part;

    /**
     * Types an HTTP error as a rejection of opaque state.
     *
     * @param rejected the error as the exchange raised it (its status, provider error and excerpt are kept)
     * @param provider the provider's name, for the message
     * @param reason why the provider refused
     * @param location the provider's words for the place, or null when it named none
     * @param turn the index of the message in the request's messages, or null when not resolved (a
     *     classifier gives the prepared index; the pipeline maps it to the caller's, see the class comment)
     * @param part the index of the part in that message, or null when not resolved
     */
    public OpaqueStateRejectedException(ProviderHttpException rejected, String provider, Reason reason,
                                        @Nullable String location, @Nullable Integer turn, @Nullable Integer part) {
        super(rejected, message(rejected, provider, reason, location, turn, part));
        this.reason = Objects.requireNonNull(reason, "reason");
        this.location = location;
        this.turn = turn;
        this.part = part;
    }

    private static String message(ProviderHttpException rejected, String provider, Reason reason,
                                  @Nullable String location, @Nullable Integer turn, @Nullable Integer part) {
        StringBuilder sb = new StringBuilder(provider).append(" rejected the opaque reasoning state sent back (")
                .append(reason);
        if (location != null) {
            sb.append(" at ").append(location);
        }
        sb.append(")");
        if (turn != null) {
            sb.append(" in message ").append(turn);
            if (part != null) {
                sb.append(", part ").append(part);
            }
        }
        // the provider's own words never quote the value; the excerpt is not repeated here
        sb.append(": HTTP ").append(rejected.status()).append(' ').append(rejected.error().describe());
        if (rejected.requestId() != null) {
            sb.append(" [request id ").append(rejected.requestId()).append(']');
        }
        return sb.toString();
    }

    /**
     * Returns why the provider refused.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Returns the provider's own words for the place it refused, such as {@code messages.1.content.0}.
     *
     * @return the location, or null when the provider named none
     */
    public @Nullable String location() {
        return location;
    }

    /**
     * Returns the index of the refused message in the request's messages as the caller gave them
     * (see the class comment).
     *
     * @return the index, or null when not resolved
     */
    public @Nullable Integer turn() {
        return turn;
    }

    /**
     * Returns the index of the refused part within {@link #turn()}'s message.
     *
     * @return the index, or null when not resolved
     */
    public @Nullable Integer part() {
        return part;
    }

    @Override
    public boolean isRetryable() {
        // repeating the same request gets the same refusal; only a changed request can pass
        return false;
    }

    @Override
    public String type() {
        return "opaque_state_rejected";
    }
}
