package dev.ruminate.providers.chatcompletions;

import java.util.Objects;

/**
 * Decides, from the model a request is for, how earlier reasoning goes back. Most servers have one
 * rule for every model; DeepSeek's depends on the model family.
 *
 * <p>Implementations must be stateless and thread-safe.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface SendBackRule {

    /**
     * Returns the send-back rule for a model.
     *
     * @param model the model name of the request being encoded
     * @return the rule
     */
    ReasoningSendBack forModel(String model);

    /**
     * Returns a rule that ignores the model.
     *
     * @param sendBack the rule for every model
     * @return the rule
     */
    static SendBackRule always(ReasoningSendBack sendBack) {
        return new FixedSendBackRule(Objects.requireNonNull(sendBack, "sendBack"));
    }
}
