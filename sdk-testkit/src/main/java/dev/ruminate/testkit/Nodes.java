package dev.ruminate.testkit;

import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/** Small reads on request JSON that the acceptance rules share; missing fields read as empty. */
final class Nodes {

    private Nodes() {
    }

    /** The text of a string field, or "" when it is missing, null or not a string. */
    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isString() ? value.asString() : "";
    }

    /** Whether a field holds a string with at least one non-blank character. */
    static boolean hasText(JsonNode node, String field) {
        return !text(node, field).isBlank();
    }

    /** Whether a request's {@code thinking} config turns thinking on ({@code enabled} or {@code adaptive}). */
    static boolean thinkingOn(JsonNode thinking) {
        String type = text(thinking, "type");
        return type.equals("enabled") || type.equals("adaptive");
    }

    /**
     * Finds the assistant turn whose tool calls the conversation is still answering: the last
     * assistant message with a tool-use block, when only tool results have come from the user since.
     *
     * @param messages the request's messages
     * @param isToolUse whether a content block is the API's tool-use block
     * @param isToolResult whether a content block is the API's tool-result block
     * @return the turn's index, or -1 when a user message of its own came after, or there is none
     */
    static int lastToolUseTurnOfCurrentCycle(JsonNode messages, Predicate<JsonNode> isToolUse,
                                             Predicate<JsonNode> isToolResult) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode message = messages.get(i);
            String role = text(message, "role");
            JsonNode content = message.path("content");
            if (role.equals("user") && !(content.isArray() && !content.isEmpty() && all(content, isToolResult))) {
                return -1;
            }
            if (role.equals("assistant") && any(content, isToolUse)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Anthropic's refusal of a tool-use turn that does not start with thinking (PROTOCOLS.md §3 errors),
     * which Bedrock passes on for Claude.
     *
     * @param turn the turn's index
     * @param found the type of the block the turn starts with
     * @return the message
     */
    static String thinkingFirstError(int turn, String found) {
        return "messages." + turn + ".content.0.type: Expected `thinking` or `redacted_thinking`, but found `" + found
                + "`. When `thinking` is enabled, a final `assistant` message must start with a thinking block"
                + " (preceding the lastmost set of `tool_use` and `tool_result` blocks).";
    }

    private static boolean all(JsonNode array, Predicate<JsonNode> test) {
        for (JsonNode node : array) {
            if (!test.test(node)) {
                return false;
            }
        }
        return true;
    }

    private static boolean any(JsonNode array, Predicate<JsonNode> test) {
        for (JsonNode node : array) {
            if (test.test(node)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Finds where a text stops being base64: the index of the first character outside the alphabet
     * (or a padding character before the end), or the text's length when it is cut short; -1 when it
     * is base64.
     *
     * @param text the text
     * @param strict Go's {@code base64.StdEncoding} (standard alphabet, padding required) when true;
     *     proto JSON's bytes (standard or URL-safe alphabet, padding optional) when false
     */
    static int base64Error(String text, boolean strict) {
        int padding = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean standard = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
            boolean urlSafe = c == '-' || c == '_';
            if (c == '=') {
                padding++;
                if (padding > 2) {
                    return i;
                }
            } else if (padding > 0 || !(standard || (urlSafe && !strict))) {
                return i;
            }
        }
        int length = text.length();
        if (strict ? length % 4 != 0 : (length - padding) % 4 == 1 || (padding > 0 && length % 4 != 0)) {
            return length;
        }
        return -1;
    }
}
