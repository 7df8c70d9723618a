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
import dev.ruminate.transport.wire.EventStreams;
import dev.ruminate.transport.wire.JsonLines;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * The wire formats {@link DecodeBenchmark} reads, each with its body (from {@link ReasoningStream} or
 * {@link OtherStreams}), its framing alone and its framing + decoder + reducer, wired as the providers wire them.
 * Kept apart from the JMH class so that {@code WireFormatsTest} runs exactly the measured code.
 *
 * <p>Thread-safe: every call builds its own per-stream state.
 */
enum Wire {

    /** OpenAI Chat Completions SSE (DeepSeek's {@code reasoning_content}). */
    CHAT_COMPLETIONS(s -> s.sse),
    /** Anthropic Messages SSE. */
    ANTHROPIC(OtherStreams::anthropic),
    /** OpenAI Responses SSE. */
    RESPONSES(OtherStreams::responses),
    /** Gemini {@code streamGenerateContent?alt=sse}. */
    GEMINI(OtherStreams::gemini),
    /** Bedrock ConverseStream, AWS event-stream frames. */
    BEDROCK(OtherStreams::bedrock),
    /** Ollama native {@code /api/chat}, NDJSON. */
    OLLAMA(OtherStreams::ndjson);

    private static final ChatReducer REDUCER = ChatReducer.defaults();

    private final Function<ReasoningStream, byte[]> body;

    Wire(Function<ReasoningStream, byte[]> body) {
        this.body = body;
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
     * Framing, this format's stream decoder and the reducer: the body to the final message, as the provider skeleton
     * runs them ({@code StreamDecoding.decode}: each frame decoded inside the read that completes it, lent).
     */
    ChatResult decodeReduce(ByteBuf[] pieces) {
        Flux<ByteBuf> in = Flux.fromArray(pieces);
        var events = switch (this) {
            case CHAT_COMPLETIONS -> StreamDecoding.decode(ChatCompletionsCodec.of(Profiles.DEEPSEEK),
                    request("deepseek-reasoner"), in, WireLimits.DEFAULT);
            case ANTHROPIC -> StreamDecoding.decode(AnthropicCodec.of(4096), request("claude-sonnet-4-5"), in,
                    WireLimits.DEFAULT);
            case RESPONSES -> StreamDecoding.decode(ResponsesCodec.of(ResponsesProfiles.OPENAI), request("gpt-5"), in,
                    WireLimits.DEFAULT);
            case GEMINI -> StreamDecoding.decode(GeminiCodec.of("gemini", false), request("gemini-2.5-pro"), in,
                    WireLimits.DEFAULT);
            case BEDROCK -> StreamDecoding.decode(BedrockCodec.of("bedrock"), request("anthropic.claude-sonnet-4"), in,
                    WireLimits.DEFAULT);
            case OLLAMA -> StreamDecoding.decode(OllamaCodec.chat(OllamaProvider.NAME), request("qwen3"), in,
                    WireLimits.DEFAULT);
        };
        return Objects.requireNonNull(REDUCER.reduce(events).block());
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

    private static ChatRequest request(String model) {
        return ChatRequest.builder(model).user("Think, then call the tools.").build();
    }
}
