package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Gemini media parts: {@code inlineData.data} is base64 (proto JSON {@code bytes}, which takes the
 * standard or URL-safe alphabet, padded or not: an undecodable value is refused with "Invalid value
 * at … (TYPE_BYTES), Base64 decoding failed"), and {@code inlineData} and {@code fileData} carry a
 * {@code mimeType}, except a {@code fileData} whose {@code fileUri} is a Gemini Files API file
 * ({@code …/files/…} on {@code generativelanguage.googleapis.com}), whose type the API knows from
 * the upload (Gemini API reference: {@code Blob.mimeType} required, {@code FileData.mimeType}
 * optional; Vertex AI's reference: {@code FileData.mimeType} required; the image and document
 * guides give a type for every URL part). Refused with 400 INVALID_ARGUMENT; the messages' wording is
 * UNVERIFIED apart from the base64 one. Parts of every content, and of {@code systemInstruction}, are
 * checked. Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class GeminiMediaRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "gemini.media-parts-typed-and-base64";

    /** Creates the rule. */
    public GeminiMediaRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        JsonNode contents = body.path("contents");
        for (int i = 0; i < contents.size(); i++) {
            JsonNode parts = contents.get(i).path("parts");
            for (int p = 0; p < parts.size(); p++) {
                Violation v = part(parts.get(p), "contents[" + i + "].parts[" + p + "]");
                if (v != null) {
                    return v;
                }
            }
        }
        return null;
    }

    private static @Nullable Violation part(JsonNode part, String at) {
        JsonNode inline = either(part, "inlineData", "inline_data");
        if (inline != null) {
            if (!typed(inline)) {
                return Violation.badRequest(NAME, "Unable to submit request because it has an empty mimeType parameter "
                        + "in " + at + ".inline_data. Add a value to the parameter and try again.");
            }
            String data = Nodes.text(inline, "data");
            if (Nodes.base64Error(data, false) >= 0) {
                return Violation.badRequest(NAME, "Invalid value at '" + at + ".inline_data.data' (TYPE_BYTES), "
                        + "Base64 decoding failed for \"" + excerpt(data) + "\"");
            }
        }
        JsonNode file = either(part, "fileData", "file_data");
        if (file != null) {
            String uri = file.has("fileUri") ? Nodes.text(file, "fileUri") : Nodes.text(file, "file_uri");
            if (uri.isBlank()) {
                return Violation.badRequest(NAME, "Unable to submit request because it has an empty fileUri parameter "
                        + "in " + at + ".file_data. Add a value to the parameter and try again.");
            }
            if (!typed(file) && !filesApi(uri)) {
                return Violation.badRequest(NAME, "Unable to submit request because it has an empty mimeType parameter "
                        + "in " + at + ".file_data. Add a value to the parameter and try again.");
            }
        }
        return null;
    }

    private static @Nullable JsonNode either(JsonNode node, String camel, String snake) {
        JsonNode value = node.has(camel) ? node.get(camel) : node.get(snake);
        return value != null && value.isObject() ? value : null;
    }

    private static boolean typed(JsonNode media) {
        return Nodes.hasText(media, "mimeType") || Nodes.hasText(media, "mime_type");
    }

    private static boolean filesApi(String uri) {
        return uri.startsWith("https://generativelanguage.googleapis.com/") && uri.contains("/files/");
    }

    private static String excerpt(String data) {
        return data.length() <= 16 ? data : data.substring(0, 16) + "…";
    }
}
