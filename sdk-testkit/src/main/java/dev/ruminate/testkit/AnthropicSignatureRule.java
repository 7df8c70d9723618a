package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Anthropic Messages: a {@code thinking} block's signature and a {@code redacted_thinking}
 * block's data come back exactly as the API issued them (PROTOCOLS.md §3 "Send-back": "you must
 * include the complete unmodified block"; "Modified/forged signatures → 400 invalid signature").
 * The emulator knows what it issued from the responses it served (each scripted thinking block's
 * signature, each redacted block's data); a value it did not issue, or one altered, is refused with
 * a 400 naming {@code messages.N.content.M} (the exact words are UNVERIFIED: Anthropic's own are
 * only paraphrased in the sources). Checked in every assistant message, once the emulator has
 * issued something, so scripts without signatures are unaffected. One instance per emulator;
 * thread-safe.
 *
 * @since 0.3
 */
public final class AnthropicSignatureRule extends IssuedValueRule {

    /** The rule's name. */
    public static final String NAME = "anthropic.issued-signature";

    /** Creates the rule, having issued nothing yet. */
    public AnthropicSignatureRule() {
        super((node, into) -> {
            String type = Nodes.text(node, "type");
            if (Nodes.hasText(node, "signature")) {
                into.add(Nodes.text(node, "signature"));
            }
            if (type.equals("redacted_thinking") && Nodes.hasText(node, "data")) {
                into.add(Nodes.text(node, "data"));
            }
        });
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Counts a value as issued, as a served response would; for tests of hand-written requests.
     *
     * @param value a signature or redacted data
     * @return this rule
     */
    public AnthropicSignatureRule issued(String value) {
        remember(value);
        return this;
    }


    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!active()) {
            return null;
        }
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            if (!Nodes.text(message, "role").equals("assistant")) {
                continue;
            }
            JsonNode content = message.path("content");
            for (int j = 0; j < content.size(); j++) {
                JsonNode block = content.get(j);
                String type = Nodes.text(block, "type");
                if (type.equals("thinking") && Nodes.hasText(block, "signature")
                        && !wasIssued(Nodes.text(block, "signature"))) {
                    return Violation.badRequest(NAME, "messages." + i + ".content." + j
                            + ": Invalid `signature` in `thinking` block");
                }
                if (type.equals("redacted_thinking") && Nodes.hasText(block, "data")
                        && !wasIssued(Nodes.text(block, "data"))) {
                    return Violation.badRequest(NAME, "messages." + i + ".content." + j
                            + ": Invalid `data` in `redacted_thinking` block");
                }
            }
        }
        return null;
    }
}
