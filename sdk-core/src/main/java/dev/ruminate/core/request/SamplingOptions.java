package dev.ruminate.core.request;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Sampling and length options. Unset values leave the provider's default; reasoning models often
 * reject some of them, which the provider reports as a warning or an error.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param temperature sampling temperature
 * @param topP nucleus sampling mass
 * @param maxOutputTokens the output token limit (reasoning included, for most APIs)
 * @param stop stop sequences (an unmodifiable copy is kept)
 * @param seed a seed for providers that honour one
 * @since 0.1
 */
public record SamplingOptions(@Nullable Double temperature, @Nullable Double topP, @Nullable Integer maxOutputTokens,
                              List<String> stop, @Nullable Long seed) {

    /** Leaves everything to the provider. */
    public static final SamplingOptions DEFAULT = new SamplingOptions(null, null, null, List.of(), null);

    /**
     * Creates the value, checking its components.
     *
     * @param temperature see {@link #temperature()}
     * @param topP see {@link #topP()}
     * @param maxOutputTokens see {@link #maxOutputTokens()}
     * @param stop see {@link #stop()}
     * @param seed see {@link #seed()}
     */
    public SamplingOptions {
        stop = List.copyOf(stop);
        if (maxOutputTokens != null && maxOutputTokens <= 0) {
            throw new IllegalArgumentException("maxOutputTokens must be > 0, was " + maxOutputTokens);
        }
    }
}
