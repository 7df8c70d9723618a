package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiCodec;
import dev.ruminate.providers.testing.Recorded;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * The decisive test of the encoder: recorded streams of several providers, decoded with their own
 * codecs, encoded as a Responses stream, then decoded with Ruminate's Responses decoder and reduced,
 * give the same final message (reasoning, answer and tool calls, in order, and usage) as the
 * original reduction.
 */
class ResponsesEncoderRoundTripTest {

    static Stream<Arguments> recordings() {
        List<Arguments> all = new ArrayList<>();
        all.add(Arguments.of("anthropic/pydantic-thinking-stream.sse", anthropic()));
        all.add(Arguments.of("anthropic/pydantic-redacted-thinking-stream.sse", anthropic()));
        all.add(Arguments.of("anthropic/vercel-clear-thinking-stream.sse", anthropic()));
        all.add(Arguments.of("gemini/vercel-gemini-reasoning-thought-signature-stream.sse", gemini()));
        all.add(Arguments.of("gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse", gemini()));
        all.add(Arguments.of("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse", compat(Profiles.DEEPSEEK)));
        all.add(Arguments.of("openai-compatible/pydantic-zai-glm-reasoning-content-stream.sse", compat(Profiles.GLM)));
        all.add(Arguments.of("openai-compatible/vercel-alibaba-qwen-reasoning-content-stream.sse", compat(Profiles.QWEN)));
        for (String path : Responses.STREAMS) {
            all.add(Arguments.of(path, ResponsesCodec.streamDecoder(Responses.profileOf(path))));
        }
        return all.stream();
    }

    private static Function<Flux<dev.ruminate.transport.wire.SseEvent>, Flux<ChatEvent>> anthropic() {
        return AnthropicCodec.streamDecoder();
    }

    private static Function<Flux<dev.ruminate.transport.wire.SseEvent>, Flux<ChatEvent>> gemini() {
        return GeminiCodec.streamDecoder("gemini");
    }

    private static Function<Flux<dev.ruminate.transport.wire.SseEvent>, Flux<ChatEvent>> compat(
            dev.ruminate.providers.chatcompletions.CompatProfile profile) {
        return ChatCompletionsCodec.streamDecoder(profile);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void aReEncodedStreamReducesToTheSameMessage(String path,
                                                 Function<Flux<dev.ruminate.transport.wire.SseEvent>, Flux<ChatEvent>> decoder) {
        List<ChatEvent> original = Flux.fromIterable(Recorded.sse(path)).transform(decoder)
                .collectList().block(Duration.ofSeconds(10));
        assertThat(original).isNotEmpty();
        ChatResult expected = reduce(Flux.fromIterable(original));

        List<SseFrame> frames = ResponsesStreamEncoder.encode(Flux.fromIterable(original),
                exact("resp_test", 1L, null)).collectList().block(Duration.ofSeconds(10));
        assertThat(frames).isNotNull();
        assertThat(frames.get(frames.size() - 1).event()).isIn("response.completed", "response.incomplete");
        ChatResult actual = reduce(ResponsesStreamEncoderTest.decode(frames));

        AssistantMessage want = expected.message();
        AssistantMessage got = actual.message();
        assertThat(got.text()).isEqualTo(want.text());
        assertThat(got.reasoning()).isEqualTo(want.reasoning());
        assertThat(visible(got)).isEqualTo(visible(want));
        assertThat(got.usage()).isEqualTo(zeroed(want.usage()));
        assertSameCallIds(got, want);

        // mirrored (the default): the same reasoning text, each part now a summary part
        List<SseFrame> mirrored = ResponsesStreamEncoder.encode(Flux.fromIterable(original),
                ResponsesStreamOptions.fixed("resp_test", 1L, null)).collectList().block(Duration.ofSeconds(10));
        assertThat(mirrored).isNotNull();
        AssistantMessage viaSummary = reduce(ResponsesStreamEncoderTest.decode(mirrored)).message();
        assertThat(viaSummary.reasoning()).isEqualTo(want.reasoning());
        assertThat(viaSummary.text()).isEqualTo(want.text());
        assertThat(viaSummary.parts().stream().filter(ReasoningPart.class::isInstance)
                .allMatch(p -> ((ReasoningPart) p).summary())).isTrue();
    }

    /** Options that keep raw reasoning raw, so a round trip can compare parts exactly. */
    static ResponsesStreamOptions exact(String id, long createdAt, @org.jspecify.annotations.Nullable String model) {
        return ResponsesStreamOptions.fixed(id, createdAt, model).withReasoningSummaries(ReasoningSummaries.OFF);
    }

    /** The usage as the encoder reports it: every count written once any is known, 0 where unknown. */
    static dev.ruminate.core.message.Usage zeroed(dev.ruminate.core.message.Usage u) {
        if (u.isUnknown()) {
            return u;
        }
        return new dev.ruminate.core.message.Usage(orZero(u.inputTokens()), orZero(u.outputTokens()),
                orZero(u.reasoningTokens()), orZero(u.cachedTokens()));
    }

    private static Long orZero(@org.jspecify.annotations.Nullable Long n) {
        return n == null ? 0L : n;
    }

    /** A call the provider gave no id (Gemini) gets one: a Responses client needs it to pair the output. */
    static void assertSameCallIds(AssistantMessage got, AssistantMessage want) {
        for (int i = 0; i < want.toolCalls().size(); i++) {
            String id = want.toolCalls().get(i).id();
            if (id != null) {
                assertThat(got.toolCalls().get(i).id()).isEqualTo(id);
            } else {
                assertThat(got.toolCalls().get(i).id()).startsWith("call_fc_");
            }
        }
    }

    static ChatResult reduce(Flux<ChatEvent> events) {
        ChatResult r = ChatReducer.defaults().reduce(events).block(Duration.ofSeconds(10));
        assertThat(r).isNotNull();
        return r;
    }

    /**
     * The parts a Responses stream can carry, as comparable strings: reasoning with text (a
     * redacted block has none to send), answer text and tool calls, in order. Adjacent text parts are
     * merged, since the split of answer text into parts is the provider's, not the message's.
     */
    static List<String> visible(AssistantMessage m) {
        List<String> out = new ArrayList<>();
        for (Part p : m.parts()) {
            String s = null;
            if (p instanceof ReasoningPart r && !r.text().isEmpty()) {
                s = "reasoning(" + r.summary() + "): " + r.text();
            } else if (p instanceof TextPart t && !t.text().isEmpty()) {
                if (!out.isEmpty() && out.get(out.size() - 1).startsWith("text: ")) {
                    out.set(out.size() - 1, out.get(out.size() - 1) + t.text());
                    continue;
                }
                s = "text: " + t.text();
            } else if (p instanceof ToolCallPart c) {
                s = "call " + c.name() + " " + c.arguments() + " " + c.argumentsValid();
            }
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }
}
