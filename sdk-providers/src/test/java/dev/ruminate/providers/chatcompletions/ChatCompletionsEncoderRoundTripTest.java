package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.think.ThinkTags;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.gemini.GeminiCodec;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.testing.ByteChunks;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.transport.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * The decisive test of the encoder: recorded streams of DeepSeek ({@code reasoning_content}), a
 * think-tag model, Anthropic thinking, Gemini thoughts, other Chat Completions servers and OpenAI
 * Responses, decoded with their own codecs, encoded as a Chat Completions stream (or body), then
 * decoded with Ruminate's own Chat Completions decoder and reduced, give the message of the original
 * reduction: all reasoning as reasoning, the answer, the tool calls and the usage. The property runs
 * over random chunkings of both sides: the upstream's deltas cut anew, and the encoded bytes cut as
 * a network might.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsEncoderRoundTripTest {

    /** Each recording, with the decoder of the provider that sent it. */
    private static final Map<String, Function<Flux<SseEvent>, Flux<ChatEvent>>> RECORDINGS = recordings();

    /** Recordings whose reasoning is only opaque (redacted, or signatures without thought text). */
    private static final Set<String> NO_REASONING_TEXT = Set.of("anthropic/pydantic-redacted-thinking-stream.sse",
            "gemini/vercel-gemini-reasoning-thought-signature-stream.sse",
            "gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse");

    /** A whole Gemini body with thought summaries, replayed as the events a stream of it gives. */
    private static final String GEMINI_THOUGHTS_BODY = "gemini/pydantic-gemini-thought-summaries-multiturn.turn1.json";

    private static Map<String, Function<Flux<SseEvent>, Flux<ChatEvent>>> recordings() {
        Map<String, Function<Flux<SseEvent>, Flux<ChatEvent>>> all = new LinkedHashMap<>();
        all.put("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse", ChatCompletionsCodec.streamDecoder(Profiles.DEEPSEEK));
        all.put("deepseek/vercel-azure-deepseek-v4-reasoning-stream.sse", ChatCompletionsCodec.streamDecoder(Profiles.DEEPSEEK));
        all.put("think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse",
                ChatCompletionsCodec.streamDecoder(Profiles.GROQ).andThen(f -> f.transform(ThinkTags.splitter())));
        all.put("anthropic/pydantic-thinking-stream.sse", AnthropicCodec.streamDecoder());
        all.put("anthropic/vercel-clear-thinking-stream.sse", AnthropicCodec.streamDecoder());
        all.put("anthropic/pydantic-redacted-thinking-stream.sse", AnthropicCodec.streamDecoder());
        all.put("gemini/vercel-gemini-reasoning-thought-signature-stream.sse", GeminiCodec.streamDecoder("gemini"));
        all.put("gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse", GeminiCodec.streamDecoder("gemini"));
        all.put("gemini/vercel-vertex-gemini3-thought-text-partial-args-tool-calls-stream.sse",
                GeminiCodec.streamDecoder("gemini"));
        all.put(GEMINI_THOUGHTS_BODY, ignored -> GeminiCodec.decodeResponse("gemini", Recorded.bytes(GEMINI_THOUGHTS_BODY)));
        all.put("openai-compatible/pydantic-zai-glm-reasoning-content-stream.sse", ChatCompletionsCodec.streamDecoder(Profiles.GLM));
        all.put("openai-compatible/vercel-alibaba-qwen-reasoning-content-stream.sse",
                ChatCompletionsCodec.streamDecoder(Profiles.QWEN));
        all.put("openai-responses/pydantic-o3-mini-reasoning-summary-stream.sse",
                ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI));
        all.put("openai-responses/vercel-reasoning-summary-encrypted-tool-call-stream.sse",
                ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI));
        return all;
    }

    static List<String> paths() {
        return List.copyOf(RECORDINGS.keySet());
    }

    static LongStream seeds() {
        return Seeds.of(3 * RECORDINGS.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void aReEncodedStreamReducesToTheSameMessage(String path) {
        List<ChatEvent> original = decodeRecording(path);
        Reduced expected = Reduced.expected(reduce(Flux.fromIterable(original)));

        List<SseFrame> frames = ChatCompletionsStreamEncoder.encode(Flux.fromIterable(original), options(true,
                ChatCompletionsReasoningField.REASONING_CONTENT)).collectList().block(Duration.ofSeconds(10));

        assertThat(frames.get(frames.size() - 1).data()).isEqualTo("[DONE]");
        assertThat(frames).noneMatch(f -> f.data().startsWith("{\"error\""));
        Reduced got = Reduced.of(reduce(decodeOurs(wire(frames, false), ByteChunks::whole, Profiles.DEEPSEEK)));
        got.assertSameAs(expected, true);
        if (!NO_REASONING_TEXT.contains(path)) {
            assertThat(expected.reasoning).as("the recording has reasoning text").isNotEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void aReEncodedBodyReducesToTheSameMessage(String path) {
        List<ChatEvent> original = decodeRecording(path);
        Reduced expected = Reduced.expected(reduce(Flux.fromIterable(original)));

        String body = ChatCompletionsStreamEncoder.encodeBody(Flux.fromIterable(original),
                options(false, ChatCompletionsReasoningField.REASONING_CONTENT)).block(Duration.ofSeconds(10));

        Reduced got = Reduced.of(reduce(ChatCompletionsCodec.decodeCompletion(Profiles.DEEPSEEK,
                body.getBytes(StandardCharsets.UTF_8))));
        got.assertSameAs(expected, true);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void anyChunkingOfEitherSideReducesToTheSameMessage(long seed) {
        Random random = Seeds.random(seed);
        List<String> paths = paths();
        String path = paths.get(Math.floorMod(seed, paths.size()));
        List<ChatEvent> original = decodeRecording(path);
        Reduced expected = Reduced.expected(reduce(Flux.fromIterable(original)));
        boolean reasoningField = random.nextBoolean();
        boolean includeUsage = random.nextBoolean();
        ChatCompletionsStreamOptions options = options(includeUsage, reasoningField
                ? ChatCompletionsReasoningField.REASONING : ChatCompletionsReasoningField.REASONING_CONTENT);

        List<SseFrame> frames = ChatCompletionsStreamEncoder.encode(Flux.fromIterable(recut(original, random)), options)
                .collectList().block(Duration.ofSeconds(10));
        byte[] wire = wire(frames, random.nextBoolean());
        int maxChunk = 1 + random.nextInt(64);

        CompatProfile reader = reasoningField ? Profiles.OLLAMA : Profiles.DEEPSEEK;
        Reduced got = Reduced.of(reduce(decodeOurs(wire, b -> ByteChunks.random(b, random, maxChunk), reader)));
        got.assertSameAs(expected, includeUsage);
    }

    // ---- the two sides

    private static List<ChatEvent> decodeRecording(String path) {
        Flux<SseEvent> recorded = path.endsWith(".sse") ? Flux.fromIterable(Recorded.sse(path)) : Flux.empty();
        List<ChatEvent> events = recorded.transform(RECORDINGS.get(path))
                .collectList().block(Duration.ofSeconds(10));
        assertThat(events).isNotEmpty();
        return events;
    }

    private static ChatCompletionsStreamOptions options(boolean includeUsage, ChatCompletionsReasoningField field) {
        return ChatCompletionsStreamOptions.fixed("chatcmpl-rt", 1L, "route").withIncludeUsage(includeUsage)
                .withReasoningField(field);
    }

    /** The frames as a gateway writes them: {@code data:} lines as OpenAI does, or with the event line. */
    private static byte[] wire(List<SseFrame> frames, boolean withEventLines) {
        StringBuilder sb = new StringBuilder();
        for (SseFrame f : frames) {
            sb.append(withEventLines ? f.text() : "data: " + f.data() + "\n\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Flux<ChatEvent> decodeOurs(byte[] wire, Function<byte[], Flux<io.netty.buffer.ByteBuf>> cut,
                                              CompatProfile profile) {
        return ServerSentEvents.decode(cut.apply(wire)).transform(ChatCompletionsCodec.streamDecoder(profile));
    }

    private static ChatResult reduce(Flux<ChatEvent> events) {
        ChatResult r = ChatReducer.defaults().reduce(events).block(Duration.ofSeconds(10));
        assertThat(r).isNotNull();
        return r;
    }

    /** Cuts each text, reasoning and argument fragment anew, at character boundaries; the first piece keeps a call's id and name. */
    private static List<ChatEvent> recut(List<ChatEvent> events, Random random) {
        List<ChatEvent> out = new ArrayList<>();
        for (ChatEvent e : events) {
            if (e instanceof ReasoningDelta r) {
                for (String piece : cut(r.text(), random)) {
                    out.add(new ReasoningDelta(r.part(), piece, r.summary(), r.source()));
                }
            } else if (e instanceof ContentDelta c) {
                for (String piece : cut(c.text(), random)) {
                    out.add(new ContentDelta(c.part(), piece));
                }
            } else if (e instanceof ToolCallDelta t) {
                List<String> pieces = cut(t.argumentsDelta(), random);
                for (int i = 0; i < pieces.size(); i++) {
                    out.add(new ToolCallDelta(t.part(), t.toolIndex(), i == 0 ? t.id() : null, i == 0 ? t.name() : null,
                            pieces.get(i)));
                }
            } else {
                out.add(e);
            }
        }
        return out;
    }

    private static List<String> cut(String text, Random random) {
        List<String> pieces = new ArrayList<>();
        int start = 0;
        while (text.length() - start > 1 && random.nextInt(3) > 0) {
            int end = start + 1 + random.nextInt(Math.min(8, text.length() - start - 1));
            if (Character.isLowSurrogate(text.charAt(end))) {
                end--;
            }
            if (end <= start) {
                break;
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        pieces.add(text.substring(start));
        return pieces;
    }

    /**
     * What a Chat Completions client can see of a message: the reasoning and the answer (each joined:
     * the wire has one field for each), the calls, the usage with 0 for what was not reported, and the
     * finish reason in OpenAI's set.
     */
    private record Reduced(String reasoning, String text, List<ToolCallPart> calls, Usage usage, FinishReason finish) {

        static Reduced of(ChatResult r) {
            AssistantMessage m = r.message();
            return new Reduced(m.reasoning(), m.text(), m.toolCalls(), m.usage(), m.finishReason());
        }

        static Reduced expected(ChatResult r) {
            AssistantMessage m = r.message();
            Usage u = m.usage();
            Usage zeroed = new Usage(orZero(u.inputTokens()), orZero(u.outputTokens()), orZero(u.reasoningTokens()),
                    orZero(u.cachedTokens()));
            FinishReason finish = switch (m.finishReason()) {
                case LENGTH, CONTENT_FILTER, TOOL_CALLS -> m.finishReason();
                default -> m.toolCalls().isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
            };
            return new Reduced(m.reasoning(), m.text(), m.toolCalls(), zeroed, finish);
        }

        void assertSameAs(Reduced want, boolean withUsage) {
            assertThat(reasoning).isEqualTo(want.reasoning);
            assertThat(text).isEqualTo(want.text);
            assertThat(finish).isEqualTo(want.finish);
            assertThat(calls).hasSameSizeAs(want.calls);
            for (int i = 0; i < calls.size(); i++) {
                ToolCallPart got = calls.get(i);
                ToolCallPart expected = want.calls.get(i);
                assertThat(got.name()).isEqualTo(expected.name());
                assertThat(got.arguments()).isEqualTo(expected.arguments());
                assertThat(got.argumentsValid()).isEqualTo(expected.argumentsValid());
                if (expected.id() != null) {
                    assertThat(got.id()).isEqualTo(expected.id());
                } else {
                    assertThat(got.id()).startsWith("call_rt_");
                }
            }
            if (withUsage) {
                assertThat(usage).isEqualTo(want.usage);
            }
        }

        private static Long orZero(@Nullable Long n) {
            return n == null ? 0L : n;
        }
    }
}
