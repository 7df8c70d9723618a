package dev.ruminate.providers.chatcompletions;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the reasoning of earlier assistant turns goes back to a server in later requests.
 *
 * <p>Whatever the mode, reasoning produced by another provider (an assistant message whose
 * {@code provider} is not this profile's name) is never sent: its opaque state (signatures,
 * encrypted blobs) means nothing here and its text would be attributed to the wrong model.
 * Messages without a provider (built by hand) count as this profile's own.
 *
 * <p>Immutable and thread-safe.
 *
 * @param mode where reasoning goes
 * @param field the message field, for {@link Mode#FIELD} only
 * @param scope on which assistant messages it goes
 * @since 0.1
 */
public record ReasoningSendBack(Mode mode, @Nullable String field, Scope scope) {

    /** Never sends reasoning back. */
    public static final ReasoningSendBack DROP = new ReasoningSendBack(Mode.DROP, null, Scope.ALL_TURNS);

    /**
     * Creates the value, checking its components.
     *
     * @param mode see {@link #mode()}
     * @param field see {@link #field()}
     * @param scope see {@link #scope()}
     */
    public ReasoningSendBack {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(scope, "scope");
        if (mode == Mode.FIELD && (field == null || field.isBlank())) {
            throw new IllegalArgumentException("mode FIELD needs a field name");
        }
        if (mode != Mode.FIELD && field != null) {
            throw new IllegalArgumentException("only mode FIELD takes a field name, mode was " + mode);
        }
    }

    /**
     * Sends the reasoning text in a field of the assistant message, on every turn that has some.
     *
     * @param name the field, e.g. {@code reasoning_content} or {@code reasoning}
     * @return the rule
     */
    public static ReasoningSendBack field(String name) {
        return new ReasoningSendBack(Mode.FIELD, name, Scope.ALL_TURNS);
    }

    /**
     * Sends the reasoning as tagged text before the answer in {@code content}.
     *
     * @return the rule
     */
    public static ReasoningSendBack thinkTags() {
        return new ReasoningSendBack(Mode.THINK_TAGS, null, Scope.ALL_TURNS);
    }

    /**
     * Sends the reasoning as OpenRouter-style {@code reasoning_details}, with signatures, encrypted
     * data, ids and formats exactly as received.
     *
     * @return the rule
     */
    public static ReasoningSendBack reasoningDetails() {
        return new ReasoningSendBack(Mode.REASONING_DETAILS, null, Scope.ALL_TURNS);
    }

    /**
     * Sends the reasoning as Mistral thinking chunks: the assistant {@code content} becomes an array
     * of {@code {"type":"thinking","thinking":[{"type":"text","text":…}]}} and
     * {@code {"type":"text","text":…}} chunks in the order of the message's parts.
     *
     * @return the rule
     */
    public static ReasoningSendBack thinkingChunks() {
        return new ReasoningSendBack(Mode.THINKING_CHUNKS, null, Scope.ALL_TURNS);
    }

    /**
     * Sends Gemini thought signatures back where Gemini's OpenAI-compatible endpoint puts them: the
     * message's signature as {@code extra_content.google.thought_signature} on the assistant message,
     * each tool call's as {@code extra_content.google.thought_signature} on that call; no reasoning
     * text (the endpoint has no field for it).
     *
     * @return the rule
     */
    public static ReasoningSendBack googleExtraContent() {
        return new ReasoningSendBack(Mode.GOOGLE_EXTRA_CONTENT, null, Scope.ALL_TURNS);
    }

    /**
     * Returns this rule restricted to {@link Scope#TOOL_TURNS}.
     *
     * @return the restricted rule
     */
    public ReasoningSendBack onlyInToolTurns() {
        return new ReasoningSendBack(mode, field, Scope.TOOL_TURNS);
    }

    /**
     * Where reasoning goes back.
     *
     * @since 0.1
     */
    public enum Mode {
        /** Nowhere: the server ignores, rejects or forbids it. */
        DROP,
        /** Into a field of the assistant message (its name in {@link ReasoningSendBack#field()}). */
        FIELD,
        /** Into {@code content}, wrapped in the profile's think tags (default {@code <think>}). */
        THINK_TAGS,
        /** Into {@code reasoning_details}, opaque state included. */
        REASONING_DETAILS,
        /**
         * Into {@code content}, which becomes an array of Mistral thinking and text chunks (a message
         * without reasoning keeps its plain string content).
         */
        THINKING_CHUNKS,
        /**
         * Into {@code extra_content.google.thought_signature}: the signature of the message's
         * reasoning or text (the last one) on the assistant message, a tool call's on the call;
         * reasoning text is not sent (Gemini's OpenAI-compatible endpoint).
         */
        GOOGLE_EXTRA_CONTENT
    }

    /**
     * Which assistant messages carry reasoning back.
     *
     * @since 0.1
     */
    public enum Scope {
        /** Every assistant message that has reasoning. */
        ALL_TURNS,
        /**
         * Only assistant messages of a user turn (the messages between two user messages) in which
         * the model called a tool, and then always: with {@link Mode#FIELD}, a message of such a
         * turn without reasoning gets the field with an empty string (DeepSeek rejects the request
         * when the field is missing).
         */
        TOOL_TURNS
    }
}
