package dev.ruminate.testkit;

import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * JSON mode needs the word "json" in the prompt: a request with
 * {@code response_format: {"type":"json_object"}} whose messages nowhere contain it is refused
 * (DeepSeek's JSON output guide: "include the word json in the system or user prompt"; OpenAI's
 * JSON mode has the same rule and error, "'messages' must contain the word 'json' in some form, to
 * use 'response_format' of type 'json_object'."). The word is looked for in any case, in string
 * contents and in text parts of every message; that DeepSeek, like OpenAI, takes "JSON" as the word
 * is assumed. Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class JsonObjectPromptRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "chat-completions.json-object-needs-json-in-prompt";

    /** Creates the rule. */
    public JsonObjectPromptRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!Nodes.text(body.path("response_format"), "type").equals("json_object")) {
            return null;
        }
        for (JsonNode message : body.path("messages")) {
            if (mentionsJson(message.path("content"))) {
                return null;
            }
        }
        return new Violation(NAME, 400, "'messages' must contain the word 'json' in some form, to use 'response_format' "
                + "of type 'json_object'.", "messages");
    }

    private static boolean mentionsJson(JsonNode content) {
        if (content.isString()) {
            return content.asString().toLowerCase(Locale.ROOT).contains("json");
        }
        for (JsonNode part : content) {
            if (Nodes.text(part, "text").toLowerCase(Locale.ROOT).contains("json")) {
                return true;
            }
        }
        return false;
    }
}
