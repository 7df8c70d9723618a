package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Anthropic Messages: a {@code tool_choice} that forces tool use ({@code {"type":"tool"}} or
 * {@code {"type":"any"}}) is refused while thinking is on ({@code thinking.type} {@code enabled} or
 * {@code adaptive}): "Thinking may not be enabled when tool_choice forces tool use" (PROTOCOLS.md
 * §19; §3 "Interleaved thinking": {@code tool_choice} must be {@code auto} or {@code none}).
 * {@code auto} and {@code none} pass. Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class AnthropicToolChoiceRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "anthropic.no-forced-tool-with-thinking";

    /** Anthropic's error message. */
    static final String MESSAGE = "Thinking may not be enabled when tool_choice forces tool use.";

    /** Creates the rule. */
    public AnthropicToolChoiceRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!Nodes.thinkingOn(body.path("thinking"))) {
            return null;
        }
        String type = Nodes.text(body.path("tool_choice"), "type");
        return type.equals("tool") || type.equals("any") ? Violation.badRequest(NAME, MESSAGE) : null;
    }
}
