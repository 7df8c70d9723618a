package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A text-only Chat Completions server (DeepSeek's API: "text only", no vision model; others as a
 * test scripts them) refuses content parts other than text: an {@code image_url}, {@code file},
 * {@code input_audio} or any other part type in any message. The error text is an assumption (no
 * recording of this 400 was found); the status and the OpenAI error shape are DeepSeek's. Stateless
 * and thread-safe.
 *
 * @since 0.3
 */
public final class TextOnlyContentRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "chat-completions.text-only-content";

    /** Creates the rule. */
    public TextOnlyContentRule() {
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
            if (!content.isArray()) {
                continue;
            }
            for (JsonNode part : content) {
                String type = Nodes.text(part, "type");
                // Mistral's thinking chunks are text the assistant sent back, not media
                if (!type.equals("text") && !type.equals("thinking")) {
                    return new Violation(NAME, 400, "messages[" + i + "]: unknown variant `" + type
                            + "`, expected `text`: this model takes text only", "messages");
                }
            }
        }
        return null;
    }
}
