package dev.ruminate.core.event;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Something the SDK changed or ignored on the caller's behalf while making a call, reported so it
 * is never silent: the opaque reasoning state it stripped to recover from a provider's rejection
 * ({@code opaque-state-recovered}), an option it ignored or coerced ({@code option-ignored},
 * {@code option-coerced}), a structured answer it asked for again ({@code structured-output-retried}), a cut stream it resumed
 * ({@code stream-resumed}). A warning is not
 * part of the model's answer: it is emitted before the events it concerns, reduced into
 * {@link dev.ruminate.core.reduce.ChatResult#warnings()}, and skipped by writers that re-serve a
 * response in a provider's own wire format (which has no place for it).
 *
 * <p>The message names what was changed and where, never an opaque value, a key or other secret.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param code a short stable name of the kind of warning, such as {@code opaque-state-recovered}
 * @param message what was changed or ignored, for people
 * @param turn the index of the conversation message the warning concerns (in the request's
 *     {@code messages}), or null when it concerns none in particular
 * @param part the index of the part within that message, or null
 * @since 0.3
 */
public record Warning(String code, String message, @Nullable Integer turn, @Nullable Integer part)
        implements ChatEvent {

    /** The code of a warning that opaque reasoning state was stripped after the provider rejected it and the call was retried once. */
    public static final String OPAQUE_STATE_RECOVERED = "opaque-state-recovered";

    /**
     * The code of a warning that an option of the request was left out because the provider (or
     * the model, or the request's other options) does not take it: a sampling option a reasoning
     * model refuses, a cache breakpoint on an API without caching.
     *
     * @since 0.3
     */
    public static final String OPTION_IGNORED = "option-ignored";

    /**
     * The code of a warning that an option was sent in another form than asked: an effort level
     * mapped to the nearest the API has, a budget raised to the API's minimum.
     *
     * @since 0.3
     */
    public static final String OPTION_COERCED = "option-coerced";

    /**
     * The code of a warning that the answer did not match the request's output schema and the call
     * was made once more with the violations, as a corrective turn.
     *
     * @since 0.3
     */
    public static final String STRUCTURED_OUTPUT_RETRIED = "structured-output-retried";

    /**
     * The code of a warning that a streamed response was cut after some of its events and the
     * stream was resumed from the provider's stored copy (OpenAI Responses background mode,
     * {@code starting_after}): the events already delivered are not repeated, and none is missing.
     *
     * @since 0.4
     */
    public static final String STREAM_RESUMED = "stream-resumed";

    /**
     * Creates the value, checking its components.
     *
     * @param code see {@link #code()}
     * @param message see {@link #message()}
     * @param turn see {@link #turn()}
     * @param part see {@link #part()}
     */
    public Warning {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        if (code.isBlank()) {
            throw new IllegalArgumentException("a warning needs a code");
        }
    }

    /**
     * Creates a warning about no message in particular.
     *
     * @param code see {@link #code()}
     * @param message see {@link #message()}
     */
    public Warning(String code, String message) {
        this(code, message, null, null);
    }
}
