package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class ChatCompletionsScriptTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void writesTheOpenAiChunkShapeFromRoleChunkToDone() {
        String sse = ChatCompletionsScript.create()
                .id("chatcmpl-42").model("gpt-test").created(1_700_000_000L)
                .content("Hello there")
                .toSse();

        List<String> data = SseText.data(sse);
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        List<JsonNode> chunks = parse(data.subList(0, data.size() - 1));
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.get("id").stringValue()).isEqualTo("chatcmpl-42");
            assertThat(chunk.get("object").stringValue()).isEqualTo("chat.completion.chunk");
            assertThat(chunk.get("created").longValue()).isEqualTo(1_700_000_000L);
            assertThat(chunk.get("model").stringValue()).isEqualTo("gpt-test");
            assertThat(chunk.get("choices").get(0).get("index").intValue()).isZero();
        });
        JsonNode role = delta(chunks.get(0));
        assertThat(role.get("role").stringValue()).isEqualTo("assistant");
        assertThat(role.get("content").stringValue()).isEmpty();
        assertThat(joined(chunks.subList(1, chunks.size()), "content")).isEqualTo("Hello there");
        JsonNode finish = chunks.get(chunks.size() - 1);
        assertThat(finish.get("choices").get(0).get("finish_reason").stringValue()).isEqualTo("stop");
        assertThat(delta(finish).size()).isZero();
        assertThat(chunks.subList(0, chunks.size() - 1))
                .allSatisfy(chunk -> assertThat(chunk.get("choices").get(0).get("finish_reason").isNull()).isTrue());
        assertThat(sse).startsWith("data: {").endsWith("data: [DONE]\n\n");
    }

    @Test
    void cutsTextsIntoDeltasOfNCodePointsWithoutSplittingSurrogatePairs() {
        String text = "a😀b😀😀cd🧠";
        List<JsonNode> chunks = parse(SseText.data(ChatCompletionsScript.create().content(text).tokensOf(2).done(false)
                .finish(null).toSse()));

        List<String> pieces = strings(chunks.subList(1, chunks.size()), "content");
        assertThat(pieces).containsExactly("a😀", "b😀", "😀c", "d🧠");
    }

    @Test
    void streamsReasoningInTheDefaultField() {
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create()
                .reasoning("Think first.").content("Answer.").toSse()));

        assertThat(joined(chunks, "reasoning_content")).isEqualTo("Think first.");
        assertThat(joined(chunks, "content")).isEqualTo("Answer.");
        assertThat(chunks).noneSatisfy(chunk -> assertThat(delta(chunk).has("reasoning")).isTrue());
    }

    @Test
    void streamsReasoningInAChosenFieldOrDuplicatedInTwo() {
        for (String field : List.of("reasoning", "reasoning_text")) {
            List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create()
                    .reasoningFields(field).reasoning("Because.").toSse()));
            assertThat(joined(chunks, field)).isEqualTo("Because.");
            assertThat(joined(chunks, "reasoning_content")).isEmpty();
        }

        List<JsonNode> both = parse(dataWithoutDone(ChatCompletionsScript.create()
                .reasoningFields("reasoning_content", "reasoning").reasoning("Same text twice.").toSse()));
        List<JsonNode> reasoningChunks = both.stream().filter(chunk -> delta(chunk).has("reasoning")).toList();
        assertThat(reasoningChunks).isNotEmpty().allSatisfy(chunk -> assertThat(delta(chunk).get("reasoning").stringValue())
                .isEqualTo(delta(chunk).get("reasoning_content").stringValue()));
        assertThat(joined(both, "reasoning")).isEqualTo("Same text twice.");
        assertThat(joined(both, "reasoning_content")).isEqualTo("Same text twice.");
        assertThatThrownBy(() -> ChatCompletionsScript.create().reasoningFields("reasoning", "reasoning"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void emptyReasoningIsOneEmptyDeltaLikeDeepSeeksFirstChunk() {
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create().reasoning("").toSse()));

        assertThat(strings(chunks, "reasoning_content")).containsExactly("");
    }

    @Test
    void escapesTextsSoThatTheyParseBackExactly() {
        String content = "<think>quoted \"x\" and \\ backslash</think>\nline two\t/ slash \u0001 é";
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create().content(content).tokensOf(5)
                .toSse()));

        assertThat(joined(chunks, "content")).isEqualTo(content);
    }

    @Test
    void fragmentsToolCallsLikeOpenAi() {
        String weather = "{\"location\":\"San Francisco\",\"unit\":\"c\"}";
        String time = "{\"tz\":\"UTC\"}";
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create()
                .toolCall("call_a", "weather", weather)
                .toolCall("call_b", "time", time)
                .finish("tool_calls")
                .tokensOf(3)
                .toSse()));

        List<JsonNode> calls = toolCalls(chunks);
        List<JsonNode> first = calls.stream().filter(call -> call.get("index").intValue() == 0).toList();
        List<JsonNode> second = calls.stream().filter(call -> call.get("index").intValue() == 1).toList();
        assertThat(first.get(0).get("id").stringValue()).isEqualTo("call_a");
        assertThat(first.get(0).get("type").stringValue()).isEqualTo("function");
        assertThat(first.get(0).get("function").get("name").stringValue()).isEqualTo("weather");
        assertThat(first.get(0).get("function").get("arguments").stringValue()).isEmpty();
        assertThat(first.subList(1, first.size())).allSatisfy(fragment -> {
            assertThat(fragment.has("id")).isFalse();
            assertThat(fragment.get("function").has("name")).isFalse();
            assertThat(fragment.get("function").get("arguments").stringValue()).hasSizeBetween(1, 3);
        });
        assertThat(arguments(first)).isEqualTo(weather);
        assertThat(second.get(0).get("id").stringValue()).isEqualTo("call_b");
        assertThat(arguments(second)).isEqualTo(time);
        assertThat(finishReason(chunks)).isEqualTo("tool_calls");
    }

    @Test
    void sendsWholeToolCallsInOneDeltaLikeXai() {
        String arguments = "{\"location\":\"San Francisco\"}";
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create()
                .wholeToolCalls(true)
                .toolCall("call_79382389", "weather", arguments)
                .tokensOf(1)
                .toSse()));

        assertThat(toolCalls(chunks)).singleElement().satisfies(call -> {
            assertThat(call.get("index").intValue()).isZero();
            assertThat(call.get("id").stringValue()).isEqualTo("call_79382389");
            assertThat(call.get("function").get("name").stringValue()).isEqualTo("weather");
            assertThat(call.get("function").get("arguments").stringValue()).isEqualTo(arguments);
        });
    }

    @Test
    void keepsTheScriptedOrderOfInterleavedParts() {
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create()
                .reasoning("r1").toolCall("c", "f", "{}").reasoning("r2").content("text")
                .tokensOf(10).toSse()));

        List<String> kinds = new ArrayList<>();
        for (JsonNode chunk : chunks.subList(1, chunks.size() - 1)) {
            JsonNode delta = delta(chunk);
            kinds.add(delta.has("reasoning_content") ? "reasoning:" + delta.get("reasoning_content").stringValue()
                    : delta.has("tool_calls") ? "tool" : "content:" + delta.get("content").stringValue());
        }
        assertThat(kinds).containsExactly("reasoning:r1", "tool", "tool", "reasoning:r2", "content:text");
    }

    @Test
    void putsUsageInItsOwnChunkWithEmptyChoicesByDefault() {
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create()
                .content("x").usage(15, 78, 64).toSse()));

        JsonNode last = chunks.get(chunks.size() - 1);
        assertThat(last.get("choices").isArray()).isTrue();
        assertThat(last.get("choices").size()).isZero();
        assertUsage(last.get("usage"), 15, 78, 64);
        JsonNode finish = chunks.get(chunks.size() - 2);
        assertThat(finish.get("choices").get(0).get("finish_reason").stringValue()).isEqualTo("stop");
        assertThat(finish.has("usage")).isFalse();
    }

    @Test
    void putsUsageOnTheFinishChunkLikeDeepSeek() {
        List<JsonNode> chunks = parse(dataWithoutDone(ChatCompletionsScript.create()
                .content("x").finish("tool_calls").usage(339, 83, 39).usageOnFinishChunk(true).toSse()));

        JsonNode last = chunks.get(chunks.size() - 1);
        assertThat(last.get("choices").get(0).get("finish_reason").stringValue()).isEqualTo("tool_calls");
        assertUsage(last.get("usage"), 339, 83, 39);
        assertThat(chunks).filteredOn(chunk -> chunk.has("usage")).hasSize(1);
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.get("choices").size()).isOne());
    }

    @Test
    void canLeaveOutDoneAndTheFinishChunk() {
        String sse = ChatCompletionsScript.create().content("cut").finish(null).done(false).toSse();

        List<String> data = SseText.data(sse);
        assertThat(data).doesNotContain("[DONE]");
        assertThat(parse(data)).allSatisfy(chunk ->
                assertThat(chunk.get("choices").get(0).get("finish_reason").isNull()).isTrue());
        assertThat(sse).doesNotContain("[DONE]");
    }

    @Test
    void insertsMalformedChunksWhereAsked() {
        ChatCompletionsScript script = ChatCompletionsScript.create().content("abcdefgh").tokensOf(4);
        // Chunks: role, "abcd", "efgh", finish.
        String sse = script.malformedChunkAt(2).malformedChunkAt(4).toSse();

        List<String> data = SseText.data(sse);
        assertThat(data).hasSize(7);
        assertThat(data.get(6)).isEqualTo("[DONE]");
        for (int i = 0; i < 6; i++) {
            String event = data.get(i);
            if (i == 2 || i == 5) {
                assertThatThrownBy(() -> MAPPER.readTree(event)).as("event %d", i).isInstanceOf(JacksonException.class);
                assertThat(event).startsWith("{\"id\":");
            } else {
                assertThat(MAPPER.readTree(event).isObject()).as("event %d", i).isTrue();
            }
        }
        assertThatThrownBy(() -> ChatCompletionsScript.create().malformedChunkAt(3).toSse())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("3");
    }

    @Test
    void writesCommentLinesInPlace() {
        String sse = ChatCompletionsScript.create()
                .comment("OPENROUTER PROCESSING")
                .content("hi")
                .comment("keep-alive")
                .toSse();

        List<SseText.Block> blocks = SseText.blocks(sse);
        assertThat(blocks.get(0).comments()).isEmpty();
        assertThat(blocks.get(1).comments()).containsExactly("OPENROUTER PROCESSING");
        assertThat(blocks.get(1).data()).isEmpty();
        assertThat(blocks.get(2).data()).contains("\"content\":\"hi\"");
        assertThat(blocks.get(3).comments()).containsExactly("keep-alive");
        assertThat(sse).contains("\n\n: OPENROUTER PROCESSING\n\n");
        assertThatThrownBy(() -> ChatCompletionsScript.create().comment("two\nlines"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writesTheEquivalentNonStreamingCompletion() {
        ChatCompletionsScript script = ChatCompletionsScript.create()
                .id("chatcmpl-9").model("deepseek-reasoner")
                .reasoningFields("reasoning_content", "reasoning")
                .reasoning("Part one. ").reasoning("Part two.")
                .content("The \"answer\".")
                .toolCall("call_1", "weather", "{\"city\":\"Paris\"}")
                .finish("tool_calls")
                .usage(10, 30, 12);

        JsonNode completion = MAPPER.readTree(script.toCompletionJson());

        assertThat(completion.get("id").stringValue()).isEqualTo("chatcmpl-9");
        assertThat(completion.get("object").stringValue()).isEqualTo("chat.completion");
        assertThat(completion.get("model").stringValue()).isEqualTo("deepseek-reasoner");
        JsonNode choice = completion.get("choices").get(0);
        assertThat(choice.get("finish_reason").stringValue()).isEqualTo("tool_calls");
        JsonNode message = choice.get("message");
        assertThat(message.get("role").stringValue()).isEqualTo("assistant");
        assertThat(message.get("content").stringValue()).isEqualTo("The \"answer\".");
        assertThat(message.get("reasoning_content").stringValue()).isEqualTo("Part one. Part two.");
        assertThat(message.get("reasoning").stringValue()).isEqualTo("Part one. Part two.");
        JsonNode call = message.get("tool_calls").get(0);
        assertThat(call.get("id").stringValue()).isEqualTo("call_1");
        assertThat(call.get("type").stringValue()).isEqualTo("function");
        assertThat(call.get("function").get("name").stringValue()).isEqualTo("weather");
        assertThat(call.get("function").get("arguments").stringValue()).isEqualTo("{\"city\":\"Paris\"}");
        assertUsage(completion.get("usage"), 10, 30, 12);
    }

    @Test
    void nonStreamingCompletionWithoutTextHasNullContentAndNoOptionalFields() {
        JsonNode message = MAPPER.readTree(ChatCompletionsScript.create().toCompletionJson())
                .get("choices").get(0).get("message");

        assertThat(message.get("content").isNull()).isTrue();
        assertThat(message.has("reasoning_content")).isFalse();
        assertThat(message.has("tool_calls")).isFalse();
        assertThat(MAPPER.readTree(ChatCompletionsScript.create().toCompletionJson()).has("usage")).isFalse();
        assertThat(ChatCompletionsScript.create().toCompletionResponse().contentType()).isEqualTo("application/json");
    }

    @Test
    void theReadmeExampleRendersWhatItPromises() {
        String sse = ChatCompletionsScript.create()
                .id("chatcmpl-1").model("deepseek-reasoner").created(1_762_317_021L)
                .reasoningFields("reasoning_content", "reasoning")
                .reasoning("First I check the forecast.")
                .content("Let me look it up. <think>raw tags stay in content</think>")
                .toolCall("call_1", "weather", "{\"city\":\"Paris\"}")
                .wholeToolCalls(false)
                .comment("OPENROUTER PROCESSING")
                .finish("tool_calls")
                .usage(339, 83, 39)
                .usageOnFinishChunk(true)
                .tokensOf(3)
                .malformedChunkAt(5)
                .done(true)
                .toSse();

        List<String> data = new ArrayList<>(dataWithoutDone(sse));
        String malformed = data.remove(5);
        assertThatThrownBy(() -> MAPPER.readTree(malformed)).isInstanceOf(JacksonException.class);
        List<JsonNode> chunks = parse(data);
        assertThat(joined(chunks, "reasoning")).isEqualTo("First I check the forecast.");
        assertThat(joined(chunks.subList(1, chunks.size()), "content"))
                .isEqualTo("Let me look it up. <think>raw tags stay in content</think>");
        assertThat(toolCalls(chunks).get(0).get("id").stringValue()).isEqualTo("call_1");
        assertThat(sse).contains("\n\n: OPENROUTER PROCESSING\n\n");
        assertUsage(chunks.get(chunks.size() - 1).get("usage"), 339, 83, 39);
    }

    private static void assertUsage(JsonNode usage, int prompt, int completion, int reasoning) {
        assertThat(usage.get("prompt_tokens").intValue()).isEqualTo(prompt);
        assertThat(usage.get("completion_tokens").intValue()).isEqualTo(completion);
        assertThat(usage.get("total_tokens").intValue()).isEqualTo(prompt + completion);
        assertThat(usage.get("completion_tokens_details").get("reasoning_tokens").intValue()).isEqualTo(reasoning);
    }

    static List<String> dataWithoutDone(String sse) {
        List<String> data = SseText.data(sse);
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        return data.subList(0, data.size() - 1);
    }

    static List<JsonNode> parse(List<String> data) {
        return data.stream().map(MAPPER::readTree).toList();
    }

    static JsonNode delta(JsonNode chunk) {
        return chunk.get("choices").get(0).get("delta");
    }

    static List<String> strings(List<JsonNode> chunks, String field) {
        List<String> pieces = new ArrayList<>();
        for (JsonNode chunk : chunks) {
            JsonNode choices = chunk.get("choices");
            if (choices.size() > 0 && delta(chunk).has(field)) {
                pieces.add(delta(chunk).get(field).stringValue());
            }
        }
        return pieces;
    }

    static String joined(List<JsonNode> chunks, String field) {
        return String.join("", strings(chunks, field));
    }

    static List<JsonNode> toolCalls(List<JsonNode> chunks) {
        List<JsonNode> calls = new ArrayList<>();
        for (JsonNode chunk : chunks) {
            if (chunk.get("choices").size() > 0 && delta(chunk).has("tool_calls")) {
                JsonNode array = delta(chunk).get("tool_calls");
                assertThat(array.size()).isOne();
                calls.add(array.get(0));
            }
        }
        return calls;
    }

    private static String arguments(List<JsonNode> fragments) {
        StringBuilder sb = new StringBuilder();
        fragments.forEach(fragment -> sb.append(fragment.get("function").get("arguments").stringValue()));
        return sb.toString();
    }

    private static String finishReason(List<JsonNode> chunks) {
        JsonNode reason = chunks.get(chunks.size() - 1).get("choices").get(0).get("finish_reason");
        return reason.stringValue();
    }
}
