package dev.ruminate.providers.chatcompletions;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What {@link ChatCompletionsStreamEncoder} cannot take from the events: the id and creation time of
 * the completion it writes, the model name to report, whether a streamed answer ends with a usage
 * chunk, and the field that carries reasoning.
 *
 * <p>Each subscription to an encoded stream calls {@code completionId} and {@code created} once, so a
 * stream subscribed twice gets two ids. Tests pass fixed suppliers to get deterministic output.
 *
 * <p>Immutable; thread-safe when the suppliers are. Components are non-null unless marked
 * {@code @Nullable}.
 *
 * @param completionId gives the completion's id ({@code chatcmpl-…}); ids of tool calls the upstream
 *     left without one are derived from it
 * @param created gives the creation time in epoch seconds ({@code created})
 * @param model the model to report (the name the client asked for); null to report the one of the
 *     upstream {@code ResponseStarted}
 * @param includeUsage whether a stream ends with a usage chunk ({@code stream_options.include_usage});
 *     a non-streaming body always has usage
 * @param reasoningField the field that carries reasoning
 * @since 0.2
 */
public record ChatCompletionsStreamOptions(Supplier<String> completionId, LongSupplier created, @Nullable String model,
                                           boolean includeUsage, ChatCompletionsReasoningField reasoningField) {

    /**
     * Creates the value, checking its components.
     *
     * @param completionId see {@link #completionId()}
     * @param created see {@link #created()}
     * @param model see {@link #model()}
     * @param includeUsage see {@link #includeUsage()}
     * @param reasoningField see {@link #reasoningField()}
     */
    public ChatCompletionsStreamOptions {
        Objects.requireNonNull(completionId, "completionId");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(reasoningField, "reasoningField");
    }

    /**
     * Returns the defaults: a random {@code chatcmpl-…} id, the current time, the upstream model, no
     * usage chunk, reasoning in {@code reasoning_content}.
     *
     * @return the options
     */
    public static ChatCompletionsStreamOptions defaults() {
        return new ChatCompletionsStreamOptions(() -> "chatcmpl-" + UUID.randomUUID().toString().replace("-", ""),
                () -> Instant.now().getEpochSecond(), null, false, ChatCompletionsReasoningField.REASONING_CONTENT);
    }

    /**
     * Returns fixed options, for tests and replays: always the same id and time; no usage chunk,
     * reasoning in {@code reasoning_content}.
     *
     * @param completionId the id
     * @param created the time in epoch seconds
     * @param model the model to report, or null for the upstream one
     * @return the options
     */
    public static ChatCompletionsStreamOptions fixed(String completionId, long created, @Nullable String model) {
        Objects.requireNonNull(completionId, "completionId");
        return new ChatCompletionsStreamOptions(() -> completionId, () -> created, model, false,
                ChatCompletionsReasoningField.REASONING_CONTENT);
    }

    /**
     * Returns a copy reporting another model.
     *
     * @param model the model to report, or null for the upstream one
     * @return the options
     */
    public ChatCompletionsStreamOptions withModel(@Nullable String model) {
        return new ChatCompletionsStreamOptions(completionId, created, model, includeUsage, reasoningField);
    }

    /**
     * Returns a copy that does or does not end a stream with a usage chunk.
     *
     * @param includeUsage the client's {@code stream_options.include_usage}
     * @return the options
     */
    public ChatCompletionsStreamOptions withIncludeUsage(boolean includeUsage) {
        return new ChatCompletionsStreamOptions(completionId, created, model, includeUsage, reasoningField);
    }

    /**
     * Returns a copy writing reasoning in another field.
     *
     * @param reasoningField the field
     * @return the options
     */
    public ChatCompletionsStreamOptions withReasoningField(ChatCompletionsReasoningField reasoningField) {
        return new ChatCompletionsStreamOptions(completionId, created, model, includeUsage, reasoningField);
    }
}
