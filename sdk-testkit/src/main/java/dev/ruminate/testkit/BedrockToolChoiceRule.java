package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Bedrock Converse with Claude: a {@code toolConfig.toolChoice} that forces tool use
 * ({@code {"tool":{…}}} or {@code {"any":{}}}) is refused with a {@code ValidationException} while
 * thinking is on ({@code additionalModelRequestFields.thinking.type} {@code enabled} or
 * {@code adaptive}): "structured output by forced tool plus thinking gives 400" (PROTOCOLS.md §19,
 * Anthropic's rule underneath, passed on in Bedrock's words). {@code auto} passes. Stateless and
 * thread-safe.
 *
 * @since 0.3
 */
public final class BedrockToolChoiceRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "bedrock.no-forced-tool-with-thinking";

    /** Creates the rule. */
    public BedrockToolChoiceRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!Nodes.thinkingOn(body.path("additionalModelRequestFields").path("thinking"))) {
            return null;
        }
        JsonNode choice = body.path("toolConfig").path("toolChoice");
        if (choice.has("tool") || choice.has("any")) {
            return Violation.badRequest(NAME, "The model returned the following errors: " + AnthropicToolChoiceRule.MESSAGE);
        }
        return null;
    }
}
