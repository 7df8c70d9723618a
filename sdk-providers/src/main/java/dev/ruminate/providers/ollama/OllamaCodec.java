package dev.ruminate.providers.ollama;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.core.think.ThinkTags;
import dev.ruminate.providers.spi.ApiIds;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.JsonLine;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * Encodes requests for, and decodes responses from, Ollama's native API, without HTTP:
 * {@link #encodeChatRequest} and {@link #encodeGenerateRequest} give the bodies to {@code POST} to
 * {@code /api/chat} and {@code /api/generate}, {@link #streamDecoder} turns the NDJSON lines of a
 * streamed answer (from {@link dev.ruminate.transport.wire.JsonLines#decode}) into {@link ChatEvent}s,
 * and {@link #decodeResponse} does the same for a whole body. Chat and generate responses are told
 * apart by their fields, so one decoder reads both.
 *
 * <p>Events: reasoning ({@code message.thinking}, or {@code thinking} on generate) becomes
 * {@link dev.ruminate.core.event.ReasoningDelta}s with source {@code thinking}; the answer
 * ({@code message.content}, or {@code response}) {@link dev.ruminate.core.event.ContentDelta}s; each
 * whole tool call one {@link dev.ruminate.core.event.ToolCallDelta} whose arguments are the exact
 * JSON text of the wire's arguments object (calls numbered in order of arrival); the {@code done} line a
 * {@link dev.ruminate.core.event.UsageUpdate} (input {@code prompt_eval_count}, output
 * {@code eval_count}) and the {@link dev.ruminate.core.event.ResponseCompleted} ({@code TOOL_CALLS}
 * when a tool was called, else from {@code done_reason}). Ollama sends no response id.
 *
 * <p>An instance ({@link #chat}, {@link #generate}) is the family's {@link WireCodec} for one
 * endpoint, which {@link OllamaProvider} runs through the provider skeleton (think tags are split
 * there, not by the codec); the static methods serve callers with their own transport.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class OllamaCodec implements WireCodec<JsonLine> {

    private final String provider;
    private final boolean generate;

    private OllamaCodec(String provider, boolean generate) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.generate = generate;
    }

    /**
     * Returns the codec of {@code /api/chat}.
     *
     * @param provider the provider name the events carry, and that marks assistant messages as Ollama's own
     * @return the codec
     */
    public static OllamaCodec chat(String provider) {
        return new OllamaCodec(provider, false);
    }

    /**
     * Returns the codec of {@code /api/generate}: one prompt, no conversation.
     *
     * @param provider the provider name the events carry
     * @return the codec
     */
    public static OllamaCodec generate(String provider) {
        return new OllamaCodec(provider, true);
    }

    @Override
    public String api() {
        return generate ? ApiIds.OLLAMA_GENERATE : ApiIds.OLLAMA_CHAT;
    }

    @Override
    public StreamFraming<JsonLine> framing() {
        return StreamFraming.NDJSON;
    }

    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        return base.resolve(generate ? "/api/generate" : "/api/chat");
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        return generate ? OllamaRequestEncoder.generate(prepared, stream, warnings)
                : OllamaRequestEncoder.chat(provider, prepared, stream, warnings);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Ollama: {@code NATIVE} ({@code format} with the schema) on both endpoints; the {@code TOOL}
     * strategy gets {@code TOOL_AUTO} on {@code /api/chat} (Ollama cannot force a tool) and is
     * refused on {@code /api/generate}, which takes no tools.
     */
    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        return OllamaRequestEncoder.method(prepared, generate);
    }

    /** {@code /api/generate} takes no earlier turns (the encoder rejects them), so it adds nothing. */
    @Override
    public void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
        if (!generate) {
            OllamaPlan.explain(prepared, provider, plan);
        }
    }

    @Override
    public StreamDecoder<JsonLine> newStreamDecoder(ChatRequest request) {
        return new OllamaStreamDecoder(provider);
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return OllamaResponseDecoder.decode(provider, body);
    }

    /**
     * Returns an operator that decodes one response's NDJSON lines into chat events, splitting think
     * tags out of the answer when asked to (for models that write {@code <think>…</think>} into
     * {@code content} or {@code response}, as qwen3 does without {@code think}).
     *
     * <p>The operator is reusable: each subscription gets its own decoder state. <b>Backpressure:</b>
     * honoured. <b>Cancellation:</b> propagates upstream (which closes the HTTP exchange).
     * <b>Errors:</b> {@code ProtocolException} {@code MALFORMED_JSON} (with the line number and byte
     * offset) or {@code UNEXPECTED_SHAPE}; {@code ProviderStreamException} for an
     * {@code {"error": "…"}} line; {@code IncompleteStreamException} when the body ends without a
     * {@code "done": true} line; upstream errors pass through unchanged.
     *
     * @param provider the provider name the events carry, e.g. {@link OllamaProvider#NAME}
     * @param thinkTags the tags the model writes its reasoning between, or null to leave the answer alone
     * @return the operator, for {@code Flux.transform}
     */
    public static Function<Flux<JsonLine>, Flux<ChatEvent>> streamDecoder(String provider,
                                                                         @Nullable ThinkTagOptions thinkTags) {
        Objects.requireNonNull(provider, "provider");
        Function<Flux<ChatEvent>, Flux<ChatEvent>> tags = tags(thinkTags);
        Function<Flux<JsonLine>, Flux<ChatEvent>> decoder =
                StreamDecoding.operator(StreamFraming.NDJSON, () -> new OllamaStreamDecoder(provider));
        return lines -> decoder.apply(lines).transform(tags);
    }

    /**
     * Decodes a whole ({@code "stream": false}) chat or generate body into the events a stream
     * would give, with a {@code ReasoningFinal} holding the reasoning (the body is the server's final
     * view, so the reasoning check is {@code MATCHED} by construction).
     *
     * @param provider the provider name the events carry
     * @param thinkTags the tags the model writes its reasoning between, or null
     * @param body the response body; not modified
     * @return a cold flux of the events, or of a {@code ProtocolException}, or of a
     *     {@code ProviderStreamException} for an {@code error} body
     */
    public static Flux<ChatEvent> decodeResponse(String provider, @Nullable ThinkTagOptions thinkTags, byte[] body) {
        Objects.requireNonNull(provider, "provider");
        return BodyDecoding.flux(body, b -> OllamaResponseDecoder.decode(provider, b)).transform(tags(thinkTags));
    }

    /**
     * Encodes an {@code /api/chat} body: model, messages (earlier thinking of Ollama's own turns sent
     * back in {@code thinking}, tool-call arguments as objects, a user message's images in its
     * {@code images}), tools, {@code format} from the output schema, {@code stream}, {@code think}
     * from the reasoning options, {@code options} from the sampling options ({@code num_predict} for
     * the output limit), then the extras, which replace any field of the same name.
     *
     * <p>{@code think}: {@code false} when reasoning is disabled or the effort is {@code NONE}; the
     * level {@code "low"}, {@code "medium"} or {@code "high"} for any other effort ({@code MINIMAL} →
     * low, {@code MAX} → high), which gpt-oss models take (string levels are documented by third
     * parties only, not verified against Ollama; ask with {@code enabled} and no effort for
     * {@code true}, which every thinking model takes); {@code true} when reasoning is enabled or a
     * budget is given without an effort; absent for the default options. What Ollama ignores or
     * coerces is not reported here; the provider reports it as warnings.
     *
     * @param provider the provider name that marks assistant messages as Ollama's own
     * @param request the request
     * @param stream true for a streaming call
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if a tool schema or an earlier call's arguments are not valid
     *     JSON (arguments must be an object), or an extra's value is not a plain JSON value; an
     *     {@link dev.ruminate.providers.spi.UnsupportedInput} for a document, an image by URL or
     *     media in a tool result
     */
    public static byte[] encodeChatRequest(String provider, ChatRequest request, boolean stream) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(request, "request");
        return OllamaRequestEncoder.chat(provider, request, stream, new RequestWarnings());
    }

    /**
     * Encodes an {@code /api/generate} body: model, {@code prompt} (the request's one user message),
     * {@code system} (its system messages, joined by blank lines), {@code images} (the prompt's),
     * {@code format} (the output schema), {@code stream}, {@code think}, {@code options}, then the
     * extras.
     *
     * @param request a request of system messages and exactly one user message, without tools
     * @param stream true for a streaming call
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if the request holds other messages, no user message or
     *     tools, or an extra's value is not a plain JSON value; an
     *     {@link dev.ruminate.providers.spi.UnsupportedInput} for a document or an image by URL, or an
     *     output schema whose strategy asks for a tool
     */
    public static byte[] encodeGenerateRequest(ChatRequest request, boolean stream) {
        Objects.requireNonNull(request, "request");
        return OllamaRequestEncoder.generate(request, stream, new RequestWarnings());
    }

    private static Function<Flux<ChatEvent>, Flux<ChatEvent>> tags(@Nullable ThinkTagOptions thinkTags) {
        return thinkTags != null ? ThinkTags.splitter(thinkTags) : Function.identity();
    }
}
