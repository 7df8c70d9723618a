package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.transport.wire.EventStreamMessage;
import dev.ruminate.transport.wire.EventStreams;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * Empty text behaves the same in all six wire formats: a text step never disappears, it is one
 * delta carrying {@code ""}; empty tool arguments add no fragment after the call's opening.
 */
class EmptyTextTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The text deltas a rendered stream carries, in order, read back from its JSON records. */
    private static List<String> deltas(List<JsonNode> records, Function<JsonNode, JsonNode> delta) {
        List<String> out = new ArrayList<>();
        for (JsonNode record : records) {
            JsonNode value = delta.apply(record);
            if (value.isString()) {
                out.add(value.stringValue());
            }
        }
        return out;
    }

    /** The JSON records of an SSE or NDJSON body: every {@code data:} payload or line that is an object. */
    private static List<JsonNode> records(String body) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : body.split("\r?\n")) {
            String json = line.startsWith("data: ") ? line.substring(6) : line;
            if (json.startsWith("{")) {
                out.add(JSON.readTree(json));
            }
        }
        return out;
    }

    private static List<JsonNode> frames(byte[] body) {
        List<EventStreamMessage> messages = EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(body))).collectList()
                .block();
        return messages.stream().map(m -> JSON.readTree(m.payload())).toList();
    }

    private static JsonNode chatDelta(JsonNode chunk, String field) {
        return chunk.at("/choices/0/delta/" + field);
    }

    private static JsonNode ifType(JsonNode node, String pointer, String type, String field) {
        return type.equals(node.at(pointer).asString("")) ? node.path(field) : MissingNode.getInstance();
    }

    static Stream<Arguments> emptyAnswers() {
        return Stream.of(
                Arguments.of("Chat Completions", (Supplier<List<String>>) () -> {
                    List<JsonNode> chunks = records(ChatCompletionsScript.create().content("").done(false).toSse());
                    return deltas(chunks.subList(1, chunks.size()), c -> chatDelta(c, "content")); // after the role chunk
                }),
                Arguments.of("Responses", (Supplier<List<String>>) () -> deltas(
                        records(ResponsesScript.create().text("").toSse()),
                        e -> ifType(e, "/type", "response.output_text.delta", "delta"))),
                Arguments.of("Anthropic", (Supplier<List<String>>) () -> deltas(
                        records(AnthropicScript.create().text("").toSse()),
                        e -> ifType(e.path("delta"), "/type", "text_delta", "text"))),
                Arguments.of("Gemini", (Supplier<List<String>>) () -> deltas(
                        records(GeminiScript.create().text("").finishReason(null).toSse()),
                        c -> c.at("/candidates/0/content/parts/0/text"))),
                Arguments.of("Ollama", (Supplier<List<String>>) () -> deltas(
                        records(OllamaScript.create().content("").done(false).toNdjsonText()),
                        l -> l.at("/message/content"))),
                Arguments.of("Bedrock", (Supplier<List<String>>) () -> deltas(
                        frames(BedrockScript.create().text("").toEventStream()),
                        f -> f.at("/delta/text"))));
    }

    static Stream<Arguments> emptyReasoning() {
        return Stream.of(
                Arguments.of("Chat Completions", (Supplier<List<String>>) () -> deltas(
                        records(ChatCompletionsScript.create().reasoning("").done(false).toSse()),
                        c -> chatDelta(c, "reasoning_content"))),
                Arguments.of("Responses summary", (Supplier<List<String>>) () -> deltas(
                        records(ResponsesScript.create().reasoning("rs_1", null, "").toSse()),
                        e -> ifType(e, "/type", "response.reasoning_summary_text.delta", "delta"))),
                Arguments.of("Responses raw", (Supplier<List<String>>) () -> deltas(
                        records(ResponsesScript.create().rawReasoning("rs_1", "").toSse()),
                        e -> ifType(e, "/type", "response.reasoning_text.delta", "delta"))),
                Arguments.of("Anthropic", (Supplier<List<String>>) () -> deltas(
                        records(AnthropicScript.create().thinking("", "sig").toSse()),
                        e -> ifType(e.path("delta"), "/type", "thinking_delta", "thinking"))),
                Arguments.of("Gemini", (Supplier<List<String>>) () -> deltas(
                        records(GeminiScript.create().thought("").finishReason(null).toSse()),
                        c -> c.at("/candidates/0/content/parts/0/text"))),
                Arguments.of("Ollama", (Supplier<List<String>>) () -> deltas(
                        records(OllamaScript.create().thinking("").done(false).toNdjsonText()),
                        l -> l.at("/message/thinking"))),
                Arguments.of("Bedrock", (Supplier<List<String>>) () -> deltas(
                        frames(BedrockScript.create().reasoning("", "sig").toEventStream()),
                        f -> f.at("/delta/reasoningContent/text"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("emptyAnswers")
    void emptyAnswerTextIsOneEmptyDelta(String format, Supplier<List<String>> deltas) {
        assertThat(deltas.get()).as(format).containsExactly("");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("emptyReasoning")
    void emptyReasoningTextIsOneEmptyDelta(String format, Supplier<List<String>> deltas) {
        assertThat(deltas.get()).as(format).containsExactly("");
    }

    @Test
    void anEmptyGeminiTextKeepsItsSignature() {
        List<JsonNode> chunks = records(GeminiScript.create().text("", "sig-1").finishReason(null).toSse());

        assertThat(chunks).hasSize(1);
        assertThat(chunks.get(0).at("/candidates/0/content/parts/0/thoughtSignature").asString()).isEqualTo("sig-1");
        assertThat(GeminiScript.create().text("", "sig-1").toSse())
                .isEqualTo(GeminiScript.create().trailingSignature("sig-1").toSse());
    }

    @Test
    void omittedAnthropicThinkingHasNoThinkingDeltaOnlyItsSignature() {
        List<JsonNode> events = records(AnthropicScript.create().omittedThinking("sig-1").toSse());

        assertThat(events).extracting(e -> e.at("/delta/type").asString(""))
                .filteredOn(type -> !type.isEmpty())
                .containsExactly("signature_delta");
        assertThat(JSON.readTree(AnthropicScript.create().omittedThinking("sig-1").toMessageJson())
                .at("/content/0/thinking").asString()).isEmpty();
    }

    @Test
    void emptyToolArgumentsAddNoFragmentAfterTheCallsOpening() {
        List<JsonNode> chat = records(ChatCompletionsScript.create().toolCall("call_1", "now", "").done(false)
                .finish(null).toSse());
        assertThat(deltas(chat, c -> c.at("/choices/0/delta/tool_calls/0/function/arguments"))).containsExactly("");

        List<JsonNode> anthropic = records(AnthropicScript.create().toolUse("toolu_1", "now", "").toSse());
        assertThat(deltas(anthropic, e -> ifType(e.path("delta"), "/type", "input_json_delta", "partial_json")))
                .containsExactly(""); // the API's own empty first fragment

        assertThat(deltas(records(ResponsesScript.create().functionCall("call_1", "now", "").toSse()),
                e -> ifType(e, "/type", "response.function_call_arguments.delta", "delta"))).isEmpty();

        assertThat(deltas(frames(BedrockScript.create().toolUse("tooluse_1", "now", "").toEventStream()),
                f -> f.at("/delta/toolUse/input"))).isEmpty();

        assertThat(deltas(records(GeminiScript.create().streamedFunctionCall("f", "q", "", null).toSse()),
                c -> c.at("/candidates/0/content/parts/0/functionCall/partialArgs/0/stringValue"))).isEmpty();
    }
}
