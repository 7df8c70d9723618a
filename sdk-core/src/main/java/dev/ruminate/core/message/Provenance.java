package dev.ruminate.core.message;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where one part's opaque state came from, and whether its block finished: recorded by the reducer
 * on the {@link Seals} of every part that carries opaque state, from the response's {@link Origin}.
 *
 * <p>A value from a block the stream never closed (the stream failed or was cancelled before the
 * block's end) is unfinished: its signature or encrypted content may be cut short, and it is never
 * sent back.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param origin the provider, API and endpoint identity that made it
 * @param model the model the provider reported for the response, or null when it reported none
 * @param block the part's index in the response that made it: a later reordering is detectable
 * @param finished true when the stream closed the part's block (or completed the response)
 * @param requestedModel the model the request named, or null when unknown; a provider may report
 *     another id for the same model (a dated snapshot for an alias), so a model binding compares a
 *     later request's model with both
 * @since 0.2
 */
public record Provenance(Origin origin, @Nullable String model, int block, boolean finished,
                         @Nullable String requestedModel) {

    /**
     * Creates the value without a requested model.
     *
     * @param origin see {@link #origin()}
     * @param model see {@link #model()}
     * @param block see {@link #block()}
     * @param finished see {@link #finished()}
     */
    public Provenance(Origin origin, @Nullable String model, int block, boolean finished) {
        this(origin, model, block, finished, null);
    }

    /**
     * Creates the value, checking its components.
     *
     * @param origin see {@link #origin()}
     * @param model see {@link #model()}
     * @param block see {@link #block()}
     * @param finished see {@link #finished()}
     * @param requestedModel see {@link #requestedModel()}
     */
    public Provenance {
        Objects.requireNonNull(origin, "origin");
        if (block < 0) {
            throw new IllegalArgumentException("block must not be negative: " + block);
        }
    }
}
