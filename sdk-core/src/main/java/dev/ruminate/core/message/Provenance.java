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
 * @since 0.2
 */
public record Provenance(Origin origin, @Nullable String model, int block, boolean finished) {

    /**
     * Creates the value, checking its components.
     *
     * @param origin see {@link #origin()}
     * @param model see {@link #model()}
     * @param block see {@link #block()}
     * @param finished see {@link #finished()}
     */
    public Provenance {
        Objects.requireNonNull(origin, "origin");
        if (block < 0) {
            throw new IllegalArgumentException("block must not be negative: " + block);
        }
    }
}
