package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Anthropic Messages: at most four blocks may carry {@code cache_control} in one request, counted
 * over the tools, the system blocks and every message content block (including blocks inside a
 * {@code tool_result}'s content): "A maximum of 4 blocks with cache_control may be provided. Found
 * N." (Anthropic's prompt-caching documentation: up to four cache breakpoints). Stateless and
 * thread-safe.
 *
 * @since 0.3
 */
public final class AnthropicCacheControlRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "anthropic.at-most-four-cache-breakpoints";

    /** The most blocks with {@code cache_control} the API takes. */
    static final int MAX = 4;

    /** Creates the rule. */
    public AnthropicCacheControlRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        int found = count(body.path("tools")) + count(body.path("system"));
        for (JsonNode message : body.path("messages")) {
            found += count(message.path("content"));
        }
        if (found > MAX) {
            return Violation.badRequest(NAME, "A maximum of " + MAX + " blocks with cache_control may be provided. Found "
                    + found + ".");
        }
        return null;
    }

    /** Counts the blocks of an array that carry cache_control, and those inside their own content arrays. */
    private static int count(JsonNode blocks) {
        int n = 0;
        if (!blocks.isArray()) {
            return 0;
        }
        for (JsonNode block : blocks) {
            if (block.path("cache_control").isObject()) {
                n++;
            }
            n += count(block.path("content"));
        }
        return n;
    }
}
