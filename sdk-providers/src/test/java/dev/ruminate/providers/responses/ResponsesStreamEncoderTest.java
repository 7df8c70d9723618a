package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.testing.SseSplitter;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** The exact Responses events the encoder writes, and how it ends a failed or cut-off stream. */
class ResponsesStreamEncoderTest {

    private static final ResponsesStreamOptions FIXED = ResponsesStreamOptions.fixed("resp_abc", 1_700_000_000L, null);

    @Test
    void writesTheExactEventSequenceOfASmallStream() {
        Flux<ChatEvent> events = Flux.just(
                new ResponseStarted("anthropic", "claude-x", "msg_1"),
                new ReasoningDelta(0, "Think", false, "thinking"),
                new ReasoningDelta(0, "ing.", false, "thinking"),
                new Seal(0, Seal.Kind.SIGNATURE, "SECRET-SIG"),
                new PartEnded(0),
                new ContentDelta(1, "Hi"),
                new PartEnded(1),
                new ToolCallDelta(2, 0, "call_1", "f", "{\"a\""),
                new ToolCallDelta(2, 0, null, null, ":1}"),
                new UsageUpdate(new Usage(5L, 9L, 4L, null)),
                new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"));
        String reasoningDone = "{\"id\":\"rs_abc_0\",\"type\":\"reasoning\",\"summary\":[],"
                + "\"content\":[{\"type\":\"reasoning_text\",\"text\":\"Thinking.\"}],\"status\":\"completed\"}";
        String messageDone = "{\"id\":\"msg_abc_1\",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":\"Hi\"}]}";
        String callDone = "{\"id\":\"fc_abc_2\",\"type\":\"function_call\",\"status\":\"completed\",\"arguments\":\"{\\\"a\\\":1}\","
                + "\"call_id\":\"call_1\",\"name\":\"f\"}";
        StepVerifier.create(ResponsesStreamEncoder.encode(events, FIXED.withReasoningSummaries(ReasoningSummaries.OFF))
                        .map(SseFrame::data))
                .expectNext("{\"type\":\"response.created\",\"sequence_number\":0,\"response\":"
                        + response("in_progress", "claude-x", "", "null") + "}")
                .expectNext("{\"type\":\"response.in_progress\",\"sequence_number\":1,\"response\":"
                        + response("in_progress", "claude-x", "", "null") + "}")
                .expectNext("{\"type\":\"response.output_item.added\",\"sequence_number\":2,\"output_index\":0,"
                        + "\"item\":{\"id\":\"rs_abc_0\",\"type\":\"reasoning\",\"summary\":[],\"content\":[],"
                        + "\"status\":\"in_progress\"}}")
                .expectNext("{\"type\":\"response.content_part.added\",\"sequence_number\":3,\"item_id\":\"rs_abc_0\","
                        + "\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"reasoning_text\",\"text\":\"\"}}")
                .expectNext("{\"type\":\"response.reasoning_text.delta\",\"sequence_number\":4,\"item_id\":\"rs_abc_0\","
                        + "\"output_index\":0,\"content_index\":0,\"delta\":\"Think\"}")
                .expectNext("{\"type\":\"response.reasoning_text.delta\",\"sequence_number\":5,\"item_id\":\"rs_abc_0\","
                        + "\"output_index\":0,\"content_index\":0,\"delta\":\"ing.\"}")
                .expectNext("{\"type\":\"response.reasoning_text.done\",\"sequence_number\":6,\"item_id\":\"rs_abc_0\","
                        + "\"output_index\":0,\"content_index\":0,\"text\":\"Thinking.\"}")
                .expectNext("{\"type\":\"response.content_part.done\",\"sequence_number\":7,\"item_id\":\"rs_abc_0\","
                        + "\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"reasoning_text\",\"text\":\"Thinking.\"}}")
                .expectNext("{\"type\":\"response.output_item.done\",\"sequence_number\":8,\"output_index\":0,\"item\":"
                        + reasoningDone + "}")
                .expectNext("{\"type\":\"response.output_item.added\",\"sequence_number\":9,\"output_index\":1,\"item\":"
                        + "{\"id\":\"msg_abc_1\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]}}")
                .expectNext("{\"type\":\"response.content_part.added\",\"sequence_number\":10,\"item_id\":\"msg_abc_1\","
                        + "\"output_index\":1,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"annotations\":[],"
                        + "\"logprobs\":[],\"text\":\"\"}}")
                .expectNext("{\"type\":\"response.output_text.delta\",\"sequence_number\":11,\"item_id\":\"msg_abc_1\","
                        + "\"output_index\":1,\"content_index\":0,\"delta\":\"Hi\",\"logprobs\":[]}")
                .expectNext("{\"type\":\"response.output_text.done\",\"sequence_number\":12,\"item_id\":\"msg_abc_1\","
                        + "\"output_index\":1,\"content_index\":0,\"text\":\"Hi\",\"logprobs\":[]}")
                .expectNext("{\"type\":\"response.content_part.done\",\"sequence_number\":13,\"item_id\":\"msg_abc_1\","
                        + "\"output_index\":1,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"annotations\":[],"
                        + "\"logprobs\":[],\"text\":\"Hi\"}}")
                .expectNext("{\"type\":\"response.output_item.done\",\"sequence_number\":14,\"output_index\":1,\"item\":"
                        + messageDone + "}")
                .expectNext("{\"type\":\"response.output_item.added\",\"sequence_number\":15,\"output_index\":2,\"item\":"
                        + "{\"id\":\"fc_abc_2\",\"type\":\"function_call\",\"status\":\"in_progress\",\"arguments\":\"\","
                        + "\"call_id\":\"call_1\",\"name\":\"f\"}}")
                .expectNext("{\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":16,\"item_id\":\"fc_abc_2\","
                        + "\"output_index\":2,\"delta\":\"{\\\"a\\\"\"}")
                .expectNext("{\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":17,\"item_id\":\"fc_abc_2\","
                        + "\"output_index\":2,\"delta\":\":1}\"}")
                .expectNext("{\"type\":\"response.function_call_arguments.done\",\"sequence_number\":18,\"item_id\":\"fc_abc_2\","
                        + "\"output_index\":2,\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}")
                .expectNext("{\"type\":\"response.output_item.done\",\"sequence_number\":19,\"output_index\":2,\"item\":"
                        + callDone + "}")
                .expectNext("{\"type\":\"response.completed\",\"sequence_number\":20,\"response\":"
                        + response("completed", "claude-x", reasoningDone + "," + messageDone + "," + callDone,
                        "{\"input_tokens\":5,\"input_tokens_details\":{\"cached_tokens\":0,\"cache_write_tokens\":0},\"output_tokens\":9,"
                        + "\"output_tokens_details\":{\"reasoning_tokens\":4},\"total_tokens\":14}") + "}")
                .verifyComplete();
    }

    /** The response object for a request that echoes nothing. */
    static String response(String status, String model, String output, String usage) {
        return "{\"id\":\"resp_abc\",\"object\":\"response\",\"created_at\":1700000000,\"status\":\"" + status + "\","
                + "\"error\":null,\"incomplete_details\":null,\"instructions\":null,\"max_output_tokens\":null,"
                + "\"metadata\":{},\"model\":\"" + model + "\",\"output\":[" + output + "],\"parallel_tool_calls\":true,"
                + "\"previous_response_id\":null,\"reasoning\":{\"effort\":null,\"summary\":null},\"store\":true,"
                + "\"temperature\":null,\"text\":{\"format\":{\"type\":\"text\"}},\"tool_choice\":\"auto\",\"tools\":[],"
                + "\"top_p\":null,\"truncation\":\"disabled\",\"usage\":" + usage + "}";
    }

    @Test
    void eventNamesAreTheTypesAndNoOpaqueStateIsWritten() {
        List<SseFrame> frames = ResponsesStreamEncoder.encode(Flux.just(new ResponseStarted("p", "m", null),
                new ReasoningDelta(0, "r", true, "summary_text"), new Seal(0, Seal.Kind.ENCRYPTED, "gAAAA-SECRET"),
                new ReasoningFinal(0, "r"), new ResponseCompleted(FinishReason.STOP, null)), FIXED)
                .collectList().block(Duration.ofSeconds(5));
        assertThat(frames).isNotNull().allSatisfy(f -> {
            assertThat(f.data()).startsWith("{\"type\":\"" + f.event() + "\"").doesNotContain("SECRET", "encrypted_content");
        });
        assertThat(frames.stream().map(SseFrame::event).collect(Collectors.toList())).containsExactly(
                "response.created", "response.in_progress", "response.output_item.added",
                "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done",
                "response.output_item.done", "response.completed");
    }

    @Test
    void anUpstreamErrorBecomesResponseFailedAndTheStreamCompletes() {
        Flux<ChatEvent> events = Flux.concat(Flux.just(new ResponseStarted("p", "m", null), new ContentDelta(0, "Hal")),
                Flux.error(new StreamTimeoutException(StreamTimeoutException.Phase.IDLE, Duration.ofSeconds(30))));
        List<SseFrame> frames = ResponsesStreamEncoder.encode(events, FIXED).collectList().block(Duration.ofSeconds(5));
        assertThat(frames).isNotNull();
        SseFrame last = frames.get(frames.size() - 1);
        assertThat(last.event()).isEqualTo("response.failed");
        assertThat(last.data()).contains("\"status\":\"failed\"", "\"error\":{\"code\":\"server_error\"", "\"text\":\"Hal\"")
                .contains("\"sequence_number\":" + (frames.size() - 1) + ",");
        // the open message closed first, as incomplete
        assertThat(frames.get(frames.size() - 2).data()).startsWith("{\"type\":\"response.output_item.done\"")
                .contains("\"status\":\"incomplete\"", "\"text\":\"Hal\"");

        // our own decoder reads it as the provider error it is
        StepVerifier.create(decode(frames).filter(ContentDelta.class::isInstance))
                .expectNext(new ContentDelta(0, "Hal"))
                .verifyError(ProviderStreamException.class);
    }

    @Test
    void foreignExceptionsStayOpaque() {
        List<SseFrame> frames = ResponsesStreamEncoder.encode(Flux.error(new IllegalStateException("db password=hunter2")), FIXED)
                .collectList().block(Duration.ofSeconds(5));
        assertThat(frames).isNotNull().extracting(SseFrame::event)
                .containsExactly("response.created", "response.in_progress", "response.failed");
        assertThat(frames.get(2).data()).doesNotContain("hunter2").contains("\"code\":\"server_error\"");
    }

    @Test
    void anUpstreamThatEndsEarlyOrIsCutOffSaysSo() {
        List<SseFrame> early = ResponsesStreamEncoder.encode(Flux.just(new ContentDelta(0, "a")), FIXED)
                .collectList().block(Duration.ofSeconds(5));
        assertThat(early).isNotNull();
        assertThat(early.get(early.size() - 1).data()).contains("response.failed", "\"code\":\"server_error\"")
                .doesNotContain("incomplete_stream");

        List<SseFrame> cut = ResponsesStreamEncoder.encode(Flux.just(new ContentDelta(0, "a"),
                new ResponseCompleted(FinishReason.LENGTH, "max_tokens")), FIXED).collectList().block(Duration.ofSeconds(5));
        assertThat(cut).isNotNull();
        assertThat(cut.get(cut.size() - 1).data()).contains("\"type\":\"response.incomplete\"",
                "\"incomplete_details\":{\"reason\":\"max_output_tokens\"}");
        StepVerifier.create(decode(cut).filter(ResponseCompleted.class::isInstance))
                .expectNextMatches(c -> ((ResponseCompleted) c).finishReason() == FinishReason.LENGTH)
                .verifyComplete();
    }

    @Test
    void eachSubscriptionEncodesAfresh() {
        Flux<SseFrame> encoded = ResponsesStreamEncoder.encode(Flux.just(new ContentDelta(0, "a"),
                new ResponseCompleted(FinishReason.STOP, null)), FIXED);
        assertThat(encoded.collectList().block(Duration.ofSeconds(5))).isEqualTo(encoded.collectList().block(Duration.ofSeconds(5)));
        assertThat(ResponsesStreamEncoder.encode(Flux.empty()).map(SseFrame::event).collectList().block(Duration.ofSeconds(5)))
                .containsExactly("response.created", "response.in_progress", "response.failed");
    }

    /** Decodes encoded frames with Ruminate's own Responses decoder, through their SSE text. */
    static Flux<ChatEvent> decode(List<SseFrame> frames) {
        String body = frames.stream().map(SseFrame::text).collect(Collectors.joining());
        return Flux.fromIterable(SseSplitter.split(body)).transform(ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI));
    }
}
