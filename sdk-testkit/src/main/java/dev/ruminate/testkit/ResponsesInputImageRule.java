package dev.ruminate.testkit;

import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI Responses images: an {@code input_image} given inline is a base64 {@code data:} URL of an
 * image type (OpenAI's vision guide: PNG, JPEG, WEBP and non-animated GIF, "as a Base64-encoded data
 * URL"). OpenAI answers any other MIME type with 400 {@code "Invalid '<path>'. Expected a
 * base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='),
 * but got unsupported MIME type '<type>'."}, code {@code invalid_value} (the error clients report
 * for a PDF sent as an image). Checked in user content arrays and in {@code function_call_output}
 * arrays; URLs that are not {@code data:} are the server's to fetch and pass.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class ResponsesInputImageRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "responses.input-image-data-url";

    /** Creates the rule. */
    public ResponsesInputImageRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        JsonNode input = body.path("input");
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            Violation v = parts(item.path("content"), "input[" + i + "].content");
            if (v == null) {
                v = parts(item.path("output"), "input[" + i + "].output");
            }
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static @Nullable Violation parts(JsonNode parts, String path) {
        if (!parts.isArray()) {
            return null;
        }
        for (int j = 0; j < parts.size(); j++) {
            JsonNode part = parts.get(j);
            String url = Nodes.text(part, "image_url");
            if (!Nodes.text(part, "type").equals("input_image") || !url.regionMatches(true, 0, "data:", 0, 5)) {
                continue;
            }
            int end = url.indexOf(';');
            int comma = url.indexOf(',');
            if (end < 0 || (comma >= 0 && comma < end)) {
                end = comma < 0 ? url.length() : comma;
            }
            String type = url.substring(5, end).toLowerCase(Locale.ROOT);
            if (!type.startsWith("image/") || !url.regionMatches(true, end, ";base64,", 0, 8)) {
                String param = path + "[" + j + "].image_url";
                return new Violation(NAME, 400, "Invalid '" + param + "'. Expected a base64-encoded data URL with an image"
                        + " MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got unsupported MIME type '"
                        + type + "'.", param, "invalid_value");
            }
        }
        return null;
    }
}
