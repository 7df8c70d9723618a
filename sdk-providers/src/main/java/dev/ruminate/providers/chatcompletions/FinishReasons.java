package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.FinishReason;
import org.jspecify.annotations.Nullable;

/**
 * Normalizes {@code finish_reason}.
 *
 * @see <a href="https://platform.openai.com/docs/api-reference/chat/object">OpenAI finish_reason</a>
 */
final class FinishReasons {

    private FinishReasons() {
    }

    static FinishReason map(@Nullable String raw) {
        if (raw == null) {
            return FinishReason.OTHER;
        }
        return switch (raw) {
            // eos: Hugging Face TGI; end_turn: Anthropic models behind some proxies
            case "stop", "eos", "end_turn" -> FinishReason.STOP;
            case "length", "max_tokens", "model_length" -> FinishReason.LENGTH;
            // function_call: the deprecated functions API
            case "tool_calls", "function_call", "tool_use" -> FinishReason.TOOL_CALLS;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            case "error" -> FinishReason.ERROR;
            default -> FinishReason.OTHER;
        };
    }
}
