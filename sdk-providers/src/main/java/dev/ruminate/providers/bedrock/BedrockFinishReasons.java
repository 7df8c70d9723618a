package dev.ruminate.providers.bedrock;

import dev.ruminate.core.message.FinishReason;

/** Maps Converse {@code stopReason} values onto {@link FinishReason}. */
final class BedrockFinishReasons {

    private BedrockFinishReasons() {
    }

    static FinishReason of(String stopReason) {
        return switch (stopReason) {
            case "end_turn", "stop_sequence" -> FinishReason.STOP;
            case "tool_use" -> FinishReason.TOOL_CALLS;
            case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "guardrail_intervened", "content_filtered" -> FinishReason.CONTENT_FILTER;
            // the model's output could not be parsed (UNVERIFIED: named by the AWS SDKs' StopReason enum)
            case "malformed_model_output", "malformed_tool_use" -> FinishReason.ERROR;
            default -> FinishReason.OTHER;
        };
    }
}
