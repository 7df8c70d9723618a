package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI Responses structured output: a {@code text.format} of type {@code json_schema} names its
 * schema and gives it. OpenAI's API reference for {@code text.format} (json_schema): {@code name}
 * and {@code schema} are required, {@code description} and {@code strict} optional; a missing
 * required parameter is answered 400 {@code "Missing required parameter: '<path>'."} with code
 * {@code missing_required_parameter} and the path as {@code param} (OpenAI's error shape,
 * PROTOCOLS.md §2). A {@code schema} that is not an object is answered 400 {@code invalid_type}.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class ResponsesTextFormatRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "responses.text-format-json-schema";

    /** Creates the rule. */
    public ResponsesTextFormatRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        JsonNode format = body.path("text").path("format");
        if (!Nodes.text(format, "type").equals("json_schema")) {
            return null;
        }
        if (!Nodes.hasText(format, "name")) {
            return missing("text.format.name");
        }
        JsonNode schema = format.get("schema");
        if (schema == null || schema.isNull()) {
            return missing("text.format.schema");
        }
        if (!schema.isObject()) {
            return new Violation(NAME, 400, "Invalid type for 'text.format.schema': expected an object, but got "
                    + (schema.isArray() ? "an array" : schema.isString() ? "a string" : "a " + schema.getNodeType()
                    .name().toLowerCase(java.util.Locale.ROOT)) + " instead.", "text.format.schema", "invalid_type");
        }
        return null;
    }

    private static Violation missing(String param) {
        return new Violation(NAME, 400, "Missing required parameter: '" + param + "'.", param,
                "missing_required_parameter");
    }
}
