package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.core.wire.EventStreams;
import dev.ruminate.core.wire.ServerSentEvents;
import dev.ruminate.core.wire.SseEvent;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.bedrock.BedrockCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiCodec;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
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
class CutAtEveryByteTest {

    /** One recording and the decoder of its API. */
    record Case(String path, Function<Flux<SseEvent>, Flux<ChatEvent>> sseDecoder, boolean eventStream, int step) {
        @Override
        public String toString() {
            return path;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse", ChatCompletionsCodec.streamDecoder(Profiles.DEEPSEEK), false, 3),
                new Case("openai-responses/vercel-github-copilot-reasoning-summary-id-rotation-stream.sse",
                        ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI), false, 3),
                new Case("anthropic/pydantic-thinking-stream.sse", AnthropicCodec.streamDecoder(), false, 3),
                new Case("gemini/vercel-vertex-partial-args-tool-call-stream.sse", GeminiCodec.streamDecoder("vertex"), false, 1),
                new Case("bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream", null, true, 1));
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
