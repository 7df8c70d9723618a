package dev.ruminate.providers.bedrock;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.OpaqueFormats;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.message.Part;
import org.jspecify.annotations.Nullable;

/**
 * Bedrock Converse's opaque values (Claude): {@code reasoningText.signature} and
 * {@code redactedContent} (bytes, base64 in JSON), both padded standard base64 in every recording.
 * Other Bedrock model families carry none.
 *
 * <p>Bound to the model, as Anthropic's are (the signature verifies the model's own reasoning).
 *
 * <p>Stateless and thread-safe.
 */
final class BedrockOpaqueRules implements OpaqueRules {

    static final BedrockOpaqueRules INSTANCE = new BedrockOpaqueRules();

    private BedrockOpaqueRules() {
    }

    @Override
    public @Nullable String problem(Part part, Seal.Kind kind, String value) {
        return kind == Seal.Kind.SIGNATURE || kind == Seal.Kind.REDACTED ? OpaqueFormats.standardBase64(value) : null;
    }

    @Override
    public boolean bindsToModel() {
        return true;
    }

    @Override
    public String toString() {
        return "BedrockOpaqueRules";
    }
}
