package dev.ruminate.providers.internal;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.OpaqueFormats;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.message.Part;
import org.jspecify.annotations.Nullable;

/**
 * Claude's opaque values, shared by the Messages API and Bedrock Converse's Claude models: a thinking
 * block's signature ({@code signature}, {@code reasoningText.signature}) and redacted reasoning
 * ({@code redacted_thinking.data}, {@code redactedContent}, bytes written as base64), both padded
 * standard base64 in every recording (PROTOCOLS.md §19 "Signatures in the field": validate length
 * and padding before sending back). Bedrock's other model families carry none.
 *
 * <p>Bound to the model: server-side fallbacks can put thinking signed by several models in one
 * message (PROTOCOLS.md §19, UNVERIFIED), so a signature is taken as valid only for the model family
 * that wrote it; the safe choice until a recording shows otherwise.
 *
 * <p>Stateless and thread-safe.
 */
public final class ClaudeOpaqueRules implements OpaqueRules {

    /** The one instance. */
    public static final ClaudeOpaqueRules INSTANCE = new ClaudeOpaqueRules();

    private ClaudeOpaqueRules() {
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
        return "ClaudeOpaqueRules";
    }
}
