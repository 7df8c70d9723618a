package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.wire.WireLimits;
import dev.ruminate.providers.ProviderBuilder;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input on every client, over real HTTP with Netty's paranoid leak detection: malformed and
 * truncated JSON, wrong types, HTML pages, empty bodies, wrong content types, invalid UTF-8, lines
 * over the limit, deeply nested JSON, streams that never end, duplicated or contradictory indices,
 * arguments that never become JSON. Each case ends within its time limit, either in a typed
 * {@link RuminateException} or in a result (where the input is tolerated on purpose: unknown event
 * types, blank data); none hangs and none escapes as another exception. The count is printed.
 */
@ExtendWith(NettyLeakCheck.class)
class BadInputCorpusTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final WireLimits SMALL = new WireLimits(64 * 1024, 64 * 1024);
    private static final AtomicInteger CASES = new AtomicInteger();
    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
        System.out.println("bad-input corpus: " + CASES.get() + " cases, every one typed or tolerated");
    }

    /** A client and the framing its stream uses. */
    record Client(String name, String contentType, Function<Duration, ChatProvider> build) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static <B extends ProviderBuilder<B>> B at(B builder, Duration timeout) {
        return builder.baseUrl(emulator.baseUrl().toString()).wireLimits(SMALL).readTimeout(timeout);
    }

    static List<Client> clients() {
        ApiKey key = ApiKey.of("k");
        return List.of(
                new Client("deepseek", "text/event-stream", t -> at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK), t).apiKey(key).build()),
                new Client("openai-responses", "text/event-stream",
                        t -> at(ResponsesProvider.builder(ResponsesProfiles.OPENAI), t).apiKey(key).build()),
                new Client("anthropic", "text/event-stream", t -> at(AnthropicProvider.builder(), t).apiKey(key).build()),
                new Client("gemini", "text/event-stream", t -> at(GeminiProvider.builder(), t).apiKey(key).build()),
                new Client("ollama-native", "application/x-ndjson", t -> at(OllamaProvider.builder(), t).build()),
                new Client("bedrock", "application/vnd.amazon.eventstream",
                        t -> at(BedrockProvider.builder("us-east-1"), t).credentials(AwsCredentials.of("AKID", "s")).build()));
    }

    /** One bad input: its name and the response that carries it. */
    record Bad(String name, Function<Client, EmulatorResponse> response, boolean stall) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The body in the client's framing: SSE {@code data:} events, NDJSON lines, or event-stream frames. */
    private static byte[] framed(Client c, String... payloads) {
        StringBuilder sb = new StringBuilder();
        List<byte[]> frames = new ArrayList<>();
        for (String p : payloads) {
            switch (c.contentType()) {
                case "application/x-ndjson" -> sb.append(p).append('\n');
                case "application/vnd.amazon.eventstream" -> frames.add(EventStreamFrames.event("contentBlockDelta", p));
                default -> sb.append("data: ").append(p).append("\n\n");
            }
        }
        if (!frames.isEmpty()) {
            int n = frames.stream().mapToInt(f -> f.length).sum();
            byte[] out = new byte[n];
            int at = 0;
            for (byte[] f : frames) {
                System.arraycopy(f, 0, out, at, f.length);
                at += f.length;
            }
            return out;
        }
        return utf8(sb.toString());
    }

    private static Bad body(String name, Function<Client, byte[]> bytes) {
        return new Bad(name, c -> EmulatorResponse.bytes(c.contentType(), bytes.apply(c)), false);
    }

    static List<Bad> inputs() {
        String deep = "[".repeat(5_000) + "]".repeat(5_000);
        String huge = "{\"x\":\"" + "a".repeat(200_000) + "\"}";
        return List.of(
                body("empty body", c -> new byte[0]),
                body("only whitespace", c -> utf8("\n\n   \n")),
                body("malformed JSON", c -> framed(c, "{\"choices\": [oops")),
                body("truncated JSON", c -> framed(c, "{\"type\":\"message_start\",\"message\":{\"id\":")),
                body("a number", c -> framed(c, "42")),
                body("a string", c -> framed(c, "\"hello\"")),
                body("an array", c -> framed(c, "[1,2,3]")),
                body("null", c -> framed(c, "null")),
                body("wrong nested types", c -> framed(c, "{\"choices\":\"no\",\"candidates\":5,\"message\":[],\"delta\":7,"
                        + "\"contentBlockIndex\":\"x\",\"type\":\"content_block_delta\",\"index\":\"zero\"}")),
                body("unknown event type", c -> framed(c, "{\"type\":\"future.event.kind\",\"payload\":{}}")),
                body("deeply nested JSON", c -> framed(c, deep)),
                body("a line over the limit", c -> framed(c, huge)),
                body("invalid UTF-8", c -> {
                    byte[] b = framed(c, "{\"type\":\"text\",\"text\":\"@@\",\"response\":\"@@\"}");
                    for (int i = 0; i < b.length - 1; i++) {
                        if (b[i] == '@' && b[i + 1] == '@') {
                            b[i] = (byte) 0xC3;
                            b[i + 1] = (byte) 0x28;
                        }
                    }
                    return b;
                }),
                body("two objects glued", c -> framed(c, "{\"a\":1}{\"b\":2}")),
                body("duplicated indices", c -> framed(c,
                        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
                        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}",
                        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}},"
                                + "{\"index\":0,\"id\":\"b\",\"function\":{\"name\":\"g\",\"arguments\":\"[\"}}]}}]}")),
                body("arguments that never become JSON", c -> framed(c,
                        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\": 1\"}}]},\"finish_reason\":\"tool_calls\"}]}",
                        "{\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"{oops\"}",
                        "{\"contentBlockIndex\":0,\"delta\":{\"toolUse\":{\"input\":\"{never\"}}}")),
                new Bad("an HTML error page", c -> EmulatorResponse.html(502, "<html><title>502 Bad Gateway</title></html>"), false),
                new Bad("HTML with status 200", c -> EmulatorResponse.bytes("text/html", utf8("<html><body>maintenance</body></html>")), false),
                new Bad("wrong content type", c -> EmulatorResponse.bytes("application/octet-stream", utf8("data: {}\n\n")), false),
                new Bad("JSON error body on 200", c -> EmulatorResponse.json(200, "{\"error\":{\"message\":\"quota\",\"type\":\"x\"}}"), false),
                new Bad("500 with garbage body", c -> EmulatorResponse.httpError(500, "not json at all"), false),
                new Bad("connection reset mid-stream", c -> EmulatorResponse.bytes(c.contentType(),
                        framed(c, "{\"x\":1}", "{\"y\":2}")).resetAfter(5), false),
                new Bad("a stream that never ends", c -> EmulatorResponse.bytes(c.contentType(), framed(c, "{\"x\":1}")).stallAfter(3), true),
                new Bad("no body at all and stalls", c -> EmulatorResponse.bytes(c.contentType(), framed(c, "{}")).stallAfter(0), true),
                new Bad("corrupted binary", c -> EmulatorResponse.bytes(c.contentType(),
                        EventStreamFrames.corruptPayload(EventStreamFrames.event("messageStart", "{\"role\":\"assistant\"}"))), false),
                body("random bytes", c -> {
                    byte[] b = new byte[4096];
                    new java.util.Random(7).nextBytes(b);
                    return b;
                }));
    }

    static Stream<Arguments> corpus() {
        return clients().stream().flatMap(c -> inputs().stream().map(b -> Arguments.of(c, b)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("corpus")
    void endsTypedOrToleratedNeverHangs(Client client, Bad bad) {
        CASES.incrementAndGet();
        emulator.enqueue(bad.response().apply(client));
        ChatProvider provider = client.build().apply(bad.stall() ? Duration.ofMillis(400) : LIMIT);
        ChatRequest request = ChatRequest.builder("m").user("hi").build();
        Object outcome;
        try {
            ChatResult result = ChatReducer.defaults().reduce(provider.stream(request)).block(LIMIT.plusSeconds(5));
            outcome = result;
        } catch (RuminateException e) {
            outcome = e;
            assertThat(e.getMessage()).as("a typed error says what went wrong").isNotBlank();
        }
        assertThat(outcome).as("completes or fails typed within the limit").isNotNull();
        if (outcome instanceof ChatResult result) {
            // The one documented tolerance: a complete response whose call arguments never became JSON
            // is a result with the call flagged invalid (ToolArgumentsPolicy.FLAG), never to be executed.
            assertThat(bad.name()).isEqualTo("arguments that never become JSON");
            assertThat(result.message().toolCalls()).anySatisfy(call -> assertThat(call.argumentsValid()).isFalse());
        }
        if (bad.stall()) {
            assertThat(outcome).isInstanceOf(dev.ruminate.core.error.StreamTimeoutException.class);
        }
    }
}
