package dev.ruminate.providers.anthropic;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.OpaqueFormats;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.message.Part;
import org.jspecify.annotations.Nullable;

/**
 * Anthropic's opaque values: a thinking block's {@code signature} and a
 * {@code redacted_thinking} block's {@code data}, both padded standard base64 in every recording
 * (PROTOCOLS.md §19 "Signatures in the field": validate length and padding before sending back).
 *
 * <p>Bound to the model: server-side fallbacks can put thinking signed by several models in one
 * message (PROTOCOLS.md §19, UNVERIFIED), so a signature is taken as valid only for the model family
 * that wrote it; the safe choice until a recording shows otherwise.
 *
 * <p>Stateless and thread-safe.
 */
final class AnthropicOpaqueRules implements OpaqueRules {

    static final AnthropicOpaqueRules INSTANCE = new AnthropicOpaqueRules();

    private AnthropicOpaqueRules() {
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
        return "AnthropicOpaqueRules";
    }
}
