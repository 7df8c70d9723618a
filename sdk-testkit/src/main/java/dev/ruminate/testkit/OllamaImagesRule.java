package dev.ruminate.testkit;

import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Ollama {@code images} are base64 strings: the request's (on {@code /api/generate}) and each
 * message's (on {@code /api/chat}). Ollama's API types them as {@code []ImageData}, Go byte slices,
 * which Go's JSON decoding reads as standard base64 with padding; a value that is not base64, or not a
 * string, fails the request's decoding, answered 400 with {@code {"error": "…"}} (Ollama's API docs:
 * "images: a list of base64-encoded images"; the error text is Go's {@code base64.CorruptInputError},
 * "illegal base64 data at input byte N", as Ollama's handlers pass binding errors on; UNVERIFIED by a
 * recording). Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class OllamaImagesRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "ollama.images-are-base64";

    /** Creates the rule. */
    public OllamaImagesRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        Violation v = images(body.get("images"));
        if (v != null) {
            return v;
        }
        for (JsonNode message : body.path("messages")) {
            v = images(message.get("images"));
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static @Nullable Violation images(@Nullable JsonNode images) {
        if (images == null || images.isNull()) {
            return null;
        }
        if (!images.isArray()) {
            return Violation.badRequest(NAME, "json: cannot unmarshal " + images.getNodeType().name().toLowerCase(Locale.ROOT)
                    + " into Go struct field .images of type []api.ImageData");
        }
        for (JsonNode image : images) {
            if (!image.isString()) {
                return Violation.badRequest(NAME, "json: cannot unmarshal " + image.getNodeType().name().toLowerCase(Locale.ROOT)
                        + " into Go struct field .images of type api.ImageData");
            }
            int bad = Nodes.base64Error(image.asString(), true);
            if (bad >= 0) {
                return Violation.badRequest(NAME, "illegal base64 data at input byte " + bad);
            }
        }
        return null;
    }
}
