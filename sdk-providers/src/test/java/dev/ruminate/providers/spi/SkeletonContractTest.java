package dev.ruminate.providers.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.EventStreamFrames;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.StepVerifier;

/**
 * What the provider skeleton guarantees to every family alike, checked over real HTTP for all six:
 * malformed JSON, streamed or whole, reports its line and byte offset; the base URL is normalised
 * one way; {@code toString} shows the class, the name and the API root, never the key.
 */
@ExtendWith(NettyLeakCheck.class)
class SkeletonContractTest {

    private static final String KEY = "sk-contract-test-key-0123456789";
    /** Whole bodies: the second line holds the bad token. */
    private static final String MALFORMED_BODY = "{\"id\": \"x\",\n  \"model\": tru}";
    private static final long MALFORMED_BODY_LINE = 2;
    /** An SSE body whose first event (after a comment) is malformed: it starts at line 3, byte 14. */
    private static final String MALFORMED_SSE = ": keep-alive\n\ndata: {\"id\": tru}\n\n";

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** A family: how to build its client at a base URL, and a malformed stream in its framing. */
    record Family(String name, Function<String, ChatProvider> client, EmulatorResponse malformedStream,
                  long streamLine, long streamOffset) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Family> families() {
        EmulatorResponse sse = EmulatorResponse.sse(MALFORMED_SSE);
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        byte[] first = EventStreamFrames.event("messageStart", "{\"role\":\"assistant\"}");
        frames.writeBytes(first);
        frames.writeBytes(EventStreamFrames.event("contentBlockDelta", "{\"contentBlockIndex\": 0,\n \"delta\": tru}"));
        return Stream.of(
                new Family("chat-completions", url -> ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                        .baseUrl(url).apiKey(ApiKey.of(KEY)).build(), sse, 3, 14),
                new Family("responses", url -> ResponsesProvider.builder(ResponsesProfiles.OPENAI)
                        .baseUrl(url).apiKey(ApiKey.of(KEY)).build(), sse, 3, 14),
                new Family("anthropic", url -> AnthropicProvider.builder().baseUrl(url).apiKey(ApiKey.of(KEY)).build(),
                        sse, 3, 14),
                new Family("gemini", url -> GeminiProvider.builder().baseUrl(url).apiKey(ApiKey.of(KEY)).build(), sse, 3, 14),
                new Family("ollama", url -> OllamaProvider.builder().baseUrl(url).apiKey(ApiKey.of(KEY)).build(),
                        EmulatorResponse.bytes("application/x-ndjson",
                                "\n{\"model\": tru}\n".getBytes(StandardCharsets.UTF_8)), 2, 1),
                // a binary frame has no line in the body: the line is the one within its JSON payload
                new Family("bedrock", url -> BedrockProvider.builder("us-east-1").baseUrl(url)
                        .credentials(AwsCredentials.of("AKIDCONTRACT", KEY)).build(),
                        EmulatorResponse.bytes("application/vnd.amazon.eventstream", frames.toByteArray()), 2, first.length));
    }

    static Stream<Arguments> familiesAndCalls() {
        return families().flatMap(f -> Stream.of(Arguments.of(f, true), Arguments.of(f, false)));
    }

    private static ChatRequest request() {
        return ChatRequest.builder("m1").user("hi").build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void aMalformedStreamedPayloadReportsItsLineAndByteOffset(Family family) {
        emulator.enqueue(family.malformedStream());
        StepVerifier.create(family.client().apply(emulator.baseUrl().toString()).stream(request()).then())
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    ProtocolException p = (ProtocolException) e;
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
                    assertThat(p.line()).isEqualTo(family.streamLine());
                    assertThat(p.byteOffset()).isEqualTo(family.streamOffset());
                    assertThat(p.getMessage()).contains("line " + family.streamLine()).doesNotContain(KEY);
                })
                .verify(Duration.ofSeconds(10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void aMalformedWholeBodyReportsItsLineAndByteOffset(Family family) {
        emulator.enqueue(EmulatorResponse.json(200, MALFORMED_BODY));
        StepVerifier.create(family.client().apply(emulator.baseUrl().toString()).completeAsEvents(request()).then())
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    ProtocolException p = (ProtocolException) e;
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
                    assertThat(p.line()).isEqualTo(MALFORMED_BODY_LINE);
                    // somewhere on the second line, which starts after the first line's 12 bytes
                    assertThat(p.byteOffset()).isBetween(12L, (long) MALFORMED_BODY.length());
                    assertThat(p.getMessage()).contains("body: ").doesNotContain(KEY);
                })
                .verify(Duration.ofSeconds(10));
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("familiesAndCalls")
    void theBaseUrlIsNormalisedOneWayAndItsQueryGoesOnEveryCall(Family family, boolean stream) {
        String base = emulator.baseUrl() + "/root///?tenant=t1";
        HttpChatProvider client = (HttpChatProvider) family.client().apply(base);
        String endpoint = client.endpoint(request(), stream).toString();
        assertThat(endpoint).startsWith(emulator.baseUrl() + "/root/").doesNotContain("//root").doesNotContain("root//")
                .endsWith("tenant=t1");
        assertThat(endpoint.indexOf('?')).isEqualTo(endpoint.lastIndexOf('?'));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void toStringShowsTheClassTheNameAndTheRootButNoKeyOrQuery(Family family) {
        ChatProvider client = family.client().apply(emulator.baseUrl() + "/v1/?key=" + KEY);
        assertThat(client.toString())
                .isEqualTo(client.getClass().getSimpleName() + "[" + client.name() + " at " + emulator.baseUrl() + "/v1]")
                .doesNotContain(KEY);
    }
}
