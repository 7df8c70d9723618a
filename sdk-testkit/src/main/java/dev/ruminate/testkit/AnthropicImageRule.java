package dev.ruminate.testkit;

import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Anthropic Messages: an {@code image} block given by base64 data takes only the media types
 * {@code image/jpeg}, {@code image/png}, {@code image/gif} and {@code image/webp} (Anthropic's vision
 * documentation); any other is a 400 naming the place, in the words of the API's validation
 * ({@code messages.N.content.M.image.source.base64.media_type: Input should be …}; the exact wording
 * is UNVERIFIED). Images in user content and in a {@code tool_result}'s content are checked.
 * Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class AnthropicImageRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "anthropic.image-media-types";

    private static final Set<String> TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");

    /** Creates the rule. */
    public AnthropicImageRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            // content may be a plain string: only block arrays hold images
            for (int j = 0; content.isArray() && j < content.size(); j++) {
                JsonNode block = content.get(j);
                String where = "messages." + i + ".content." + j;
                Violation v = image(block, where);
                if (v == null) {
                    JsonNode inner = block.path("content");
                    for (int k = 0; inner.isArray() && k < inner.size() && v == null; k++) {
                        v = image(inner.get(k), where + ".content." + k);
                    }
                }
                if (v != null) {
                    return v;
                }
            }
        }
        return null;
    }

    private static @Nullable Violation image(JsonNode block, String where) {
        JsonNode source = block.path("source");
        if (!Nodes.text(block, "type").equals("image") || !Nodes.text(source, "type").equals("base64")) {
            return null;
        }
        if (TYPES.contains(Nodes.text(source, "media_type"))) {
            return null;
        }
        return Violation.badRequest(NAME, where + ".image.source.base64.media_type: Input should be 'image/jpeg', "
                + "'image/png', 'image/gif' or 'image/webp'");
    }
}
