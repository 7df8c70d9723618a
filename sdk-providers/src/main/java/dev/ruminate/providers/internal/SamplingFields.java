package dev.ruminate.providers.internal;

import dev.ruminate.core.request.SamplingOptions;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * The names under which one API takes the sampling options, and the writer of those fields. Every
 * API writes them in the order temperature, top-p, output limit, stop sequences, seed, each only when
 * set; a null name is an option the API does not take here (an API that puts its output limit first,
 * or elsewhere, writes it itself and passes null).
 *
 * <p>Immutable and thread-safe.
 *
 * @param temperature the field of {@link SamplingOptions#temperature()}, or null
 * @param topP the field of {@link SamplingOptions#topP()}, or null
 * @param maxOutputTokens the field of {@link SamplingOptions#maxOutputTokens()}, or null
 * @param stop the field of {@link SamplingOptions#stop()}, a string array, or null
 * @param seed the field of {@link SamplingOptions#seed()}, or null
 */
public record SamplingFields(@Nullable String temperature, @Nullable String topP, @Nullable String maxOutputTokens,
                             @Nullable String stop, @Nullable String seed) {

    /**
     * Returns these names with another field for the output limit.
     *
     * @param field the field, or null
     * @return the names
     */
    public SamplingFields withMaxOutputTokens(@Nullable String field) {
        return new SamplingFields(temperature, topP, field, stop, seed);
    }

    /**
     * Tells whether any option this API takes is set, for APIs that nest the fields in an object
     * written only when it has something in it.
     *
     * @param s the options
     * @return true when {@link #write} would write a field
     */
    public boolean anySet(SamplingOptions s) {
        return (temperature != null && s.temperature() != null)
                || (topP != null && s.topP() != null)
                || (maxOutputTokens != null && s.maxOutputTokens() != null)
                || (stop != null && !s.stop().isEmpty())
                || (seed != null && s.seed() != null);
    }

    /**
     * Writes the fields of the options that are set, leaving out any field named in {@code taken}.
     *
     * @param g the generator, in an object
     * @param s the options
     * @param taken field names the request's extras replace; empty inside a nested object
     */
    public void write(JsonGenerator g, SamplingOptions s, Set<String> taken) {
        if (temperature != null && s.temperature() != null && !taken.contains(temperature)) {
            g.writeNumberProperty(temperature, s.temperature());
        }
        if (topP != null && s.topP() != null && !taken.contains(topP)) {
            g.writeNumberProperty(topP, s.topP());
        }
        if (maxOutputTokens != null && s.maxOutputTokens() != null && !taken.contains(maxOutputTokens)) {
            g.writeNumberProperty(maxOutputTokens, s.maxOutputTokens());
        }
        if (stop != null && !s.stop().isEmpty() && !taken.contains(stop)) {
            JsonWriting.writeStrings(g, stop, s.stop());
        }
        if (seed != null && s.seed() != null && !taken.contains(seed)) {
            g.writeNumberProperty(seed, s.seed());
        }
    }
}
