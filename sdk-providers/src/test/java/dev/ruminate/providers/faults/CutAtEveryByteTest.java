package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.wire.EventStreams;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockCodec;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiCodec;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * A connection cut at any byte of a recording ends in a typed error whose partial message is the
 * reduction of exactly what the delivered bytes hold (the events their complete lines, or complete
 * frames, make, as the decoder gives them before a failure): never more, never garbled, and the
 * stream never passes as complete. One recording per wire format: Chat Completions,
 * Responses, Anthropic, Gemini (SSE) and Bedrock (binary event stream); every offset of the smaller
 * ones, every third of the larger.
 */
@ExtendWith(NettyLeakCheck.class)
class CutAtEveryByteTest {

    /** One recording and the decoder of its API. */
    record Case(String path, Function<Flux<SseEvent>, Flux<ChatEvent>> sseDecoder, boolean eventStream, int step,
                Function<String, ChatProvider> client) {
        @Override
        public String toString() {
            return path;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse", ChatCompletionsCodec.streamDecoder(Profiles.DEEPSEEK),
                        false, 3, base -> ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(base).apiKey(KEY).build()),
                new Case("openai-responses/vercel-github-copilot-reasoning-summary-id-rotation-stream.sse",
                        ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI), false, 3,
                        base -> ResponsesProvider.builder(ResponsesProfiles.OPENAI).baseUrl(base).apiKey(KEY).build()),
                new Case("anthropic/pydantic-thinking-stream.sse", AnthropicCodec.streamDecoder(), false, 3,
                        base -> AnthropicProvider.builder().baseUrl(base).apiKey(KEY).build()),
                new Case("gemini/vercel-vertex-partial-args-tool-call-stream.sse", GeminiCodec.streamDecoder("vertex"), false, 1,
                        base -> GeminiProvider.vertex("p", "global").baseUrl(base).accessToken(KEY).build()),
                new Case("bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream", null, true, 1,
                        base -> BedrockProvider.builder("us-east-1").baseUrl(base).credentials(AwsCredentials.of("AKID", "s"))
                                .build()));
    }

    private static final ApiKey KEY = ApiKey.of("k");

    /**
     * The same over a real socket, at twenty-five offsets of each recording: the emulator sends the
     * first bytes and resets the connection.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void overHttpTheConnectionResetLeavesWhatTheDeliveredBytesHold(Case c) {
        byte[] body = Recorded.bytes(c.path());
        String type = c.eventStream() ? "application/vnd.amazon.eventstream" : "text/event-stream";
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            ChatProvider client = c.client().apply(emulator.baseUrl().toString());
            for (int i = 0; i < 25; i++) {
                int cut = (int) ((long) body.length * i / 25);
                emulator.enqueue(EmulatorResponse.bytes(type, body).resetAfter(cut));
                AssistantMessage expected = reference(c, java.util.Arrays.copyOf(body, cut));
                AssistantMessage actual;
                try {
                    ChatReducer.defaults().reduce(client.stream(ChatRequest.builder("m").user("x").build()))
                            .block(Duration.ofSeconds(10));
                    throw new AssertionError("a reset stream completed at byte " + cut);
                } catch (RuminateException e) {
                    actual = Provenances.checkedPartial(e.partial());
                }
                // over HTTP the provider names itself and its model may differ from the codec's: compare the parts
                assertThat(actual == null ? null : actual.parts()).as("reset at byte %d", cut)
                        .isEqualTo(expected == null ? null : expected.parts());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void thePartialMessageIsWhatTheDeliveredBytesHold(Case c) {
        byte[] body = Recorded.bytes(c.path());
        int checked = 0;
        for (int cut = 0; cut < body.length; cut += c.step()) {
            byte[] delivered = java.util.Arrays.copyOf(body, cut);
            AssistantMessage expected = reference(c, delivered);
            AssistantMessage actual = actualPartial(c, delivered);
            assertThat(actual).as("cut at byte %d of %d", cut, body.length).isEqualTo(expected);
            checked++;
        }
        assertThat(checked).isGreaterThan(body.length / c.step() - 1);
    }

    /** The reduction, over HTTP-like framing, of the bytes followed by a connection reset. */
    private static @Nullable AssistantMessage actualPartial(Case c, byte[] delivered) {
        Flux<ByteBuf> bytes = Flux.concat(Flux.just(Unpooled.wrappedBuffer(delivered)),
                Flux.error(new IOException("connection reset")));
        Flux<ChatEvent> events = c.eventStream()
                ? EventStreams.decode(bytes).transform(BedrockCodec.streamDecoder("bedrock", "m"))
                : ServerSentEvents.decode(bytes).transform(c.sseDecoder());
        try {
            ChatReducer.defaults().reduce(events).block(Duration.ofSeconds(10));
        } catch (RuminateException e) {
            return e.partial();
        }
        throw new AssertionError("a cut stream completed");
    }

    /** What the delivered bytes hold, worked out independently: whole lines, or whole frames, only. */
    private static @Nullable AssistantMessage reference(Case c, byte[] delivered) {
        Flux<ChatEvent> decoded;
        if (c.eventStream()) {
            decoded = EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(delivered, 0, wholeFrames(delivered))))
                    .concatWith(Flux.error(new IOException("cut")))
                    .transform(BedrockCodec.streamDecoder("bedrock", "m"));
        } else {
            int end = lastLineEnd(delivered);
            List<SseEvent> events = SseSplitter.split(new String(delivered, 0, end, StandardCharsets.UTF_8));
            // a cut stream never reaches its end: the decoder sees the error, not the end of the body
            decoded = Flux.fromIterable(events).concatWith(Flux.error(new IOException("cut"))).transform(c.sseDecoder());
        }
        List<ChatEvent> events = new ArrayList<>(Recorded.run(decoded).events());
        if (events.isEmpty()) {
            return null;
        }
        Reduction reduction = ChatReducer.defaults().start();
        events.forEach(reduction::accept);
        return reduction.partial();
    }

    private static int lastLineEnd(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        return 0;
    }

    private static int wholeFrames(byte[] bytes) {
        int at = 0;
        while (at + 4 <= bytes.length) {
            int length = ByteBuffer.wrap(bytes, at, 4).getInt();
            if (at + length > bytes.length) {
                break;
            }
            at += length;
        }
        return at;
    }
}
