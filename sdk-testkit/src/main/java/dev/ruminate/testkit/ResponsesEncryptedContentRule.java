package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI Responses: a reasoning item's {@code encrypted_content} comes back as the API issued it
 * (PROTOCOLS.md §2 "Send-back": "put the reasoning items back into input exactly as returned";
 * blobs are bound to the organisation). The emulator knows what it issued from the responses it
 * served; content it did not issue, or altered, is refused with a 400 whose code is
 * {@code invalid_encrypted_content} and whose message names the item ("The encrypted content for
 * item rs_… could not be verified.": wording UNVERIFIED). Checked once the emulator has issued
 * something, so scripts without encrypted content are unaffected. One instance per emulator;
 * thread-safe.
 *
 * @since 0.3
 */
public final class ResponsesEncryptedContentRule extends IssuedValueRule {

    /** The rule's name. */
    public static final String NAME = "responses.issued-encrypted-content";

    /** The error code the API answers with. */
    public static final String CODE = "invalid_encrypted_content";

    /** Creates the rule, having issued nothing yet. */
    public ResponsesEncryptedContentRule() {
        super((node, into) -> {
            if (Nodes.hasText(node, "encrypted_content")) {
                into.add(Nodes.text(node, "encrypted_content"));
            }
        });
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Counts encrypted content as issued, as a served response would; for tests of hand-written requests.
     *
     * @param value the encrypted content
     * @return this rule
     */
    public ResponsesEncryptedContentRule issued(String value) {
        remember(value);
        return this;
    }


    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!active()) {
            return null;
        }
        for (JsonNode item : body.path("input")) {
            if (Nodes.text(item, "type").equals("reasoning") && Nodes.hasText(item, "encrypted_content")
                    && !wasIssued(Nodes.text(item, "encrypted_content"))) {
                return new Violation(NAME, 400, "The encrypted content for item " + Nodes.text(item, "id")
                        + " could not be verified.", null, CODE);
            }
        }
        return null;
    }
}
