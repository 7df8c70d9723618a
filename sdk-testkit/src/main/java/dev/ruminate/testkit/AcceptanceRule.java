package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One rule a provider applies before it accepts a request, such as "the signed thinking of the
 * current tool-use turn comes back before its tool_use". The emulator asks each rule of its
 * {@link AcceptanceRules} about every request; the first rule that finds a violation decides the
 * provider's 4xx answer.
 *
 * <p>Implementations are thread-safe: the emulator calls them from Reactor Netty's event loops,
 * possibly for several requests at once.
 *
 * @since 0.2
 */
public interface AcceptanceRule {

    /**
     * Returns the rule's stable name, used to switch it off ({@link AcceptanceRules#without(String)})
     * and to record which rule refused a request ({@link RecordedRequest#rejectedBy()}).
     *
     * @return the name, such as {@code anthropic.thinking-before-tool-use}
     */
    String name();

    /**
     * Checks one request.
     *
     * @param request the request as received (method, path, headers, raw body)
     * @param body the body parsed as JSON
     * @return the violation, or {@code null} when the request satisfies this rule
     */
    @Nullable Violation check(RecordedRequest request, JsonNode body);

    /**
     * Lets a rule learn from a successful response the emulator is about to serve, for rules that
     * depend on what the model said before (which function call followed which reasoning item).
     * Stateless rules ignore it.
     *
     * @param response the response served for an accepted request
     */
    default void served(EmulatorResponse response) {
    }
}
