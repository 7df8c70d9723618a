package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Gemini structured output: {@code generationConfig.responseJsonSchema} needs
 * {@code responseMimeType: "application/json"} and excludes {@code responseSchema}; the older
 * {@code responseSchema} needs {@code responseMimeType} {@code application/json} or
 * {@code text/x.enum} (Gemini API reference, {@code GenerationConfig}: "responseJsonSchema … If this
 * is set, responseSchema must be omitted, but responseMimeType is required"; "responseSchema …
 * Compatible mimetypes: application/json"; the structured-output guide sets
 * {@code responseMimeType: "application/json"} with either schema). Refused with 400
 * INVALID_ARGUMENT; the message's wording is UNVERIFIED. The same on Vertex AI (its
 * {@code GenerationConfig} has the same fields). Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class GeminiResponseSchemaRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "gemini.response-schema-needs-json-mime-type";

    /** Creates the rule. */
    public GeminiResponseSchemaRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        JsonNode config = body.has("generationConfig") ? body.path("generationConfig") : body.path("generation_config");
        boolean jsonSchema = present(config, "responseJsonSchema", "response_json_schema");
        boolean schema = present(config, "responseSchema", "response_schema");
        String mimeType = config.has("responseMimeType") ? Nodes.text(config, "responseMimeType")
                : Nodes.text(config, "response_mime_type");
        if (jsonSchema && schema) {
            return Violation.badRequest(NAME, "GenerationConfig.response_json_schema and response_schema cannot both be "
                    + "set; use one of them.");
        }
        if (jsonSchema && !mimeType.equals("application/json")) {
            return Violation.badRequest(NAME, "GenerationConfig.response_mime_type must be application/json when "
                    + "response_json_schema is set, was '" + mimeType + "'.");
        }
        if (schema && !mimeType.equals("application/json") && !mimeType.equals("text/x.enum")) {
            return Violation.badRequest(NAME, "GenerationConfig.response_mime_type must be application/json or "
                    + "text/x.enum when response_schema is set, was '" + mimeType + "'.");
        }
        return null;
    }

    private static boolean present(JsonNode config, String camel, String snake) {
        JsonNode value = config.has(camel) ? config.get(camel) : config.get(snake);
        return value != null && !value.isNull();
    }
}
