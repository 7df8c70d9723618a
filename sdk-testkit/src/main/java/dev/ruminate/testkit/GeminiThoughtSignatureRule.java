package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Gemini 3: in the current turn (the contents after the last user message with text), the first
 * {@code functionCall} part of each {@code model} content carries its {@code thoughtSignature}
 * (PROTOCOLS.md §4 "Send-back": "Gemini 3: you must pass back thought signatures during function
 * calling, otherwise you will get a validation error (4xx)", parallel calls sign only the first
 * call, each sequential step's signature must be returned, and validation is strict only for the
 * current turn; §19 "Gemini 3 signatures"; RULES-OBSERVED.md "Google Gemini": the signature stays
 * on the part it arrived on).
 *
 * <p>The model is read from the request path ({@code /models/gemini-3…:streamGenerateContent});
 * other models are not checked. The sentinel {@code skip_thought_signature_validator} counts as a
 * signature. Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class GeminiThoughtSignatureRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "gemini.thought-signature-on-function-call";

    /** Creates the rule. */
    public GeminiThoughtSignatureRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!modelOf(request.path()).startsWith("gemini-3")) {
            return null;
        }
        JsonNode contents = body.path("contents");
        for (int i = lastUserText(contents) + 1; i < contents.size(); i++) {
            JsonNode content = contents.get(i);
            if (!Nodes.text(content, "role").equals("model")) {
                continue;
            }
            for (JsonNode part : content.path("parts")) {
                // the API reads proto JSON, which accepts snake_case names too (RULES-OBSERVED fixture llmg-gemini3-…)
                JsonNode call = part.has("functionCall") ? part.get("functionCall") : part.get("function_call");
                if (call != null) {
                    if (!Nodes.hasText(part, "thoughtSignature") && !Nodes.hasText(part, "thought_signature")) {
                        // §4 errors: "function call `<name>` in the 2. content block is missing a `thought_signature`"
                        return Violation.badRequest(NAME, "Unable to submit request because function call `"
                                + Nodes.text(call, "name") + "` in the " + i
                                + ". content block is missing a `thought_signature`.");
                    }
                    break;
                }
            }
        }
        return null;
    }

    private static int lastUserText(JsonNode contents) {
        for (int i = contents.size() - 1; i >= 0; i--) {
            JsonNode content = contents.get(i);
            if (Nodes.text(content, "role").equals("user")) {
                for (JsonNode part : content.path("parts")) {
                    if (part.has("text")) {
                        return i;
                    }
                }
            }
        }
        return -1;
    }

    static String modelOf(String path) {
        int at = path.indexOf("/models/");
        if (at < 0) {
            return "";
        }
        int start = at + "/models/".length();
        int end = start;
        while (end < path.length() && path.charAt(end) != ':' && path.charAt(end) != '?' && path.charAt(end) != '/') {
            end++;
        }
        return path.substring(start, end);
    }
}
