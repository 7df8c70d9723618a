package dev.ruminate.benchmarks;

import dev.ruminate.testkit.BedrockScript;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The reasoning stream's text in the other wire formats: Bedrock ConverseStream event-stream frames (from the test
 * kit's script) and Ollama-style NDJSON lines. Same reasoning, answer and arguments, about the same number of events.
 */
final class OtherStreams {

    /** Code points per delta, so that event counts match the SSE stream's (tokens of 3–8 characters). */
    static final int TOKEN = 5;

    private OtherStreams() {
    }

    /** ConverseStream bytes: reasoning (signed), text, two tool uses, stop, usage. */
    static byte[] bedrock(ReasoningStream s) {
        return BedrockScript.create()
                .reasoning(s.reasoning, "c2lnbmF0dXJl")
                .text(s.content)
                .toolUse("tooluse_0", "get_weather", s.toolArguments.get(0))
                .toolUse("tooluse_1", "search_docs", s.toolArguments.get(1))
                .stopReason("tool_use")
                .usage(s.promptTokens, s.completionTokens)
                .tokensOf(TOKEN)
                .toEventStream();
    }

    /** Ollama {@code /api/chat} lines: a {@code thinking} or {@code content} delta per line, then the done line. */
    static byte[] ndjson(ReasoningStream s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.sse.length);
        for (String t : pieces(s.reasoning)) {
            line(out, "{\"model\":\"qwen3\",\"created_at\":\"2026-11-22T00:00:00Z\",\"message\":{\"role\":\"assistant\","
                    + "\"content\":\"\",\"thinking\":" + ReasoningStream.json(t) + "},\"done\":false}");
        }
        for (String t : pieces(s.content)) {
            line(out, "{\"model\":\"qwen3\",\"created_at\":\"2026-11-22T00:00:00Z\",\"message\":{\"role\":\"assistant\","
                    + "\"content\":" + ReasoningStream.json(t) + "},\"done\":false}");
        }
        line(out, "{\"model\":\"qwen3\",\"created_at\":\"2026-11-22T00:00:01Z\",\"message\":{\"role\":\"assistant\","
                + "\"content\":\"\"},\"done_reason\":\"stop\",\"done\":true,\"total_duration\":1,\"prompt_eval_count\":31,"
                + "\"eval_count\":" + s.completionTokens + "}");
        return out.toByteArray();
    }

    /** Splits text into pieces of {@link #TOKEN} code points (never inside a surrogate pair). */
    static List<String> pieces(String text) {
        List<String> out = new ArrayList<>(text.length() / TOKEN + 1);
        int i = 0;
        while (i < text.length()) {
            int end = i;
            for (int n = 0; n < TOKEN && end < text.length(); n++) {
                end += Character.charCount(text.codePointAt(end));
            }
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }

    private static void line(ByteArrayOutputStream out, String json) {
        out.writeBytes(json.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
    }
}
