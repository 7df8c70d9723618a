package dev.ruminate.benchmarks;

import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ResponsesScript;
import java.nio.charset.StandardCharsets;

/**
 * The reasoning stream's content in the other wire formats, each written by the test kit's script for that API (so
 * the bytes are the real wire shape): Anthropic Messages SSE, OpenAI Responses SSE, Gemini
 * {@code streamGenerateContent?alt=sse}, Bedrock ConverseStream event-stream frames and Ollama {@code /api/chat}
 * NDJSON. Same reasoning, answer and tool-call arguments as the Chat Completions body, text in deltas of
 * {@link #TOKEN} code points, so about the same number of events. Where a format has no place for a figure
 * (reasoning tokens in Anthropic, Bedrock and Ollama), it is left out.
 *
 * <p>Differences that are the APIs', not the benchmark's: Gemini sends each function call whole in one part (the
 * Gemini API does not stream arguments), so its body has about a tenth fewer events; Gemini repeats usage on every
 * chunk, as the API does; Anthropic and Responses name every event ({@code event:} line) and repeat the type in
 * the data; Responses numbers every event.
 */
final class OtherStreams {

    /** Code points per delta, so that event counts match the SSE stream's (tokens of 3–8 characters). */
    static final int TOKEN = 5;

    private static final String[] TOOLS = {"get_weather", "search_docs"};

    private OtherStreams() {
    }

    /** ConverseStream bytes: reasoning (signed), text, two tool uses, stop, usage. */
    static byte[] bedrock(ReasoningStream s) {
        return BedrockScript.create()
                .reasoning(s.reasoning, "c2lnbmF0dXJl")
                .text(s.content)
                .toolUse("tooluse_0", TOOLS[0], s.toolArguments.get(0))
                .toolUse("tooluse_1", TOOLS[1], s.toolArguments.get(1))
                .stopReason("tool_use")
                .usage(s.promptTokens, s.completionTokens)
                .tokensOf(TOKEN)
                .toEventStream();
    }

    /**
     * Anthropic Messages SSE: {@code message_start}, a thinking block ({@code thinking_delta}s and its
     * {@code signature_delta}), a text block, two {@code tool_use} blocks ({@code input_json_delta}s),
     * {@code message_delta} with {@code tool_use} and the output tokens, {@code message_stop}.
     */
    static byte[] anthropic(ReasoningStream s) {
        return AnthropicScript.create()
                .id("msg_01BenchReasoningStream")
                .model("claude-sonnet-4-5")
                .thinking(s.reasoning, "EqQBCkYIBxgCKkBzaWduYXR1cmU=")
                .text(s.content)
                .toolUse("toolu_0", TOOLS[0], s.toolArguments.get(0))
                .toolUse("toolu_1", TOOLS[1], s.toolArguments.get(1))
                .stopReason("tool_use")
                .usage(s.promptTokens, s.completionTokens)
                .tokensOf(TOKEN)
                .toSse()
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * OpenAI Responses SSE: a reasoning item with one summary part ({@code reasoning_summary_text.delta}s) and
     * encrypted content, a message item ({@code output_text.delta}s), two {@code function_call} items
     * ({@code function_call_arguments.delta}s), {@code response.completed} with usage and reasoning tokens.
     */
    static byte[] responses(ReasoningStream s) {
        return ResponsesScript.create()
                .id("resp_bench")
                .model("o4-mini")
                .reasoning("rs_0", "gAAAAABbenchEncryptedReasoning", s.reasoning)
                .text(s.content)
                .functionCall("call_0", TOOLS[0], s.toolArguments.get(0))
                .functionCall("call_1", TOOLS[1], s.toolArguments.get(1))
                .usage((int) s.promptTokens, (int) s.completionTokens, (int) s.reasoningTokens, 0)
                .tokensOf(TOKEN)
                .toSse()
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Gemini {@code streamGenerateContent?alt=sse}: thought parts, text parts (the first with a thought signature),
     * two whole {@code functionCall} parts, a last chunk with {@code STOP}; usage on every chunk.
     */
    static byte[] gemini(ReasoningStream s) {
        return GeminiScript.create()
                .model("gemini-2.5-pro")
                .thought(s.reasoning)
                .text(s.content, "CiQB0e2Kb2lnbmF0dXJl")
                .functionCall(TOOLS[0], s.toolArguments.get(0), null)
                .functionCall(TOOLS[1], s.toolArguments.get(1), null)
                .usage(s.promptTokens, s.completionTokens - s.reasoningTokens, s.reasoningTokens)
                .usageOnEveryChunk(true)
                .tokensOf(TOKEN)
                .toSse()
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Ollama {@code /api/chat} NDJSON: a {@code message.thinking} line per delta, a {@code message.content} line
     * per delta, a line per whole tool call, the {@code done} line with the eval counts.
     */
    static byte[] ndjson(ReasoningStream s) {
        return OllamaScript.create()
                .model("qwen3:8b")
                .thinking(s.reasoning)
                .content(s.content)
                .toolCall("call_0", TOOLS[0], s.toolArguments.get(0))
                .toolCall("call_1", TOOLS[1], s.toolArguments.get(1))
                .usage(s.promptTokens, s.completionTokens)
                .tokensOf(TOKEN)
                .toNdjson();
    }
}
