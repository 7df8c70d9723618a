package dev.ruminate.providers.anthropic;

import dev.ruminate.core.message.FinishReason;
import org.jspecify.annotations.Nullable;

/** Maps Anthropic's {@code stop_reason} to the normalized finish reason. */
final class StopReasons {

    private StopReasons() {
    }

    static FinishReason normalize(@Nullable String reason) {
        if (reason == null) {
            return FinishReason.OTHER;
        }
        return switch (reason) {
            case "end_turn", "stop_sequence" -> FinishReason.STOP;
            case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "tool_use" -> FinishReason.TOOL_CALLS;
            case "refusal" -> FinishReason.CONTENT_FILTER;
            // a server tool loop paused, to be continued by sending the message back (rule A7)
            case "pause_turn" -> FinishReason.PAUSED;
            default -> FinishReason.OTHER;
        };
    }
}
