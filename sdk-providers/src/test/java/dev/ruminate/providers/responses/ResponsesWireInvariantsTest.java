package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.testing.Recorded;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules a Responses client relies on, checked on recorded streams of several providers
 * re-encoded in every mode, and the writer's answers to failures, summaries and opaque state.
 */
class ResponsesWireInvariantsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ResponsesStreamOptions FIXED = ResponsesStreamOptions.fixed("resp_w", 7L, null);
    /** A hook that seals every item's parts as a readable summary, so tests can see what it was given. */
    private static final EncryptedContentWriter DESCRIBE = item -> "sealed:" + item.type() + ":" + item.parts().size() + ":"
            + item.parts().stream().filter(ResponsesWireInvariantsTest::sealed).count();

    private static boolean sealed(dev.ruminate.core.message.Part p) {
        if (p instanceof ReasoningPart r) {
            return !r.seals().isEmpty();
        }
        if (p instanceof TextPart t) {
            return !t.seals().isEmpty();
        }
        return p instanceof dev.ruminate.core.message.ToolCallPart c && !c.seals().isEmpty();
    }

    static Stream<Arguments> recordingsInEveryMode() {
        List<Arguments> all = new ArrayList<>();
        for (Arguments a : ResponsesEncoderRoundTripTest.recordings().toList()) {
            Object[] args = a.get();
            all.add(Arguments.of(args[0], args[1], FIXED));
            all.add(Arguments.of(args[0], args[1], FIXED.withReasoningSummaries(ReasoningSummaries.OFF)));
            all.add(Arguments.of(args[0], args[1], FIXED.withEncryptedContent(DESCRIBE)));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("recordingsInEveryMode")
    void recordedStreamsKeepTheEventOrderClientsRelyOn(String path,
            Function<Flux<dev.ruminate.transport.wire.SseEvent>, Flux<ChatEvent>> decoder, ResponsesStreamOptions options) {
        Flux<ChatEvent> events = Flux.fromIterable(Recorded.sse(path)).transform(decoder).cache();
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(events, options));
        assertInvariants(frames);
        String body = ResponsesStreamEncoder.encodeBody(events, options).block(Duration.ofSeconds(10));
        assertThat(JSON.readTree(body)).isEqualTo(frames.get(frames.size() - 1).get("response"));
        JsonNode response = frames.get(frames.size() - 1).get("response");
        for (String field : List.of("id", "object", "created_at", "status", "error", "incomplete_details", "instructions",
                "metadata", "model", "output", "parallel_tool_calls", "temperature", "tool_choice", "tools", "top_p",
                "reasoning", "store", "previous_response_id", "max_output_tokens", "text", "truncation", "usage")) {
            assertThat(response.has(field)).as(field).isTrue();
        }
        if (options.encryptedContent() == null) {
            assertThat(frames).allSatisfy(f -> assertThat(f.toString()).doesNotContain("encrypted_content"));
        } else {
            // every reasoning item carries the hook's value: its own state, or a sealed message's or call's
            for (JsonNode item : response.get("output")) {
                if (item.get("type").asString().equals("reasoning")) {
                    assertThat(item.get("encrypted_content").asString()).startsWith("sealed:");
                }
            }
        }
        if (options.reasoningSummaries() == ReasoningSummaries.MIRROR) {
            assertThat(frames).noneSatisfy(f -> assertThat(type(f)).startsWith("response.reasoning_text."));
        }
    }

    @Test
    void severalSummaryPartsOfOneReasoningItemStayOneItem() {
        Flux<ChatEvent> events = Flux.fromIterable(Recorded.sse("openai-responses/pydantic-o3-mini-reasoning-summary-stream.sse"))
                .transform(ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI));
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(events, FIXED));
        assertInvariants(frames);
        List<JsonNode> reasoningItems = frames.stream().filter(f -> type(f).equals("response.output_item.added")
                && f.get("item").get("type").asString().equals("reasoning")).toList();
        assertThat(reasoningItems).hasSize(1);
        List<Integer> summaryIndices = frames.stream().filter(f -> type(f).equals("response.reasoning_summary_part.added"))
                .map(f -> f.get("summary_index").asInt()).toList();
        assertThat(summaryIndices).containsExactly(0, 1, 2, 3);
        JsonNode item = frames.get(frames.size() - 1).get("response").get("output").get(0);
        assertThat(item.get("summary")).hasSize(4);
    }

    @Test
    void separateUpstreamReasoningItemsStaySeparate() {
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(Flux.just(
                new ReasoningDelta(0, "a", true, "summary_text"), new PartEnded(0), new Seal(0, Seal.Kind.ITEM_ID, "rs_1"),
                new ReasoningDelta(1, "b", true, "summary_text"), new PartEnded(1), new Seal(1, Seal.Kind.ITEM_ID, "rs_2"),
                new ResponseCompleted(FinishReason.STOP, null)), FIXED));
        assertInvariants(frames);
        assertThat(frames.get(frames.size() - 1).get("response").get("output")).hasSize(2);
    }

    @Test
    void aFailureClosesEveryOpenItemFirstAndForwardsNoUpstreamPayload() {
        Flux<ChatEvent> events = Flux.concat(Flux.just(new ResponseStarted("p", "m", null),
                        new ReasoningDelta(0, "thinking", false, "reasoning_content"),
                        new ContentDelta(1, "Hal"),
                        new ToolCallDelta(2, 0, "call_1", "lookup", "{\"q\":")),
                Flux.error(new ProviderStreamException("upstream", new dev.ruminate.core.error.ProviderError("server_error", "boom",
                        "upstream said: PLANTED-PAYLOAD sk-live-123", "{\"PLANTED\":1}"))));
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(events, FIXED));
        assertInvariants(frames);
        assertThat(frames).allSatisfy(f -> assertThat(f.toString()).doesNotContain("PLANTED", "sk-live"));
        JsonNode last = frames.get(frames.size() - 1);
        assertThat(type(last)).isEqualTo("response.failed");
        assertThat(last.get("response").get("error").get("code").asString()).isEqualTo("server_error");
        assertThat(last.get("response").get("error").get("message").asString()).isNotBlank();
        // all three items closed before the failure, as incomplete, the call's done naming its function
        List<JsonNode> done = frames.stream().filter(f -> type(f).equals("response.output_item.done")).toList();
        assertThat(done).hasSize(3).allSatisfy(d -> assertThat(d.get("item").get("status").asString()).isEqualTo("incomplete"));
        JsonNode argsDone = frames.stream().filter(f -> type(f).equals("response.function_call_arguments.done")).findFirst()
                .orElseThrow();
        assertThat(argsDone.get("name").asString()).isEqualTo("lookup");
        assertThat(argsDone.get("arguments").asString()).isEqualTo("{\"q\":");
        assertThat(argsDone.get("item_id").asString()).isEqualTo("fc_w_2");
        assertThat(argsDone.get("output_index").asInt()).isEqualTo(2);
        for (JsonNode item : last.get("response").get("output")) {
            assertThat(item.get("status").asString()).isEqualTo("incomplete");
        }

        String body = ResponsesStreamEncoder.encodeBody(events, FIXED).block(Duration.ofSeconds(5));
        assertThat(body).contains("\"status\":\"failed\"").doesNotContain("PLANTED");
    }

    @Test
    void aRateLimitedUpstreamFailsWithOpenAisCode() {
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(Flux.concat(Flux.just(new ContentDelta(0, "a")),
                Flux.error(new RateLimitException("upstream", new dev.ruminate.core.error.ProviderError(null, null, "slow down PLANTED", null),
                        null, null, "PLANTED body"))), FIXED));
        JsonNode error = frames.get(frames.size() - 1).get("response").get("error");
        assertThat(error.get("code").asString()).isEqualTo("rate_limit_exceeded");
        assertThat(error.toString()).doesNotContain("PLANTED");
    }

    @Test
    void anUpstreamThatStopsEarlyClosesItsItemsAndFailsWithAnOpenAiCode() {
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(Flux.just(new ContentDelta(0, "a")), FIXED));
        assertInvariants(frames);
        JsonNode last = frames.get(frames.size() - 1);
        assertThat(last.get("response").get("error").get("code").asString()).isEqualTo("server_error");
        assertThat(frames.get(frames.size() - 2).get("item").get("status").asString()).isEqualTo("incomplete");
    }

    @Test
    void theHookSealsReasoningItemsAndAddsAStateItemAfterASignedTextPart() {
        List<OutputItemState> seen = new ArrayList<>();
        EncryptedContentWriter hook = item -> {
            seen.add(item);
            return "blob-" + item.itemId();
        };
        // Gemini-like: the signature rides on the answer text, not on the thought
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(Flux.just(new ResponseStarted("gemini", "g", null),
                new ReasoningDelta(0, "think", false, "thought"), new PartEnded(0),
                new ContentDelta(1, "answer"), new Seal(1, Seal.Kind.SIGNATURE, "SIG-1"), new PartEnded(1),
                new UsageUpdate(new Usage(1L, 2L, null, null)),
                new ResponseCompleted(FinishReason.STOP, null)), FIXED.withEncryptedContent(hook)));
        assertInvariants(frames);
        assertThat(seen).extracting(OutputItemState::type).containsExactly("reasoning", "message");
        assertThat(seen.get(1).parts()).containsExactly(new TextPart("answer",
                dev.ruminate.core.message.Seals.NONE.with(Seal.Kind.SIGNATURE, "SIG-1")));
        List<String> order = frames.stream().map(f -> type(f) + (f.has("output_index") ? "@" + f.get("output_index").asInt() : ""))
                .toList();
        int msgDone = order.indexOf("response.output_item.done@1");
        assertThat(order.subList(msgDone, order.size())).containsExactly("response.output_item.done@1",
                "response.output_item.added@2", "response.output_item.done@2", "response.completed");
        JsonNode output = frames.get(frames.size() - 1).get("response").get("output");
        assertThat(output).hasSize(3);
        assertThat(output.get(0).get("encrypted_content").asString()).isEqualTo("blob-rs_w_0");
        assertThat(output.get(1).has("encrypted_content")).isFalse();
        assertThat(output.get(2).get("type").asString()).isEqualTo("reasoning");
        assertThat(output.get(2).get("summary")).isEmpty();
        assertThat(output.get(2).get("encrypted_content").asString()).isEqualTo("blob-msg_w_1");
        assertThat(frames).allSatisfy(f -> assertThat(f.toString()).doesNotContain("SIG-1"));
        JsonNode usage = frames.get(frames.size() - 1).get("response").get("usage");
        assertThat(usage.get("input_tokens_details").get("cached_tokens").asInt()).isZero();
        assertThat(usage.get("input_tokens_details").get("cache_write_tokens").asInt()).isZero();
        assertThat(usage.get("output_tokens_details").get("reasoning_tokens").asInt()).isZero();
        assertThat(usage.get("total_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void reasoningWithStateButNoTextBecomesAnItemOnlyWhenAHookCarriesIt() {
        Flux<ChatEvent> redacted = Flux.just(new Seal(0, Seal.Kind.REDACTED, "REDACTED-BLOB"), new PartEnded(0),
                new ContentDelta(1, "ok"), new ResponseCompleted(FinishReason.STOP, null));
        JsonNode without = last(parse(ResponsesStreamEncoder.encode(redacted, FIXED)));
        assertThat(without.get("response").get("output")).hasSize(1);
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(redacted, FIXED.withEncryptedContent(DESCRIBE)));
        assertInvariants(frames);
        JsonNode output = last(frames).get("response").get("output");
        assertThat(output).hasSize(2);
        assertThat(output.get(0).get("encrypted_content").asString()).isEqualTo("sealed:reasoning:1:1");
        assertThat(frames).allSatisfy(f -> assertThat(f.toString()).doesNotContain("REDACTED-BLOB"));
    }

    @Test
    void recordedGeminiSignaturesSurviveInStateItems() {
        Flux<ChatEvent> events = Flux.fromIterable(Recorded.sse("gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse"))
                .transform(dev.ruminate.providers.gemini.GeminiCodec.streamDecoder("gemini"));
        List<OutputItemState> sealed = new ArrayList<>();
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(events, FIXED.withEncryptedContent(item -> {
            sealed.add(item);
            return "blob";
        })));
        assertInvariants(frames);
        // the signature Gemini puts on a part reaches the hook, whatever item that part became
        assertThat(sealed).anySatisfy(item -> assertThat(item.parts()).anySatisfy(p ->
                assertThat(p.toString()).contains("signature=<")));
    }

    @Test
    void mirroredRawReasoningIsSummaryOnceAndOffKeepsItRaw() {
        Flux<ChatEvent> events = Flux.just(new ReasoningDelta(0, "R", false, "reasoning_content"), new PartEnded(0),
                new ContentDelta(1, "A"), new ResponseCompleted(FinishReason.STOP, null));
        List<JsonNode> mirrored = parse(ResponsesStreamEncoder.encode(events, FIXED));
        assertThat(mirrored).extracting(ResponsesWireInvariantsTest::type).contains(
                "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done")
                .doesNotContain("response.reasoning_text.delta");
        JsonNode item = last(mirrored).get("response").get("output").get(0);
        assertThat(item.get("summary").get(0).get("text").asString()).isEqualTo("R");
        assertThat(item.has("content")).isFalse();

        List<JsonNode> raw = parse(ResponsesStreamEncoder.encode(events, FIXED.withReasoningSummaries(ReasoningSummaries.OFF)));
        assertThat(raw).extracting(ResponsesWireInvariantsTest::type).contains("response.reasoning_text.delta")
                .doesNotContain("response.reasoning_summary_text.delta");
        JsonNode rawItem = last(raw).get("response").get("output").get(0);
        assertThat(rawItem.get("summary")).isEmpty();
        assertThat(rawItem.get("content").get(0).get("text").asString()).isEqualTo("R");
    }

    @Test
    void theResponseObjectEchoesTheRequest() {
        ResponsesCall call = ResponsesRequestReader.read("{\"model\":\"m\",\"input\":\"hi\",\"instructions\":\"Be brief.\","
                + "\"tools\":[{\"type\":\"function\",\"name\":\"f\",\"parameters\":{\"type\":\"object\"}}],"
                + "\"tool_choice\":{\"type\":\"function\",\"name\":\"f\"},\"temperature\":0.5,\"top_p\":0.9,"
                + "\"max_output_tokens\":100,\"metadata\":{\"k\":\"v\"},\"store\":false,\"previous_response_id\":\"resp_0\","
                + "\"reasoning\":{\"effort\":\"high\",\"summary\":\"auto\"},\"parallel_tool_calls\":false}");
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(Flux.just(new ContentDelta(0, "x"),
                new ResponseCompleted(FinishReason.STOP, null)), FIXED.withEcho(call.echo())));
        for (JsonNode r : List.of(frames.get(0).get("response"), last(frames).get("response"))) {
            assertThat(r.get("instructions").asString()).isEqualTo("Be brief.");
            assertThat(r.get("tools").get(0).get("name").asString()).isEqualTo("f");
            assertThat(r.get("tool_choice").get("name").asString()).isEqualTo("f");
            assertThat(r.get("temperature").asDouble()).isEqualTo(0.5);
            assertThat(r.get("top_p").asDouble()).isEqualTo(0.9);
            assertThat(r.get("max_output_tokens").asInt()).isEqualTo(100);
            assertThat(r.get("metadata").get("k").asString()).isEqualTo("v");
            assertThat(r.get("store").asBoolean()).isFalse();
            assertThat(r.get("previous_response_id").asString()).isEqualTo("resp_0");
            assertThat(r.get("reasoning").get("effort").asString()).isEqualTo("high");
            assertThat(r.get("parallel_tool_calls").asBoolean()).isFalse();
        }
        assertThat(frames.get(0).get("response").get("usage").isNull()).isTrue();
        assertThat(last(frames).get("response").get("usage").isNull()).isTrue();
    }

    @Test
    void aFailingHookFailsTheResponseWithItsItemsClosed() {
        EncryptedContentWriter broken = item -> {
            throw new IllegalStateException("key store down: PLANTED");
        };
        List<JsonNode> frames = parse(ResponsesStreamEncoder.encode(Flux.just(new ReasoningDelta(0, "r", false, "x"),
                new PartEnded(0), new ContentDelta(1, "a"), new ResponseCompleted(FinishReason.STOP, null)),
                FIXED.withEncryptedContent(broken)));
        assertInvariants(frames);
        assertThat(type(last(frames))).isEqualTo("response.failed");
        assertThat(frames).allSatisfy(f -> assertThat(f.toString()).doesNotContain("PLANTED", "encrypted_content"));
    }

    // ---- the invariants

    /**
     * Sequence numbers from 0 without gaps; every item added once and done once, in that order, with
     * its events between; part-level added/done pairs; one terminal event, last; output indices in
     * order of announcement.
     */
    static void assertInvariants(List<JsonNode> frames) {
        assertThat(frames).isNotEmpty();
        Map<Integer, String> itemState = new HashMap<>();
        Map<String, String> openParts = new HashMap<>();
        int nextIndex = 0;
        for (int i = 0; i < frames.size(); i++) {
            JsonNode f = frames.get(i);
            String type = type(f);
            assertThat(f.get("sequence_number").asInt()).as("sequence of %s", type).isEqualTo(i);
            boolean terminal = type.equals("response.completed") || type.equals("response.incomplete")
                    || type.equals("response.failed");
            assertThat(terminal).as("terminal only last: %s at %d", type, i).isEqualTo(i == frames.size() - 1);
            if (type.equals("response.output_item.added")) {
                int index = f.get("output_index").asInt();
                assertThat(index).as("output indices in order").isEqualTo(nextIndex++);
                assertThat(itemState.put(index, "open")).isNull();
            } else if (type.equals("response.output_item.done")) {
                int index = f.get("output_index").asInt();
                assertThat(itemState.put(index, "done")).as("done after added, once").isEqualTo("open");
                assertThat(openParts.keySet()).as("parts of item %d closed first", index)
                        .noneMatch(k -> k.startsWith(index + ":"));
            } else if (f.has("output_index")) {
                int index = f.get("output_index").asInt();
                assertThat(itemState.get(index)).as("%s inside its open item", type).isEqualTo("open");
                String key = index + ":" + (f.has("summary_index") ? "s" + f.get("summary_index").asInt()
                        : "c" + (f.has("content_index") ? f.get("content_index").asInt() : 0));
                if (type.endsWith("_part.added")) {
                    assertThat(openParts.put(key, type)).as("part added once").isNull();
                } else if (type.endsWith("_part.done")) {
                    assertThat(openParts.remove(key)).as("part done after added").isNotNull();
                }
            }
        }
        assertThat(itemState.values()).as("every item added is done").allMatch("done"::equals);
        assertThat(openParts).isEmpty();
    }

    static List<JsonNode> parse(Flux<SseFrame> encoded) {
        List<SseFrame> frames = encoded.collectList().block(Duration.ofSeconds(10));
        assertThat(frames).isNotNull();
        List<JsonNode> out = new ArrayList<>(frames.size());
        for (SseFrame f : frames) {
            JsonNode node = JSON.readTree(f.data());
            assertThat(node.get("type").asString()).isEqualTo(f.event());
            out.add(node);
        }
        return out;
    }

    static String type(JsonNode f) {
        return f.get("type").asString();
    }

    static JsonNode last(List<JsonNode> frames) {
        return frames.get(frames.size() - 1);
    }
}
