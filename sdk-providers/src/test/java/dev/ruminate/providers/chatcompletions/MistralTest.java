package dev.ruminate.providers.chatcompletions;

import static dev.ruminate.providers.testing.Folded.Kind.REASONING;
import static dev.ruminate.providers.testing.Folded.Kind.TEXT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.Folded;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Mistral (Magistral) as the {@link Profiles#MISTRAL} Chat Completions profile: its recordings,
 * whose reasoning comes as thinking chunks in {@code content} arrays (values read off the
 * recordings), the reasoning request fields, and the send-back of thinking chunks against the
 * request Mistral accepted.
 */
class MistralTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private static void assertText(String actual, int codePoints, String start, String end) {
        assertThat(Folded.codePoints(actual)).as("length in code points").isEqualTo(codePoints);
        assertThat(actual).startsWith(start).endsWith(end);
    }

    private static AssistantMessage assistant(String provider, Part... parts) {
        return new AssistantMessage(List.of(parts), provider, null, FinishReason.STOP, null, Usage.UNKNOWN);
    }

    private static ReasoningPart reasoning(String text) {
        return new ReasoningPart(text, false, "thinking", Seals.NONE);
    }

    private static JsonNode encode(ChatRequest request, boolean stream) {
        return MAPPER.readTree(ChatCompletionsCodec.encodeRequest(Profiles.MISTRAL, request, stream));
    }

    @Test
    void thinkingChunkStreamGivesReasoningThenText() {
        Folded f = Fixtures.stream(Profiles.MISTRAL, "mistral/vercel-magistral-thinking-chunks-stream.sse").folded();

        assertThat(f.started.provider()).isEqualTo("mistral");
        assertThat(f.started.model()).isEqualTo("magistral-medium-2507");
        assertThat(f.started.responseId()).isEqualTo("a4e29c5b82f94d67b23e108a7c9df6e1");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEqualTo("The user is asking for 2+2. This is basic arithmetic. 2+2=4.");
        assertThat(reasoning.deltas).isEqualTo(2);
        assertThat(reasoning.sources).containsExactly("thinking");
        assertThat(reasoning.summary).isFalse();
        assertThat(reasoning.finalText).isNull();
        assertThat(f.only(TEXT).text()).isEqualTo("2 + 2 = 4");
        assertThat(f.usage).isEqualTo(new Usage(10L, 46L, null, null));
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(f.completed.rawFinishReason()).isEqualTo("stop");
    }

    @Test
    void thinkingChunkBodyGivesTheSameMessageWithItsFinalView() {
        Folded f = Fixtures.completion(Profiles.MISTRAL, "mistral/vercel-magistral-thinking.json").folded();

        assertThat(f.started.model()).isEqualTo("magistral-medium-2507");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEqualTo("The user is asking for 2+2. This is basic arithmetic. 2+2=4.");
        assertThat(reasoning.finalText).isEqualTo(reasoning.text());
        assertThat(reasoning.sources).containsExactly("thinking");
        assertThat(f.text()).isEqualTo("2 + 2 = 4");
        assertThat(f.usage).isEqualTo(new Usage(10L, 46L, null, null));
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void pydanticMagistralBodyHoldsLongThinkingAndAnAnswer() {
        Folded f = Fixtures.completion(Profiles.MISTRAL, "mistral/pydantic-magistral-thinking.json").folded();

        assertThat(f.started.model()).isEqualTo("magistral-medium-latest");
        assertThat(f.started.responseId()).isEqualTo("9abe8b736bff46af8e979b52334a57cd");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertText(reasoning.text(), 2379, "**Analogizing crossing a river**\n\nThe user is asking about c",
                " advice or assistance if you're unsure about the conditions.");
        assertThat(reasoning.finalText).isEqualTo(reasoning.text());
        assertText(f.text(), 1282, "Crossing a river is quite different from crossing a street, ",
                "familiar with the area and the river's conditions. Stay safe!");
        // "tool_calls": null is no call
        assertThat(f.ofKind(Folded.Kind.TOOL)).isEmpty();
        assertThat(f.usage).isEqualTo(new Usage(664L, 747L, null, null));
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void streamedThinkingChunksSplitAcrossDeltasAndPlainStringContentBothWork() {
        String sse = "data: {\"id\":\"x\",\"model\":\"magistral-small\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}],"
                + "\"closed\":false}]}}]}\n\n"
                + "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"thinking\","
                + "\"thinking\":[{\"type\":\"text\",\"text\":\"c\"}],\"closed\":true}]}}]}\n\n"
                + "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"plain \"}}]}\n\n"
                + "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"array\"}]}}]}\n\n"
                + "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,\"total_tokens\":3}}\n\n"
                + "data: [DONE]\n\n";

        Folded f = Fixtures.stream(Profiles.MISTRAL, dev.ruminate.providers.testing.SseSplitter.split(sse)).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.reasoning()).isEqualTo("abc");
        assertThat(f.text()).isEqualTo("plain array");
    }

    @Test
    void magistralIsAskedForReasoningWithPromptMode() {
        ChatRequest request = ChatRequest.builder("magistral-medium-latest").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build();

        JsonNode body = encode(request, true);

        assertThat(body.get("prompt_mode").stringValue()).isEqualTo("reasoning");
        assertThat(body.has("reasoning_effort")).isFalse();
        assertThat(body.has("stream_options")).isFalse();
        // Magistral cannot stop reasoning: nothing is written
        assertThat(encode(request.toBuilder().reasoning(new ReasoningOptions(false, null, null, null)).build(), true)
                .has("prompt_mode")).isFalse();
    }

    @Test
    void adjustableModelsGetReasoningEffort() {
        ChatRequest request = ChatRequest.builder("mistral-small-latest").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MEDIUM)).build();

        assertThat(new String(ChatCompletionsCodec.encodeRequest(Profiles.MISTRAL, request, true), StandardCharsets.UTF_8))
                .isEqualTo("{\"model\":\"mistral-small-latest\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],"
                        + "\"stream\":true,\"reasoning_effort\":\"high\"}");
        assertThat(encode(request.toBuilder().reasoning(ReasoningOptions.effort(ReasoningEffort.NONE)).build(), false)
                .get("reasoning_effort").stringValue()).isEqualTo("none");
        assertThat(encode(request.toBuilder().reasoning(ReasoningOptions.DEFAULT).build(), false)
                .has("reasoning_effort")).isFalse();
    }

    /**
     * The accepted Magistral request rebuilt from its conversation: thinking chunk first, then the
     * text chunk, texts identical. (Its turn-1 reasoning came from OpenAI as three summaries, which
     * pydantic-ai put in one chunk as three text items; an own Magistral part is one chunk with one
     * item, the same shape. The recorded {@code prefix: false} and {@code tool_calls: []} are
     * defaults that need not be sent.)
     */
    @Test
    void earlierReasoningGoesBackAsThinkingChunksInTheAcceptedShape() {
        JsonNode recorded = MAPPER.readTree(Fixtures.bytes("sendback/pydantic-magistral-thinking.turn2.request.json"))
                .get("messages");
        JsonNode content = recorded.get(1).get("content");
        String thinking = content.get(0).get("thinking").get(0).get("text").stringValue();
        String answer = content.get(1).get("text").stringValue();
        ChatRequest request = ChatRequest.builder("magistral-medium-latest")
                .user(recorded.get(0).get("content").stringValue())
                .message(assistant("mistral", reasoning(thinking), TextPart.of(answer)))
                .user(recorded.get(2).get("content").stringValue())
                .build();

        JsonNode messages = encode(request, false).get("messages");

        assertThat(messages.get(0)).isEqualTo(recorded.get(0));
        assertThat(messages.get(2)).isEqualTo(recorded.get(2));
        assertThat(messages.get(1).get("role").stringValue()).isEqualTo("assistant");
        assertThat(messages.get(1).get("content")).isEqualTo(MAPPER.readTree("[{\"type\":\"thinking\",\"thinking\":"
                + "[{\"type\":\"text\",\"text\":" + MAPPER.writeValueAsString(thinking) + "}]},"
                + "{\"type\":\"text\",\"text\":" + MAPPER.writeValueAsString(answer) + "}]"));
        assertThat(content.get(0).get("type").stringValue()).isEqualTo("thinking");
        assertThat(content.get(0).get("thinking").get(0).get("type").stringValue()).isEqualTo("text");
        assertThat(content.get(1).get("type").stringValue()).isEqualTo("text");
    }

    @Test
    void thinkingChunksKeepPartOrderAndToolCallsAndOtherProvidersReasoningIsDropped() {
        ChatRequest request = ChatRequest.builder("magistral-small-latest")
                .user("a")
                .message(assistant("mistral", reasoning("first"), TextPart.of("Let me check."), reasoning("second"),
                        new ToolCallPart("call_1", "f", "{\"x\":1}", true, Seals.NONE)))
                .message(dev.ruminate.core.message.Message.toolResult("call_1", "42"))
                .message(assistant("anthropic", reasoning("not ours"), TextPart.of("B")))
                .message(assistant("mistral", TextPart.of("no reasoning")))
                .user("c")
                .build();

        String json = new String(ChatCompletionsCodec.encodeRequest(Profiles.MISTRAL, request, false),
                StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"model\":\"magistral-small-latest\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"a\"},"
                + "{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"first\"}]},"
                + "{\"type\":\"text\",\"text\":\"Let me check.\"},"
                + "{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"second\"}]}],"
                + "\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\":1}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"42\"},"
                + "{\"role\":\"assistant\",\"content\":\"B\"},"
                + "{\"role\":\"assistant\",\"content\":\"no reasoning\"},"
                + "{\"role\":\"user\",\"content\":\"c\"}]}");
    }

    @Test
    void theProfileIsFoundByName() {
        assertThat(Profiles.byName("mistral")).isSameAs(Profiles.MISTRAL);
        assertThat(Profiles.MISTRAL.chatUri(null)).hasToString("https://api.mistral.ai/v1/chat/completions");
        assertThat(Profiles.MISTRAL.authHeader()).isEqualTo("Authorization");
        assertThat(Profiles.MISTRAL.authPrefix()).isEqualTo("Bearer ");
    }
}
