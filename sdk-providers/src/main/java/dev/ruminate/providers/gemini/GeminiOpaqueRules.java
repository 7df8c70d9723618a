package dev.ruminate.providers.gemini;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.OpaqueFormats;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.message.Part;
import org.jspecify.annotations.Nullable;

/**
 * Gemini's opaque value: the {@code thoughtSignature} on a text, call or thought part, padded
 * base64 in either alphabet (Google accepts standard and URL-safe alike, rule G1; recordings hold
 * both). Google's placeholder {@code skip_thought_signature_validator} is written by the encoder
 * (rule G4), never recorded as a value; found in a stored turn, it is accepted as it is.
 *
 * <p>Bound to the model: "signatures are bound to route, model and key" (PROTOCOLS.md §19).
 *
 * <p>Stateless and thread-safe.
 */
final class GeminiOpaqueRules implements OpaqueRules {

    static final GeminiOpaqueRules INSTANCE = new GeminiOpaqueRules();

    private GeminiOpaqueRules() {
    }

    @Override
    public @Nullable String problem(Part part, Seal.Kind kind, String value) {
        if (kind != Seal.Kind.SIGNATURE || GeminiRequestEncoder.SKIP_SIGNATURE.equals(value)) {
            return null;
        }
        return OpaqueFormats.standardOrUrlSafeBase64(value);
    }

    @Override
    public boolean bindsToModel() {
        return true;
    }

    @Override
    public String toString() {
        return "GeminiOpaqueRules";
    }
}
