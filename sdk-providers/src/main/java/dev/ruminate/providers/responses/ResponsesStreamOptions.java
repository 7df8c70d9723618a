package dev.ruminate.providers.responses;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What {@link ResponsesStreamEncoder} cannot take from the events: the id and creation time of the
 * response it writes, and optionally the model name to report.
 *
 * <p>Each subscription to an encoded stream calls {@code responseId} and {@code createdAt} once, so
 * a stream subscribed twice gets two ids. Tests pass fixed suppliers to get deterministic output.
 *
 * <p>Immutable; thread-safe when the suppliers are. Components are non-null unless marked
 * {@code @Nullable}.
 *
 * @param responseId gives the response's id ({@code resp_…}); item ids are derived from it
 * @param createdAt gives the creation time in epoch seconds ({@code created_at})
 * @param model the model to report; null to report the one of the upstream {@code ResponseStarted}
 * @since 0.1
 */
public record ResponsesStreamOptions(Supplier<String> responseId, LongSupplier createdAt, @Nullable String model) {

    /**
     * Creates the value, checking its components.
     *
     * @param responseId see {@link #responseId()}
     * @param createdAt see {@link #createdAt()}
     * @param model see {@link #model()}
     */
    public ResponsesStreamOptions {
        Objects.requireNonNull(responseId, "responseId");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /**
     * Returns the defaults: a random {@code resp_…} id, the current time, the upstream model.
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
}
