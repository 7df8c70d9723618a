package dev.ruminate.providers.responses;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What {@link ResponsesStreamEncoder} cannot take from the events: the id and creation time of the
 * response it writes, the model name to report, the request fields to echo, whether raw reasoning
 * is mirrored as summary, and the hook that seals opaque state into {@code encrypted_content}.
 *
 * <p>Each subscription to an encoded stream calls {@code responseId} and {@code createdAt} once, so
 * a stream subscribed twice gets two ids. Tests pass fixed suppliers to get deterministic output.
 *
 * <p>Immutable; thread-safe when the suppliers and the hook are. Components are non-null unless
 * marked {@code @Nullable}.
 *
 * @param responseId gives the response's id ({@code resp_…}); item ids are derived from it
 * @param createdAt gives the creation time in epoch seconds ({@code created_at})
 * @param model the model to report; null to report the one of the upstream {@code ResponseStarted}
 * @param echo the request fields every response object repeats
 * @param reasoningSummaries whether raw reasoning also goes out as summary
 * @param encryptedContent the hook giving items their {@code encrypted_content}; null to write none
 * @since 0.1
 */
public record ResponsesStreamOptions(Supplier<String> responseId, LongSupplier createdAt, @Nullable String model,
                                     ResponseEcho echo, ReasoningSummaries reasoningSummaries,
                                     @Nullable EncryptedContentWriter encryptedContent) {

    /**
     * Creates the value, checking its components.
     *
     * @param responseId see {@link #responseId()}
     * @param createdAt see {@link #createdAt()}
     * @param model see {@link #model()}
     * @param echo see {@link #echo()}
     * @param reasoningSummaries see {@link #reasoningSummaries()}
     * @param encryptedContent see {@link #encryptedContent()}
     */
    public ResponsesStreamOptions {
        Objects.requireNonNull(responseId, "responseId");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(echo, "echo");
        Objects.requireNonNull(reasoningSummaries, "reasoningSummaries");
    }

    /**
     * Creates options with {@link ResponseEcho#NONE}, {@link ReasoningSummaries#MIRROR} and no hook.
     *
     * @param responseId see {@link #responseId()}
     * @param createdAt see {@link #createdAt()}
     * @param model see {@link #model()}
     */
    public ResponsesStreamOptions(Supplier<String> responseId, LongSupplier createdAt, @Nullable String model) {
        this(responseId, createdAt, model, ResponseEcho.NONE, ReasoningSummaries.MIRROR, null);
    }

    /**
     * Returns the defaults: a random {@code resp_…} id, the current time, the upstream model, no
     * echoed request fields, raw reasoning mirrored as summary, no {@code encrypted_content}.
     *
     * @return the options
     */
    public static ResponsesStreamOptions defaults() {
        return new ResponsesStreamOptions(() -> "resp_" + UUID.randomUUID().toString().replace("-", ""),
                () -> Instant.now().getEpochSecond(), null);
    }

    /**
     * Returns fixed options, for tests and replays: always the same id and time.
     *
     * @param responseId the id
     * @param createdAt the time in epoch seconds
     * @param model the model to report, or null for the upstream one
     * @return the options
     */
    public static ResponsesStreamOptions fixed(String responseId, long createdAt, @Nullable String model) {
        Objects.requireNonNull(responseId, "responseId");
        return new ResponsesStreamOptions(() -> responseId, () -> createdAt, model);
    }

    /**
     * Returns these options reporting another model.
     *
     * @param newModel the model to report, or null for the upstream one
     * @return the options
     */
    public ResponsesStreamOptions withModel(@Nullable String newModel) {
        return new ResponsesStreamOptions(responseId, createdAt, newModel, echo, reasoningSummaries, encryptedContent);
    }

    /**
     * Returns these options echoing other request fields.
     *
     * @param newEcho the fields, for example {@link ResponsesCall#echo()}
     * @return the options
     */
    public ResponsesStreamOptions withEcho(ResponseEcho newEcho) {
        return new ResponsesStreamOptions(responseId, createdAt, model, newEcho, reasoningSummaries, encryptedContent);
    }

    /**
     * Returns these options with another reasoning summary mode.
     *
     * @param mode the mode
     * @return the options
     */
    public ResponsesStreamOptions withReasoningSummaries(ReasoningSummaries mode) {
        return new ResponsesStreamOptions(responseId, createdAt, model, echo, mode, encryptedContent);
    }

    /**
     * Returns these options with another {@code encrypted_content} hook.
     *
     * @param hook the hook, or null to write no {@code encrypted_content}
     * @return the options
     */
    public ResponsesStreamOptions withEncryptedContent(@Nullable EncryptedContentWriter hook) {
        return new ResponsesStreamOptions(responseId, createdAt, model, echo, reasoningSummaries, hook);
    }
}
