package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.StepVerifier;

/**
 * {@link GeminiProvider} over real HTTP against the test kit's emulator: every recording replayed
 * byte for byte (and cut at random), AI Studio's key header, Vertex AI's refreshed bearer token and
 * regional URL, and the faults a Gemini stream can end with.
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiProviderTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String KEY = "AIzaSy-emulated-7f3c9a1e5b2d4086";
    private static final ChatRequest REQUEST = ChatRequest.builder("gemini-3-pro-preview").user("Hi").build();
    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    private static GeminiProvider studio() {
        return GeminiProvider.builder().baseUrl(emulator.baseUrl() + "/v1beta").apiKey(ApiKey.of(KEY)).build();
    }

    private static RecordedRequest last() {
        List<RecordedRequest> all = emulator.requests();
        return all.get(all.size() - 1);
    }

    private static RuminateException failure(GeminiProvider provider) {
        try {
            ChatReducer.defaults().reduce(provider.stream(REQUEST)).block(WAIT);
        } catch (RuminateException e) {
            return e;
        }
        throw new AssertionError("the stream did not fail");
    }

    static Stream<String> streams() {
        return Recorded.under("gemini", ".sse").stream();
    }

    static LongStream seeds() {
        return Seeds.of(33);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void everyRecordedStreamReducesOverHttpAsTheCodecDecodesIt(String path) {
        ChatResult codec = GeminiFixturesTest.reduce(GeminiFixturesTest.stream(path, "gemini"));
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(path), "text/event-stream"));

        assertThat(Provenances.checked(ChatReducer.defaults().reduce(studio().stream(REQUEST)).block(WAIT))).isEqualTo(codec);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void recordingsReduceTheSameCutAtRandom(long seed) {
        List<String> all = streams().toList();
        String path = all.get(Math.floorMod(seed, all.size()));
        ChatResult whole = GeminiFixturesTest.reduce(GeminiFixturesTest.stream(path, "gemini"));
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(path), "text/event-stream")
                .chunked(seed % 4 == 0 ? ChunkPlan.everyByte() : ChunkPlan.random(seed, 48)));

        assertThat(Provenances.checked(ChatReducer.defaults().reduce(studio().stream(REQUEST)).block(WAIT))).as(path).isEqualTo(whole);
    }

    @Test
    void aiStudioSendsTheKeyInItsHeaderNeverInTheUrl() {
        emulator.enqueue(GeminiScript.create().text("ok").toResponse());
        ChatReducer.defaults().reduce(studio().stream(REQUEST)).block(WAIT);

        RecordedRequest sent = last();
        assertThat(sent.path()).isEqualTo("/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
        assertThat(sent.header("x-goog-api-key")).isEqualTo(KEY);
        assertThat(sent.header("Authorization")).isNull();
        assertThat(sent.toString()).doesNotContain(KEY);
    }

    @Test
    void vertexUsesARefreshedTokenForEveryRequest() {
        AtomicInteger refreshes = new AtomicInteger();
        GeminiProvider vertex = GeminiProvider.vertex("my-project", "us-central1")
                .baseUrl(emulator.baseUrl() + "/v1/projects/my-project/locations/us-central1/publishers/google")
                .accessToken(() -> ApiKey.of("ya29.token-" + refreshes.incrementAndGet()))
                .build();
        emulator.enqueue(GeminiScript.create().text("a").toResponse());
        emulator.enqueue(GeminiScript.create().text("b").toJsonResponse());

        ChatReducer.defaults().reduce(vertex.stream(REQUEST)).block(WAIT);
        RecordedRequest first = last();
        ChatReducer.defaults().reduce(vertex.completeAsEvents(REQUEST)).block(WAIT);
        RecordedRequest second = last();

        assertThat(first.path()).isEqualTo(
                "/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
        assertThat(first.header("Authorization")).isEqualTo("Bearer ya29.token-1");
        assertThat(second.path()).endsWith("/models/gemini-3-pro-preview:generateContent");
        assertThat(second.header("Authorization")).isEqualTo("Bearer ya29.token-2");
        assertThat(first.header("x-goog-api-key")).isNull();
        assertThat(vertex.name()).isEqualTo("vertex");
        assertThat(vertex.toString()).doesNotContain("ya29");
    }

    @Test
    void vertexBuildsTheRegionalAndGlobalUrls() {
        GeminiProvider regional = GeminiProvider.vertex("p1", "europe-west4").accessToken(ApiKey.of("t")).build();
        GeminiProvider global = GeminiProvider.vertex("p1", "global").accessToken(ApiKey.of("t")).build();
        assertThat(regional.endpoint(ChatRequest.builder("gemini-2.5-pro").user("x").build(), false).toString()).isEqualTo(
                "https://europe-west4-aiplatform.googleapis.com/v1/projects/p1/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent");
        assertThat(global.endpoint(ChatRequest.builder("models/gemini-3-pro-preview").user("x").build(), true).toString()).isEqualTo(
                "https://aiplatform.googleapis.com/v1/projects/p1/locations/global/publishers/google/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
        assertThatThrownBy(() -> GeminiProvider.vertex("p1", "us-central1").build()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> GeminiProvider.vertex("p/../x", "us-central1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFailingTokenSourceFailsTypedWithoutARequest() {
        int before = emulator.requests().size();
        GeminiProvider vertex = GeminiProvider.vertex("p", "us-central1").baseUrl(emulator.baseUrl().toString())
                .accessToken(() -> {
                    throw new IllegalStateException("metadata server unreachable");
                })
                .build();
        StepVerifier.create(vertex.stream(REQUEST))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(InvalidRequestException.class)
                        .hasMessageContaining("no access token"))
                .verify(WAIT);
        assertThat(emulator.requests()).hasSize(before);
    }

    @Test
    void scriptedThoughtSignedTextAndCallComeOutInOrder() {
        emulator.enqueue(GeminiScript.create().model("gemini-3-pro-preview").tokensOf(50)
                .thought("Plan.").text("Calling.", "sig-1").functionCall("f", "{\"a\":1}", "sig-2").toResponse());
        GeminiProvider studio = studio();
        StepVerifier.create(studio.stream(REQUEST))
                .expectNext(new ResponseStarted("gemini", "gemini-3-pro-preview", "emulator-response").withOrigin(studio.origin(),
                        REQUEST.model()))
                .expectNext(new ReasoningDelta(0, "Plan.", true, "thought"))
                .expectNext(new PartEnded(0))
                .expectNext(new ContentDelta(1, "Calling."))
                .expectNext(new Seal(1, Seal.Kind.SIGNATURE, "sig-1"))
                .expectNext(new PartEnded(1))
                .expectNext(new ToolCallDelta(2, 0, null, "f", "{\"a\":1}"))
                .expectNext(new Seal(2, Seal.Kind.SIGNATURE, "sig-2"))
                .expectNext(new PartEnded(2))
                .expectNextCount(2)
                .verifyComplete();
    }

    @Test
    void aSafetyBlockedPromptCompletesAsContentFilter() {
        emulator.enqueue(GeminiScript.create().blocked("PROHIBITED_CONTENT").toResponse());
        AssistantMessage m = ChatReducer.defaults().reduce(studio().stream(REQUEST)).block(WAIT).message();
        assertThat(m.finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(m.rawFinishReason()).isEqualTo("PROHIBITED_CONTENT");
        assertThat(m.parts()).isEmpty();
    }

    @Test
    void aStreamWithoutAFinishReasonIsIncompleteWithThePartialMessage() {
        emulator.enqueue(GeminiScript.create().text("half an ans").finishReason(null).toResponse());
        RuminateException e = failure(studio());
        assertThat(e).isInstanceOf(IncompleteStreamException.class).hasMessageContaining("finishReason");
        assertThat(e.partial().text()).isEqualTo("half an ans");
    }

    @Test
    void anErrorObjectInTheStreamIsAProviderErrorWithThePartialMessage() {
        emulator.enqueue(GeminiScript.create().text("so far").finishReason(null)
                .errorAtEnd(503, "UNAVAILABLE", "The model is overloaded.").toResponse());
        RuminateException e = failure(studio());
        assertThat(e).isInstanceOf(ProviderStreamException.class).hasMessageContaining("The model is overloaded.");
        assertThat(e.partial().text()).isEqualTo("so far");
    }

    @Test
    void malformedJsonNamesTheEventsPosition() {
        emulator.enqueue(EmulatorResponse.sse("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}\n\n"
                + "data: {\"candidates\": [oops\n\n"));
        RuminateException e = failure(studio());
        assertThat(e).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(((ProtocolException) e).line()).isEqualTo(3);
        assertThat(e.partial().text()).isEqualTo("a");
    }

    @Test
    void httpErrorsCarryGooglesStatusAndMessage() {
        emulator.enqueue(EmulatorResponse.httpError(400, "{\"error\":{\"code\":400,\"message\":\"Function call is missing a "
                + "thought_signature in functionCall parts.\",\"status\":\"INVALID_ARGUMENT\"}}"));
        emulator.enqueue(EmulatorResponse.rateLimited(12, "{\"error\":{\"code\":429,\"message\":\"Quota exceeded\","
                + "\"status\":\"RESOURCE_EXHAUSTED\"}}"));
        emulator.enqueue(EmulatorResponse.httpError(403, "{\"error\":{\"code\":403,\"message\":\"Method doesn't allow "
                + "unregistered callers. API key " + KEY + " invalid\",\"status\":\"PERMISSION_DENIED\"}}"));

        RuminateException bad = failure(studio());
        RuminateException quota = failure(studio());
        RuminateException denied = failure(studio());

        assertThat(bad).isInstanceOf(ProviderHttpException.class).hasMessageContaining("missing a thought_signature");
        assertThat(((ProviderHttpException) bad).error().toString()).contains("INVALID_ARGUMENT");
        assertThat(quota).isInstanceOf(RateLimitException.class);
        assertThat(((RateLimitException) quota).retryAfter()).isEqualTo(Duration.ofSeconds(12));
        assertThat(denied).isInstanceOf(AuthenticationException.class);
        assertThat(denied.getMessage()).doesNotContain(KEY);
    }

    @Test
    void nonStreamingBodiesDecodeOverHttp() {
        String path = "gemini/pydantic-gemini-thought-summaries-multiturn.turn1.json";
        emulator.enqueue(EmulatorResponse.json(200, Recorded.text(path)));
        ChatResult result = ChatReducer.defaults().reduce(studio().completeAsEvents(REQUEST)).block(WAIT);
        assertThat(last().path()).endsWith(":generateContent");
        assertThat(Provenances.checked(result)).isEqualTo(GeminiFixturesTest.reduce(
                GeminiCodec.decodeResponse("gemini", Recorded.bytes(path)).collectList().block()));
    }
}
