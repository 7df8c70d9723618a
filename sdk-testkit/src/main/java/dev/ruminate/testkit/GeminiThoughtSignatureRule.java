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
 * signature.
 *
 * <p>A signature must also be one the API issued (§4: "pass it back exactly as received"; "Corrupted
 * thought signature" / "invalid thought signature" reported, wording UNVERIFIED): once the emulator
 * has served responses carrying {@code thoughtSignature}s, a function call of the current turn
 * whose signature is not among them (other than the sentinel) is refused as an invalid
 * {@code thought_signature}. Scripts without signatures are unaffected. The rule learns from the
 * responses served, so one instance per emulator; thread-safe.
 *
 * @since 0.2
 */
public final class GeminiThoughtSignatureRule extends IssuedValueRule {

    /** The rule's name. */
    public static final String NAME = "gemini.thought-signature-on-function-call";

    private static final String SENTINEL = "skip_thought_signature_validator";

    /** Creates the rule, having issued nothing yet. */
    public GeminiThoughtSignatureRule() {
        super((node, into) -> {
            for (String field : new String[] {"thoughtSignature", "thought_signature"}) {
                if (Nodes.hasText(node, field)) {
                    into.add(Nodes.text(node, field));
                }
            }
        });
    }

    /**
     * Counts a thought signature as issued, as a served response would; for tests of hand-written requests.
     *
     * @param signature the signature
     * @return this rule
     */
    public GeminiThoughtSignatureRule issued(String signature) {
        remember(signature);
        return this;
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
            boolean first = true;
            for (JsonNode part : content.path("parts")) {
                // the API reads proto JSON, which accepts snake_case names too (RULES-OBSERVED fixture llmg-gemini3-…)
                JsonNode call = part.has("functionCall") ? part.get("functionCall") : part.get("function_call");
                if (call == null) {
                    continue;
                }
                String signature = Nodes.hasText(part, "thoughtSignature") ? Nodes.text(part, "thoughtSignature")
                        : Nodes.text(part, "thought_signature");
                if (first && signature.isEmpty()) {
                    // §4 errors: "function call `<name>` in the 2. content block is missing a `thought_signature`"
                    return Violation.badRequest(NAME, "Unable to submit request because function call `"
                            + Nodes.text(call, "name") + "` in the " + i
                            + ". content block is missing a `thought_signature`.");
                }
                if (!signature.isEmpty() && !signature.equals(SENTINEL) && active() && !wasIssued(signature)) {
                    return Violation.badRequest(NAME, "Unable to submit request because function call `"
                            + Nodes.text(call, "name") + "` in the " + i
                            + ". content block has an invalid `thought_signature`: Corrupted thought signature.");
                }
                first = false;
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
