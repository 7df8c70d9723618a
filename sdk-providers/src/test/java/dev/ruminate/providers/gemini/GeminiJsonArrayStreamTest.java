package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.gemini.GeminiEmulated.Reduced;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code streamGenerateContent} without {@code alt=sse} streams one pretty-printed JSON array whose
 * elements are the chunks ({@code application/json}). The provider reads it over real HTTP, told by
 * its content, however the network cuts it, to the message the same chunks give as Server-Sent
 * Events; a body cut short or with garbage between elements fails typed, with the partial message.
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiJsonArrayStreamTest {

    private static final String PATH = "gemini/llmg-gemini3-flash-signed-call-json-array-stream.turn1.json";
    private static final byte[] BODY = Recorded.bytes(PATH);
    private static final String JSON = "application/json";
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static LongStream seeds() {
        return Seeds.of(40);
    }

    private static Reduced stream(EmulatorResponse response) {
        emulator.enqueue(response);
        return GeminiEmulated.reduce(GeminiEmulated.provider(emulator, false).stream(GeminiEmulated.REQUEST));
    }

    /**
     * The same chunks as an {@code alt=sse} stream, byte for byte: each element's lines as the
     * {@code data:} lines of one event (SSE joins them with {@code \n} again). Google separates the
     * elements with {@code \n,\r\n}.
     */
    private static byte[] asSse(byte[] array) {
        String text = new String(array, StandardCharsets.UTF_8).strip();
        StringBuilder sse = new StringBuilder();
        for (String element : text.substring(1, text.length() - 1).split("\n,\r\n")) {
            element.strip().lines().forEach(line -> sse.append("data: ").append(line).append('\n'));
            sse.append('\n');
        }
        assertThat(MAPPER.readTree(array)).hasSize(2);
        return sse.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theRecordedArrayReducesToTheSignedCallAsItsSseTwinDoes() {
        ChatResult array = stream(EmulatorResponse.replay(BODY, JSON)).ok();
        ChatResult sse = stream(EmulatorResponse.replay(asSse(BODY), "text/event-stream")).ok();

        assertThat(emulator.requests().get(emulator.requests().size() - 1).path()).endsWith(":streamGenerateContent?alt=sse");
        assertThat(array).isEqualTo(sse);
        AssistantMessage message = array.message();
        assertThat(message.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("multiply");
            assertThat(MAPPER.readTree(call.arguments())).isEqualTo(MAPPER.readTree("{\"y\":3,\"x\":5}"));
            assertThat(call.seals().signature()).startsWith("Et0BCtoBAXLI2nwM").hasSize(300);
        });
        // the closing chunk's {"text": ""} carries nothing: it is no part of the message
        assertThat(message.parts()).singleElement().isInstanceOf(ToolCallPart.class);
        assertThat(message.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(message.model()).isEqualTo("gemini-3-flash-preview");
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theRecordingCutAnywhereReducesAsTheUnsplitBody(long seed) {
        Random random = Seeds.random(seed);
        ChunkPlan plan = random.nextInt(5) == 0 ? ChunkPlan.everyByte() : ChunkPlan.random(random.nextLong(), 1 + random.nextInt(64));
        ChatResult whole = stream(EmulatorResponse.replay(BODY, JSON)).ok();

        assertThat(stream(EmulatorResponse.replay(BODY, JSON).chunked(plan)).ok()).as("cut by %s", plan).isEqualTo(whole);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aBodyCutShortFailsIncompleteWithWhatArrived(long seed) {
        Random random = Seeds.random(seed);
        int end = firstElementEnd();
        // anywhere from the first byte to just before the closing ']'
        int length = 1 + random.nextInt(BODY.length - 2);
        byte[] cut = java.util.Arrays.copyOf(BODY, length);

        Reduced reduced = stream(EmulatorResponse.bytes(JSON, cut).chunked(ChunkPlan.random(random.nextLong(), 1 + random.nextInt(32))));

        assertThat(reduced.failed()).as("cut at %d", length).isInstanceOf(IncompleteStreamException.class);
        if (length > end) {
            assertThat(reduced.partial()).as("the first chunk arrived whole").isNotNull();
            assertThat(reduced.partial().toolCalls()).singleElement()
                    .satisfies(call -> assertThat(call.name()).isEqualTo("multiply"));
        }
    }

    @Test
    void garbageBetweenElementsFailsMalformedWithThePartialMessage() {
        String text = new String(BODY, StandardCharsets.UTF_8);
        int comma = text.indexOf("\n,\r\n");
        byte[] garbled = (text.substring(0, comma) + "\ndata: {}\n" + text.substring(comma)).getBytes(StandardCharsets.UTF_8);

        Reduced reduced = stream(EmulatorResponse.bytes(JSON, garbled));

        assertThat(reduced.failed()).isInstanceOfSatisfying(ProtocolException.class, p -> {
            assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
            assertThat(p.getMessage()).contains("after element 0", "data: {}");
            assertThat(p.byteOffset()).isEqualTo(comma + 1);
        });
        assertThat(reduced.partial().toolCalls()).singleElement().satisfies(call -> assertThat(call.name()).isEqualTo("multiply"));
    }

    @Test
    void aGiantElementIsBoundedByTheLimits() {
        StringBuilder huge = new StringBuilder("[{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"");
        huge.append("x".repeat(70_000)).append("\"}]}}]}]");
        emulator.enqueue(EmulatorResponse.bytes(JSON, huge.toString().getBytes(StandardCharsets.UTF_8)));
        GeminiProvider small = GeminiProvider.builder().baseUrl(emulator.baseUrl() + "/v1beta")
                .apiKey(dev.ruminate.transport.http.ApiKey.of("AIzaSy-emulated"))
                .wireLimits(new dev.ruminate.transport.wire.WireLimits(64 * 1024, 64 * 1024)).build();

        Reduced reduced = GeminiEmulated.reduce(small.stream(GeminiEmulated.REQUEST));

        assertThat(reduced.failed()).isInstanceOfSatisfying(ProtocolException.class,
                p -> assertThat(p.reason()).isEqualTo(ProtocolException.Reason.LINE_TOO_LONG));
    }

    @Test
    void anErrorObjectAnsweringTheStreamIsTheProvidersError() {
        Reduced reduced = stream(EmulatorResponse.bytes(JSON,
                "{\"error\": {\"code\": 503, \"message\": \"overloaded\", \"status\": \"UNAVAILABLE\"}}".getBytes(StandardCharsets.UTF_8)));

        assertThat(reduced.failed()).isInstanceOf(ProviderStreamException.class).hasMessageContaining("overloaded");
    }

    /** The offset just past the first element's closing brace. */
    private static int firstElementEnd() {
        return new String(BODY, StandardCharsets.UTF_8).indexOf("\n}\n,") + 2;
    }
}
