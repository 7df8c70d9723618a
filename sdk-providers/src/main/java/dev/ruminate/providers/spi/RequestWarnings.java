package dev.ruminate.providers.spi;

import dev.ruminate.core.event.Warning;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where an encoder reports what it ignored or coerced of a request instead of staying silent: an
 * effort level mapped to the nearest one the API has, a sampling option a reasoning model refuses
 * and that was left out, a cache breakpoint on an API without caching. {@link ProviderPipeline}
 * emits each as a {@link Warning} event before the response's events, so it reaches
 * {@link dev.ruminate.core.reduce.ChatResult#warnings()}.
 *
 * <p>Turn and part indexes are those of the request the encoder was given (history prepared); the
 * pipeline maps them back to the conversation as the caller gave it.
 *
 * <p>Not thread-safe: one collector per encoding.
 *
 * @since 0.3
 */
public final class RequestWarnings {

    private final List<Warning> warnings = new ArrayList<>();

    /** Creates an empty collector. */
    public RequestWarnings() {
    }

    /**
     * Reports an option the API does not take, left out of the request.
     *
     * @param message what was left out and why, naming the option and the provider's rule; never a value
     *     that could be a secret
     */
    public void ignored(String message) {
        add(new Warning(Warning.OPTION_IGNORED, message));
    }

    /**
     * Reports an option sent in another form than asked: a value mapped to the nearest the API has.
     *
     * @param message what was asked, what was sent and why
     */
    public void coerced(String message) {
        add(new Warning(Warning.OPTION_COERCED, message));
    }

    /**
     * Reports a warning of any code, possibly about one message or part.
     *
     * @param warning the warning
     */
    public void add(Warning warning) {
        // an encoder that decides per message may reach the same verdict twice: say it once
        if (!warnings.contains(warning)) {
            warnings.add(warning);
        }
    }

    /**
     * Reports a warning about one message (and part) of the request.
     *
     * @param code the code, such as {@link Warning#OPTION_IGNORED}
     * @param message the text
     * @param turn the message's index in the request given to the encoder
     * @param part the part's index, or null
     */
    public void add(String code, String message, int turn, @Nullable Integer part) {
        add(new Warning(code, message, turn, part));
    }

    /**
     * Returns what was reported, in order.
     *
     * @return an unmodifiable copy
     */
    public List<Warning> list() {
        return List.copyOf(warnings);
    }

    /**
     * Tells whether nothing was reported.
     *
     * @return true when empty
     */
    public boolean isEmpty() {
        return warnings.isEmpty();
    }
}
