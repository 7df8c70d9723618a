package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.OpaqueFormats;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.message.Part;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The opaque values of Chat Completions servers: only {@code reasoning_details} carry any
 * (OpenRouter, Snowflake Cortex, the Vercel AI Gateway). A detail's {@code signature} and its
 * encrypted {@code data} are checked by the detail's {@code format}: the upstream family's own
 * form ({@code anthropic-claude-…}: padded standard base64; {@code google-gemini-…}: padded base64
 * in either alphabet; others, such as {@code openai-responses-v1}'s Fernet blob, by
 * {@link OpaqueFormats#encryptedBlob});
 * a {@code format} and an item id must not be empty. Other profiles carry no opaque state.
 *
 * <p>Bound to the model: a detail is the upstream model's own state (an Anthropic signature, a
 * Gemini thought signature, a Responses blob), so it goes back only to the model family that made
 * it.
 *
 * <p>Stateless and thread-safe.
 */
final class ChatCompletionsOpaqueRules implements OpaqueRules {

    static final ChatCompletionsOpaqueRules INSTANCE = new ChatCompletionsOpaqueRules();

    private ChatCompletionsOpaqueRules() {
    }

    @Override
    public @Nullable String problem(Part part, Seal.Kind kind, String value) {
        return switch (kind) {
            case SIGNATURE, ENCRYPTED, REDACTED -> byFormat(part.seals().format(), value);
            case FORMAT, ITEM_ID -> OpaqueFormats.nonEmpty(value);
        };
    }

    private static @Nullable String byFormat(@Nullable String format, String value) {
        String f = format == null ? "" : format.toLowerCase(Locale.ROOT);
        if (f.startsWith("anthropic-claude")) {
            return OpaqueFormats.standardBase64(value);
        }
        if (f.startsWith("google-gemini")) {
            return OpaqueFormats.standardOrUrlSafeBase64(value);
        }
        return OpaqueFormats.encryptedBlob(value);
    }

    @Override
    public boolean bindsToModel() {
        return true;
    }

    @Override
    public String toString() {
        return "ChatCompletionsOpaqueRules";
    }
}
