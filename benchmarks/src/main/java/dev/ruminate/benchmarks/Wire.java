package dev.ruminate.benchmarks;

import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.bedrock.BedrockCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiCodec;
import dev.ruminate.providers.ollama.OllamaCodec;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.wire.EventStreams;
import dev.ruminate.transport.wire.JsonLines;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.transport.wire.StreamFraming;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * The wire formats {@link DecodeBenchmark} reads, each with its body (from {@link ReasoningStream} or
 * {@link OtherStreams}), its framing alone and its framing + decoder + reducer, wired as the providers wire them.
 * Kept apart from the JMH class so that {@code WireFormatsTest} runs exactly the measured code.
 *
 * <p>Thread-safe: the codecs and requests are immutable, and every call builds its own per-stream state.
 */
enum Wire {

    /** OpenAI Chat Completions SSE (DeepSeek's {@code reasoning_content}). */
    CHAT_COMPLETIONS(s -> s.sse, ChatCompletionsCodec.of(Profiles.DEEPSEEK), "deepseek-reasoner"),
    /** Anthropic Messages SSE. */
    ANTHROPIC(OtherStreams::anthropic, AnthropicCodec.of(4096), "claude-sonnet-4-5"),
    /** OpenAI Responses SSE. */
    RESPONSES(OtherStreams::responses, ResponsesCodec.of(ResponsesProfiles.OPENAI), "gpt-5"),
    /** Gemini {@code streamGenerateContent?alt=sse}. */
    GEMINI(OtherStreams::gemini, GeminiCodec.of("gemini", false), "gemini-2.5-pro"),
    /** Bedrock ConverseStream, AWS event-stream frames. */
    BEDROCK(OtherStreams::bedrock, BedrockCodec.of("bedrock"), "anthropic.claude-sonnet-4"),
    /** Ollama native {@code /api/chat}, NDJSON. */
    OLLAMA(OtherStreams::ndjson, OllamaCodec.chat(OllamaProvider.NAME), "qwen3");

    private static final ChatReducer REDUCER = ChatReducer.defaults();

    private final Function<ReasoningStream, byte[]> body;
    /** The codec the format's provider holds: made once, as a provider makes it (codecs are immutable). */
    private final WireCodec<?> codec;
    private final ChatRequest request;

    Wire(Function<ReasoningStream, byte[]> body, WireCodec<?> codec, String model) {
        this.body = body;
        this.codec = codec;
        this.request = ChatRequest.builder(model).user("Think, then call the tools.").build();
    }

    /** The stream's content in this format. */
    byte[] body(ReasoningStream stream) {
        return body.apply(stream);
    }

    /** Framing alone: counts the SSE events, event-stream messages or JSON lines. */
    long frame(ByteBuf[] pieces) {
        Flux<ByteBuf> in = Flux.fromArray(pieces);
        Flux<?> framed = switch (this) {
            case BEDROCK -> EventStreams.decode(in);
            case OLLAMA -> JsonLines.decode(in);
            default -> ServerSentEvents.decode(in);
        };
        return Objects.requireNonNull(framed.count().block());
    }

    /**
     * Framing alone as the providers run it ({@code StreamFraming.read}): each frame lent to a reader inside the
     * read that completes it, its bytes not copied; the reader only counts. What {@link #decodeReduce} pays for
     * framing, where {@link #frame} pays for owned frames too.
     */
    long frameLent(ByteBuf[] pieces) {
        return countLent(codec.framing(), pieces);
    }

    /**
     * Framing, this format's stream decoder and the reducer: the body to the final message, as the provider skeleton
     * runs them ({@code StreamDecoding.decode}: each frame decoded inside the read that completes it, lent).
     */
    ChatResult decodeReduce(ByteBuf[] pieces) {
        var events = StreamDecoding.decode(codec, request, Flux.fromArray(pieces), WireLimits.DEFAULT);
        return Objects.requireNonNull(REDUCER.reduce(events).block());
    }

    private static <F> long countLent(StreamFraming<F> framing, ByteBuf[] pieces) {
        return Objects.requireNonNull(framing.read(Flux.fromArray(pieces), WireLimits.DEFAULT, FrameCount<F>::new)
                .blockLast());
    }

    /** Counts a response's frames and gives the count when the body ends; reads nothing of them. */
    private static final class FrameCount<F> implements StreamFraming.FrameReader<F, Long> {
        private long frames;

        @Override
        public void frame(F frame, List<Long> out) {
            frames++;
        }

        @Override
        public void end(List<Long> out) {
            out.add(frames);
        }
    }

    /**
     * The same through the public frame operators: owned frames from the framing ({@code ServerSentEvents},
     * {@code EventStreams}, {@code JsonLines}), then the family's stream decoder. Not measured: the reference that
     * {@code WireFormatsTest} holds the lent path to.
     */
    ChatResult decodeReduceOwned(ByteBuf[] pieces) {
        Flux<ByteBuf> in = Flux.fromArray(pieces);
        var events = switch (this) {
            case CHAT_COMPLETIONS -> ServerSentEvents.decode(in)
                    .transform(ChatCompletionsCodec.streamDecoder(Profiles.DEEPSEEK));
            case ANTHROPIC -> ServerSentEvents.decode(in).transform(AnthropicCodec.streamDecoder());
            case RESPONSES -> ServerSentEvents.decode(in).transform(ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI));
            case GEMINI -> ServerSentEvents.decode(in).transform(GeminiCodec.streamDecoder("gemini"));
            case BEDROCK -> EventStreams.decode(in)
                    .transform(BedrockCodec.streamDecoder("bedrock", "anthropic.claude-sonnet-4"));
            case OLLAMA -> JsonLines.decode(in).transform(OllamaCodec.streamDecoder(OllamaProvider.NAME, null));
        };
        return Objects.requireNonNull(REDUCER.reduce(events).block());
    }
}
