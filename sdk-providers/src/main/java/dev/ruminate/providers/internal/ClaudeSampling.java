package dev.ruminate.providers.internal;

import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The sampling options Claude refuses while thinking is on, for the Messages API and Bedrock: a
 * {@code temperature} other than 1, a {@code top_p} below 0.95 and any {@code top_k} ("Thinking isn't
 * compatible with temperature or top_k modifications"; {@code top_p} may be set between 0.95 and 1,
 * Anthropic's extended-thinking documentation). Each is left out of the request and reported as
 * ignored, instead of a 400.
 *
 * <p>Stateless and thread-safe.
 */
public final class ClaudeSampling {

    /** The lowest {@code top_p} Claude takes with thinking on. */
    public static final double MIN_TOP_P_WITH_THINKING = 0.95;

    private ClaudeSampling() {
    }

    /**
     * Returns the options to send with thinking on: those Claude refuses left out, each reported.
     *
     * @param s the asked options
     * @param warnings where each option left out is reported
     * @return the options to send
     */
    public static SamplingOptions underThinking(SamplingOptions s, RequestWarnings warnings) {
        Double temperature = s.temperature();
        if (temperature != null && temperature != 1.0) {
            warnings.ignored("temperature " + temperature + " not sent: Claude takes no temperature other than 1 while "
                    + "thinking is on");
            temperature = null;
        }
        Double topP = s.topP();
        if (topP != null && topP < MIN_TOP_P_WITH_THINKING) {
            warnings.ignored("top_p " + topP + " not sent: Claude takes top_p only between 0.95 and 1 while thinking is on");
            topP = null;
        }
        return new SamplingOptions(temperature, topP, s.maxOutputTokens(), s.stop(), s.seed());
    }

    /**
     * Returns the extras without {@code top_k} when thinking is on, reporting it; a copy of the extras
     * otherwise.
     *
     * @param extras the request's extras
     * @param field the field that holds top-k in these extras ({@code top_k})
     * @param warnings where a removal is reported
     * @return the extras to send
     */
    public static Map<String, @Nullable Object> withoutTopK(Map<String, ? extends @Nullable Object> extras, String field,
                                                            RequestWarnings warnings) {
        if (!extras.containsKey(field)) {
            return new LinkedHashMap<>(extras);
        }
        warnings.ignored(field + " (an extra) not sent: Claude takes no top_k while thinking is on");
        Map<String, @Nullable Object> kept = new LinkedHashMap<>(extras);
        kept.remove(field);
        return kept;
    }
}
