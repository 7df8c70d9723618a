package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
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
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.EventStreamFrames;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.StepVerifier;

/**
 * {@link BedrockProvider} over real HTTP against the test kit's emulator: the recorded binary stream
 * cut anywhere, scripted streams, signed requests, and the faults a ConverseStream can end with.
 */
@ExtendWith(NettyLeakCheck.class)
class BedrockProviderTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MODEL = BedrockFixturesTest.MODEL;
    private static final ChatRequest REQUEST = ChatRequest.builder(MODEL).user("Hi").build();
    private static final AwsCredentials CREDENTIALS = new AwsCredentials("AKIDEXAMPLE",
            ApiKey.of("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), ApiKey.of("session-token-7f3c9a1e"));
    private static final Instant NOW = Instant.parse("2026-11-22T12:36:00Z");
    private static final byte[] RECORDING = Recorded.bytes("bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream");

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    private static BedrockProvider provider() {
        return BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString()).credentials(CREDENTIALS)
                .clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
    }

    private static ChatResult reduce(BedrockProvider provider, ChatRequest request) {
        return ChatReducer.defaults().reduce(provider.stream(request)).block(WAIT);
    }

    private static void enqueueEventStream(byte[] body) {
        emulator.enqueue(EmulatorResponse.bytes("application/vnd.amazon.eventstream", body));
    }

    private static RuminateException failure(BedrockProvider provider) {
        try {
            ChatReducer.defaults().reduce(provider.stream(REQUEST)).block(WAIT);
        } catch (RuminateException e) {
            return e;
        }
        throw new AssertionError("the stream did not fail");
    }

    private static RecordedRequest lastRequest() {
        List<RecordedRequest> all = emulator.requests();
        return all.get(all.size() - 1);
    }

    static LongStream seeds() {
        return Seeds.of(30);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theRecordedStreamReducesTheSameHoweverTheNetworkCutsIt(long seed) {
        ChatResult whole = BedrockFixturesTest.reduce(BedrockFixturesTest.decodeStream(RECORDING));
        emulator.enqueue(EmulatorResponse.replay(RECORDING, "application/vnd.amazon.eventstream")
                .chunked(seed % 5 == 0 ? ChunkPlan.everyByte() : ChunkPlan.random(seed, 64)));

        assertThat(Provenances.checked(reduce(provider(), REQUEST))).isEqualTo(whole);
    }

    @Test
    void signsTheRequestAsBedrockChecksIt() {
        emulator.enqueue(BedrockScript.create().text("ok").toResponse());
        reduce(provider(), REQUEST);

        RecordedRequest sent = lastRequest();
        assertThat(sent.path()).isEqualTo("/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream");
        assertThat(sent.header("X-Amz-Date")).isEqualTo("20261122T123600Z");
        assertThat(sent.header("X-Amz-Security-Token")).isEqualTo("session-token-7f3c9a1e");
        assertThat(sent.header("Accept")).isEqualTo("application/vnd.amazon.eventstream");
        // Recompute the signature from what arrived: every signed header must have reached the server as signed.
        String authorization = sent.header("Authorization");
        assertThat(authorization).startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261122/us-east-1/bedrock/aws4_request, "
                + "SignedHeaders=accept;content-type;host;x-amz-date;x-amz-security-token, Signature=");
        List<Map.Entry<String, String>> signedHeaders = new ArrayList<>();
        for (String name : List.of("Host", "Content-Type", "Accept", "X-Amz-Date", "X-Amz-Security-Token")) {
            signedHeaders.add(Map.entry(name, sent.header(name)));
        }
        String expected = new SigV4Signer("us-east-1", "bedrock").sign("POST", sent.path(), null, signedHeaders,
                sent.body().getBytes(StandardCharsets.UTF_8), CREDENTIALS, NOW).authorization();
        assertThat(authorization).isEqualTo(expected);
        assertThat(sent.toString()).doesNotContain("session-token-7f3c9a1e");
    }

    @Test
    void readsRotatingCredentialsForEveryRequest() {
        AtomicInteger calls = new AtomicInteger();
        BedrockProvider rotating = BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString())
                .credentials(() -> AwsCredentials.of("AKID" + calls.incrementAndGet(), "secret"))
                .build();
        emulator.enqueue(BedrockScript.create().text("a").toResponse());
        emulator.enqueue(BedrockScript.create().text("b").toResponse());

        reduce(rotating, REQUEST);
        String first = lastRequest().header("Authorization");
        reduce(rotating, REQUEST);
        String second = lastRequest().header("Authorization");

        assertThat(first).contains("Credential=AKID1/");
        assertThat(second).contains("Credential=AKID2/");
    }

    @Test
    void aFailingCredentialsSourceFailsTypedWithoutARequest() {
        int before = emulator.requests().size();
        BedrockProvider broken = BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString())
                .credentials(() -> {
                    throw new IllegalStateException("no profile 'prod' in ~/.aws/credentials");
                })
                .build();

        StepVerifier.create(broken.stream(REQUEST))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(InvalidRequestException.class)
                        .hasMessageContaining("no AWS credentials to sign it"))
                .verify(WAIT);
        assertThat(emulator.requests()).hasSize(before);
    }

    @Test
    void scriptedReasoningWithSignatureAndAToolCallComeOutInOrder() {
        emulator.enqueue(BedrockScript.create()
                .reasoning("Need the weather.", "EqQBCkYIBxAB-sig")
                .toolUse("tooluse_1", "weather", "{\"city\":\"Paris\"}")
                .stopReason("tool_use")
                .usage(51, 94)
                .tokensOf(9)
                .toResponse());

        BedrockProvider provider = provider();
        StepVerifier.create(provider.stream(REQUEST))
                .expectNext(new ResponseStarted("bedrock", MODEL, null).withOrigin(provider.origin(), REQUEST.model()))
                .expectNext(new ReasoningDelta(0, "Need the ", false, "reasoningContent"))
                .expectNext(new ReasoningDelta(0, "weather.", false, "reasoningContent"))
                .expectNext(new Seal(0, Seal.Kind.SIGNATURE, "EqQBCkYIBxAB-sig"))
                .expectNext(new PartEnded(0))
                .expectNext(new ToolCallDelta(1, 0, "tooluse_1", "weather", ""))
                .expectNext(new ToolCallDelta(1, 0, null, null, "{\"city\":\""))
                .expectNext(new ToolCallDelta(1, 0, null, null, "Paris\"}"))
                .expectNext(new PartEnded(1))
                .assertNext(usage -> assertThat(usage.toString()).contains("inputTokens=51", "outputTokens=94"))
                .assertNext(done -> assertThat(done.toString()).contains("TOOL_CALLS", "tool_use"))
                .verifyComplete();
    }

    @Test
    void nonStreamingCallsConverseAndDecodesTheBody() {
        emulator.enqueue(EmulatorResponse.json(200, BedrockScript.create()
                .reasoning("Think.", "sig-1").text("Answer.").usage(3, 4).toConverseJson()));

        AssistantMessage m = ChatReducer.defaults().reduce(provider().completeAsEvents(REQUEST)).block(WAIT).message();

        assertThat(lastRequest().path()).endsWith("/converse");
        assertThat(m.text()).isEqualTo("Answer.");
        assertThat(((ReasoningPart) m.parts().get(0)).seals().signature()).isEqualTo("sig-1");
        assertThat(m.usage().outputTokens()).isEqualTo(4L);
    }

    @Test
    void aWholeBodyThatIsNotAConverseAnswerIsAShapeErrorNotAnEmptyAnswer() {
        // an AWS-style error object served with a 200: no output, no stopReason
        emulator.enqueue(EmulatorResponse.json(200, "{\"message\":\"The security token included in the request is invalid.\"}"));

        StepVerifier.create(provider().completeAsEvents(REQUEST))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    assertThat(e.getMessage()).contains("not a Converse response");
                })
                .verify(WAIT);
    }

    @Test
    void aCorruptedFrameEndsWithAChecksumErrorCarryingThePartialMessage() {
        byte[] good = BedrockScript.create().text("Hello there").tokensOf(5).withoutStop().toEventStream();
        byte[] bad = EventStreamFrames.corruptPayload(EventStreamFrames.event("contentBlockDelta",
                "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"!\"}}"));
        enqueueEventStream(concat(good, bad));

        RuminateException e = failure(provider());

        assertThat(e).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.CHECKSUM_MISMATCH);
        assertThat(e.partial()).isNotNull();
        assertThat(e.partial().text()).isEqualTo("Hello there");
    }

    @Test
    void aTruncatedFrameEndsAsMalformedWithThePartialMessage() {
        byte[] full = BedrockScript.create().reasoning("Thinking hard.", "sig").text("Done").toEventStream();
        int frames = 0;
        int cut = -1;
        for (int at = 0; at < full.length; ) {
            int length = java.nio.ByteBuffer.wrap(full, at, 4).getInt();
            if (++frames == 6) {
                cut = at + length / 2;
                break;
            }
            at += length;
        }
        enqueueEventStream(Arrays.copyOf(full, cut));

        RuminateException e = failure(provider());

        assertThat(e).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_FRAME);
        assertThat(e.partial()).isNotNull();
        assertThat(((ReasoningPart) e.partial().parts().get(0)).text()).isEqualTo("Thinking hard.");
    }

    /** A bad frame after some text: an unknown event type, and content after a payload's object. */
    static Stream<Arguments> badFrames() {
        return Stream.of(
                Arguments.of(EventStreamFrames.event("citationDelta", "{\"contentBlockIndex\":0}"),
                        ProtocolException.Reason.UNEXPECTED_SHAPE, "citationDelta"),
                Arguments.of(EventStreamFrames.event("contentBlockStop", "{\"contentBlockIndex\":0} {\"x\":1}"),
                        ProtocolException.Reason.MALFORMED_JSON, "after the JSON object"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badFrames")
    void aBadFrameIsATypedErrorWithThePartialMessage(byte[] frame, ProtocolException.Reason reason, String says) {
        byte[] start = BedrockScript.create().text("Partial").withoutStop().toEventStream();
        enqueueEventStream(concat(start, frame));

        RuminateException e = failure(provider());

        assertThat(e).isInstanceOf(ProtocolException.class).hasMessageContaining(says);
        assertThat(((ProtocolException) e).reason()).isEqualTo(reason);
        assertThat(e.partial().text()).isEqualTo("Partial");
    }

    @Test
    void malformedJsonIsPlacedByTheLineWithinItsPayloadNotTheStreamsLines() {
        // One parser reads every payload; the line of an error must not count the line breaks of the payloads before.
        byte[] start = BedrockScript.create().text("Partial").withoutStop().toEventStream();
        byte[] prettyStop = EventStreamFrames.event("contentBlockStop", "{\n  \"contentBlockIndex\": 0\n}\n");
        byte[] badStop = EventStreamFrames.event("messageStop", "{\n  \"stopReason\": \"end_turn\",\n  \"x\": tru\n}");
        enqueueEventStream(concat(concat(start, prettyStop), badStop));

        RuminateException e = failure(provider());

        assertThat(e).isInstanceOf(ProtocolException.class).hasMessageContaining("tru");
        ProtocolException protocol = (ProtocolException) e;
        assertThat(protocol.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(protocol.line()).isEqualTo(3);
        assertThat(protocol.byteOffset()).isEqualTo(start.length + prettyStop.length);
        assertThat(e.partial().text()).isEqualTo("Partial");
    }

    @Test
    void fieldsAHandlerSkipsLeaveTheStreamParserAtTheNextPayload() {
        // One parser reads the whole stream: the fields each handler skips (padding, unknown objects) must leave it
        // at the end of the payload, so that the next payload starts clean.
        byte[] frames = concat(
                EventStreamFrames.event("messageStart", "{\"role\":\"assistant\",\"p\":\"abc\"}"),
                EventStreamFrames.event("contentBlockDelta",
                        "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hel\"},\"p\":\"xyz\",\"extra\":{\"a\":[1,{\"b\":2}]}}"),
                EventStreamFrames.event("contentBlockDelta", "{\"delta\":{\"text\":\"lo\"},\"contentBlockIndex\":0}"),
                EventStreamFrames.event("contentBlockStop", "{\"contentBlockIndex\":0,\"p\":\"q\"}"),
                EventStreamFrames.event("messageStop",
                        "{\"stopReason\":\"end_turn\",\"additionalModelResponseFields\":{\"x\":[true,null]}}"),
                EventStreamFrames.event("metadata",
                        "{\"usage\":{\"inputTokens\":3,\"outputTokens\":2,\"totalTokens\":5},\"metrics\":{\"latencyMs\":9}}"));
        enqueueEventStream(frames);

        ChatResult result = reduce(provider(), REQUEST);

        assertThat(result.message().text()).isEqualTo("Hello");
        assertThat(result.message().usage().outputTokens()).isEqualTo(2L);
    }

    @Test
    void anExceptionFrameIsAProviderStreamErrorWithThePartialMessage() {
        emulator.enqueue(BedrockScript.create().text("So far")
                .exceptionAtEnd("modelStreamErrorException", "Model stream failed").toResponse());

        RuminateException e = failure(provider());

        assertThat(e).isInstanceOf(ProviderStreamException.class).hasMessageContaining("Model stream failed");
        assertThat(((ProviderStreamException) e).error().type()).isEqualTo("modelStreamErrorException");
        assertThat(e.partial().text()).isEqualTo("So far");
    }

    @Test
    void aStreamWithoutMessageStopIsIncomplete() {
        emulator.enqueue(BedrockScript.create().text("Cut here").withoutStop().toResponse());

        RuminateException e = failure(provider());

        assertThat(e).isInstanceOf(IncompleteStreamException.class).hasMessageContaining("messageStop");
        assertThat(e.partial().text()).isEqualTo("Cut here");
    }

    @Test
    void httpErrorsCarryBedrocksMessageAndRequestId() {
        emulator.enqueue(EmulatorResponse.httpError(400,
                        "{\"message\":\"The model returned the following errors: thinking.budget_tokens: Input should be >= 1024\"}")
                .header("x-amzn-RequestId", "8f1c2d3e-req"));
        emulator.enqueue(EmulatorResponse.rateLimited(7, "{\"message\":\"Too many requests, please wait before trying again.\"}"));

        RuminateException bad = failure(provider());
        RuminateException throttled = failure(provider());

        assertThat(bad).isInstanceOf(ProviderHttpException.class).hasMessageContaining("budget_tokens");
        assertThat(((ProviderHttpException) bad).requestId()).isEqualTo("8f1c2d3e-req");
        assertThat(throttled).isInstanceOf(RateLimitException.class);
        assertThat(((RateLimitException) throttled).retryAfter()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void modelIdsAreOnePathSegment() {
        BedrockProvider p = provider();
        assertThat(p.endpoint(ChatRequest.builder("arn:aws:bedrock:us-east-1:123:inference-profile/us.x").user("x").build(), false))
                .isEqualTo(URI.create(emulator.baseUrl() + "/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123%3Ainference-profile%2Fus.x/converse"));
        assertThat(p.toString()).doesNotContain("EXAMPLEKEY");
    }

    @Test
    void eventsOfTheRecordingArriveInWireOrder() {
        emulator.enqueue(EmulatorResponse.replay(RECORDING, "application/vnd.amazon.eventstream"));
        List<ChatEvent> events = provider().stream(REQUEST).collectList().block(WAIT);

        assertThat(events.get(0)).isInstanceOf(ResponseStarted.class);
        assertThat(events.get(1)).isInstanceOf(Seal.class);
        assertThat(events.get(2)).isEqualTo(new PartEnded(0));
        assertThat(events.get(3)).isInstanceOf(Seal.class);
        assertThat(events.get(4)).isEqualTo(new PartEnded(1));
        assertThat(events.get(5)).isEqualTo(new ContentDelta(2, "I notice you've sent what appears to be some"));
        assertThat(((dev.ruminate.core.event.ResponseCompleted) events.get(events.size() - 1)).finishReason())
                .isEqualTo(FinishReason.STOP);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
