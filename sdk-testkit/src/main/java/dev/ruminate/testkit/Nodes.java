package dev.ruminate.testkit;

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
}
