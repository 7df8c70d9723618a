package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link ResponsesProvider} over real HTTP against a {@link ProviderEmulator}: every recording served
 * byte for byte reduces to what the codec gives without HTTP; requests go to the profile's path with
 * its auth header; HTTP errors, rate limits, resets and in-stream failures are typed.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesProviderTest {

    static final String KEY = "sk-emulated-a41d77c0e9f3";
    static final ChatRequest REQUEST = ChatRequest.builder("o4-mini").user("How many r's in strawberry?")
            .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW)).build();
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String JSON = "application/json";

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static List<String> streams() {
        return Responses.STREAMS;
    }

    static List<String> bodies() {
        return Responses.BODIES;
    }

    static ResponsesProvider provider(ResponsesProfile profile) {
        return ResponsesProvider.builder(profile).baseUrl(emulator.baseUrl() + "/v1").apiKey(ApiKey.of(KEY)).build();
    }

    /** Reduces the events; a failure becomes the outcome's error. */
    static Reduced reduce(Flux<ChatEvent> events) {
        Reduced r = ChatReducer.defaults().reduce(events).map(result -> new Reduced(result, null))
                .onErrorResume(RuminateException.class, e -> Mono.just(new Reduced(null, e)))
                .block(Duration.ofSeconds(30));
        return Objects.requireNonNull(r);
    }

    static Reduced codecStream(String path) {
        return reduce(Flux.fromIterable(SseSplitter.split(Recorded.text(path)))
                .transform(ResponsesCodec.streamDecoder(Responses.profileOf(path))));
    }

    private static Reduced streamOverHttp(ResponsesProfile profile, EmulatorResponse response) {
        emulator.enqueue(response);
        return reduce(provider(profile).stream(REQUEST));
    }

    private static Reduced completeOverHttp(ResponsesProfile profile, EmulatorResponse response) {
        emulator.enqueue(response);
        return reduce(provider(profile).completeAsEvents(REQUEST));
    }

    private static RecordedRequest lastRequest() {
        List<RecordedRequest> all = emulator.requests();
        return all.get(all.size() - 1);
    }

    @Test
    void everyRecordingIsThere() {
        assertThat(streams()).hasSize(14);
        assertThat(bodies()).hasSize(13);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void recordedStreamReducesOverHttpAsTheCodecDecodesIt(String path) {
        Reduced http = streamOverHttp(Responses.profileOf(path), EmulatorResponse.replay(Recorded.bytes(path), EVENT_STREAM));

        assertThat(http.comparable()).isEqualTo(codecStream(path).comparable());
        assertThat(http.ok().message().finishReason()).isIn(FinishReason.STOP, FinishReason.TOOL_CALLS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void recordedBodyReducesOverHttpAsTheCodecDecodesIt(String path) {
        ResponsesProfile profile = Responses.profileOf(path);
        Reduced http = completeOverHttp(profile, EmulatorResponse.replay(Recorded.bytes(path), JSON));

        assertThat(http.comparable()).isEqualTo(reduce(ResponsesCodec.decodeResponse(profile, Recorded.bytes(path))).comparable());
    }

    @Test
    void o3MiniStreamArrivesWithItsSummariesSealsAndVerdict() {
        String path = "openai-responses/pydantic-o3-mini-reasoning-summary-stream.sse";
        ChatResult result = streamOverHttp(ResponsesProfiles.OPENAI, EmulatorResponse.replay(Recorded.bytes(path), EVENT_STREAM)
                .chunked(ChunkPlan.random(7L, 64))).ok();

        AssistantMessage m = result.message();
        assertThat(m.provider()).isEqualTo("openai-responses");
        assertThat(m.model()).isEqualTo("o3-mini-2025-01-31");
        assertThat(m.parts()).hasSize(5);
        ReasoningPart first = (ReasoningPart) m.parts().get(0);
        assertThat(first.summary()).isTrue();
        assertThat(first.source()).isEqualTo("summary_text");
        assertThat(first.seals().itemId()).isEqualTo("rs_68c42d1d0878819d8266007cd3d1402c08fbf9b1584184ff");
        assertThat(first.seals().encrypted()).startsWith("gAAAAABoxC0m_QWp").hasSize(440);
        assertThat(((ReasoningPart) m.parts().get(3)).seals().encrypted()).isNull();
        assertThat(m.text()).startsWith("I'm not a road safety professional");
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
        assertThat(result.reasoningCheck().checkedParts()).isEqualTo(4);

        RecordedRequest request = lastRequest();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/v1/responses");
        assertThat(request.header("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(request.body()).contains("\"stream\":true", "\"store\":false",
                "\"include\":[\"reasoning.encrypted_content\"]", "\"reasoning\":{\"effort\":\"low\",\"summary\":\"auto\"}");
    }

    @Test
    void mcpStreamKeepsServerToolPartsAtTheFarEndOfTheWire() {
        String path = "openai-responses/pydantic-reasoning-mcp-server-stream.sse";
        AssistantMessage m = streamOverHttp(ResponsesProfiles.OPENAI, EmulatorResponse.replay(Recorded.bytes(path), EVENT_STREAM))
                .ok().message();

        assertThat(m.parts()).hasSize(5);
        assertThat(m.parts().get(0)).isInstanceOfSatisfying(ServerToolPart.class,
                p -> assertThat(p.type()).isEqualTo("mcp_list_tools"));
        assertThat(m.parts().get(2)).isInstanceOfSatisfying(ServerToolPart.class, p -> {
            assertThat(p.type()).isEqualTo("mcp_call");
            assertThat(p.name()).isEqualTo("ask_question");
        });
        assertThat(((ReasoningPart) m.parts().get(1)).text()).isEmpty();
        assertThat(((ReasoningPart) m.parts().get(1)).seals().encrypted()).hasSize(1828);
    }

    @Test
    void azureSendsTheKeyInTheApiKeyHeaderAndKeepsTheApiVersionQuery() {
        String path = "openai-responses/vercel-azure-reasoning-summary-encrypted-tool-call.json";
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(path), JSON));
        ResponsesProvider azure = ResponsesProvider.builder(ResponsesProfiles.AZURE)
                .baseUrl(emulator.baseUrl() + "/openai/v1?api-version=preview").apiKey(ApiKey.of(KEY)).build();

        AssistantMessage m = reduce(azure.completeAsEvents(REQUEST)).ok().message();

        assertThat(m.provider()).isEqualTo("azure-responses");
        RecordedRequest request = lastRequest();
        assertThat(request.path()).isEqualTo("/openai/v1/responses?api-version=preview");
        assertThat(request.header("api-key")).isEqualTo(KEY);
        assertThat(request.header("Authorization")).isNull();
        assertThat(request.body()).doesNotContain("\"stream\"");
        assertThat(azure.toString()).doesNotContain(KEY);
    }

    @Test
    void unauthorizedIsTypedAndNeverShowsTheKey() {
        String body = "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + ".\",\"type\":\"invalid_request_error\","
                + "\"param\":null,\"code\":\"invalid_api_key\"}}";

        RuminateException error = streamOverHttp(ResponsesProfiles.OPENAI, EmulatorResponse.httpError(401, body)).failed();

        assertThat(error).isInstanceOf(AuthenticationException.class);
        assertThat(((AuthenticationException) error).error()).isEqualTo(new ProviderError("invalid_request_error",
                "invalid_api_key", "Incorrect API key provided: [REDACTED].", null));
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain(KEY);
    }

    @Test
    void badRequestCarriesTheResponsesErrorBody() {
        String body = "{\"error\":{\"message\":\"Item 'rs_1' of type 'reasoning' was provided without its required "
                + "following item.\",\"type\":\"invalid_request_error\",\"param\":\"input\",\"code\":null}}";

        RuminateException error = completeOverHttp(ResponsesProfiles.OPENAI, EmulatorResponse.httpError(400, body)).failed();

        assertThat(error).isInstanceOf(ProviderHttpException.class);
        ProviderHttpException http = (ProviderHttpException) error;
        assertThat(http.status()).isEqualTo(400);
        assertThat(http.error().type()).isEqualTo("invalid_request_error");
        assertThat(http.error().param()).isEqualTo("input");
        assertThat(http.error().message()).contains("without its required following item");
    }

    @Test
    void rateLimitCarriesRetryAfter() {
        RuminateException error = streamOverHttp(ResponsesProfiles.XAI, EmulatorResponse.rateLimited(12,
                "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}"))
                .failed();

        assertThat(error).isInstanceOf(RateLimitException.class);
        assertThat(((RateLimitException) error).retryAfter()).isEqualTo(Duration.ofSeconds(12));
        assertThat(((RateLimitException) error).error().code()).isEqualTo("rate_limit_exceeded");
        assertThat(error.isRetryable()).isTrue();
    }

    @Test
    void truncatedRecordingIsIncompleteWithThePartialReasoning() {
        String path = "xai/vercel-xai-responses-reasoning-store-false-stream.sse";
        String text = Recorded.text(path);
        // stop right after the first output_text.delta event
        int cut = text.indexOf("\n\n", text.indexOf("event: response.output_text.delta")) + 2;
        byte[] head = text.substring(0, cut).getBytes(java.nio.charset.StandardCharsets.UTF_8);

        RuminateException error = streamOverHttp(ResponsesProfiles.XAI, EmulatorResponse.replay(head, EVENT_STREAM)).failed();

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        AssistantMessage partial = error.partial();
        assertThat(partial).isNotNull();
        ReasoningPart reasoning = (ReasoningPart) partial.parts().get(0);
        assertThat(reasoning.text()).startsWith("First, the question is:").endsWith("ing sections for clarity.");
        assertThat(reasoning.seals().encrypted()).hasSize(1731);
        assertThat(partial.text()).isEqualTo("###");
    }

    @Test
    void resetMidStreamIsIncomplete() {
        String path = "deepseek/pydantic-deepseek-responses-api-function-tool-stream.turn1.sse";
        byte[] bytes = Recorded.bytes(path);

        RuminateException error = streamOverHttp(ResponsesProfiles.DEEPSEEK,
                EmulatorResponse.replay(bytes, EVENT_STREAM).chunked(ChunkPlan.fixed(256)).resetAfter(bytes.length / 2)).failed();

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial()).isNotNull();
        assertThat(error.partial().reasoning()).startsWith("The user asks about temperature in Tokyo.");
    }

    @Test
    void failedResponseInTheStreamIsAProviderStreamException() {
        String sse = ResponsesStreamDecoderTest.ev("response.created", "\"response\":{\"id\":\"r\",\"model\":\"m\"}")
                + ResponsesStreamDecoderTest.ev("response.failed", "\"response\":{\"status\":\"failed\",\"error\":"
                + "{\"code\":\"server_error\",\"message\":\"Something went wrong\"}}");

        RuminateException error = streamOverHttp(ResponsesProfiles.OPENAI, EmulatorResponse.sse(sse)).failed();

        assertThat(error).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) error).error().code()).isEqualTo("server_error");
    }

    @Test
    void failedWholeResponseIsAProviderStreamException() {
        RuminateException error = completeOverHttp(ResponsesProfiles.OPENAI, EmulatorResponse.json(200,
                "{\"id\":\"r\",\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":\"Boom\"},\"output\":[]}"))
                .failed();

        assertThat(error).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) error).error().message()).isEqualTo("Boom");
    }

    @Test
    void aRequestThatCannotBeEncodedFailsTheFlux() {
        ChatRequest bad = REQUEST.toBuilder().tool(new dev.ruminate.core.request.ToolDefinition("f", "", "{not json")).build();

        Reduced r = reduce(provider(ResponsesProfiles.OPENAI).stream(bad));

        assertThat(r.failed()).isInstanceOf(InvalidRequestException.class);
    }

    /** The outcome of a reduction: a result or an error. */
    record Reduced(@Nullable ChatResult result, @Nullable RuminateException error) {

        ChatResult ok() {
            if (error != null) {
                throw new AssertionError("the reduction failed: " + error, error);
            }
            return Objects.requireNonNull(result);
        }

        RuminateException failed() {
            if (error == null) {
                throw new AssertionError("the reduction succeeded: " + result);
            }
            return error;
        }

        /** Provenance, present only over HTTP, is checked and then left out (see {@link Provenances}). */
        List<Object> comparable() {
            if (error == null) {
                return List.of(Provenances.checked(Objects.requireNonNull(result)));
            }
            return Arrays.asList(error.getClass(), error.getMessage(), Provenances.checkedPartial(error.partial()));
        }
    }
}
