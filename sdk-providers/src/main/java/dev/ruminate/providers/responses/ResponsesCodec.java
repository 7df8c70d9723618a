package dev.ruminate.providers.responses;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.internal.OpaqueRejections;
import dev.ruminate.providers.spi.ApiIds;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * Encodes requests for, and decodes responses from, any Responses server described by a
 * {@link ResponsesProfile}: {@link #encodeRequest} gives the body to {@code POST} to
 * {@link ResponsesProfile#uri}, {@link #streamDecoder} turns the SSE events of a streamed answer into
 * {@link ChatEvent}s, {@link #decodeResponse} does the same for a whole body.
 *
 * <p>An instance ({@link #of}) is the family's {@link WireCodec}, which {@link ResponsesProvider} runs
 * through the provider skeleton; the static methods serve callers with their own transport.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class ResponsesCodec implements WireCodec<SseEvent> {

    private final ResponsesProfile profile;
    /** Streamed calls ask for background mode, for {@link ResponsesResumption}. */
    private final boolean background;

    private ResponsesCodec(ResponsesProfile profile, boolean background) {
        this.profile = Objects.requireNonNull(profile, "profile");
        this.background = background;
    }

    /**
     * Returns the codec of a profile, as the provider skeleton uses it.
     *
     * @param profile the server's profile
     * @return the codec
     */
    public static ResponsesCodec of(ResponsesProfile profile) {
        return new ResponsesCodec(profile, false);
    }

    /** The codec of a provider that resumes streams: streamed calls ask for background mode. */
    static ResponsesCodec background(ResponsesProfile profile) {
        return new ResponsesCodec(profile, true);
    }

    /**
     * Types the Responses API's refusals of reasoning items: {@code invalid_encrypted_content}
     * (by code, or by its words "encrypted content … could not be verified") and "Item with id
     * 'rs_…' not found … {@code store} is set to false". The item id the error names is the
     * location; it resolves to the first prepared part that carries it.
     */
    @Override
    public @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                    ProviderHttpException error) {
        OpaqueRejections.Found found = OpaqueRejections.responses(error);
        if (found == null) {
            return null;
        }
        String item = found.location();
        return OpaqueRejections.typed(error, provider, found,
                item == null ? null : OpaqueRejections.partWithItemId(prepared.messages(), item));
    }

    @Override
    public String api() {
        return ApiIds.RESPONSES;
    }

    @Override
    public StreamFraming<SseEvent> framing() {
        return StreamFraming.SSE;
    }

    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        return base.resolve(profile.path());
    }

    /**
     * Returns the family's opaque-value rules: see {@link ResponsesOpaqueRules}.
     *
     * @return the rules
     */
    @Override
    public OpaqueRules opaqueRules() {
        return ResponsesOpaqueRules.INSTANCE;
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        return ResponsesRequestEncoder.encode(profile, prepared, stream, warnings, background);
    }

    /**
     * Natively ({@code text.format} json_schema) where the profile's capabilities have it; else a
     * function tool, forced where the server takes a forced choice, else offered with
     * {@code tool_choice: auto} and an instruction: the decision the encoder writes
     * ({@link ResponsesStructuredOutput}).
     */
    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        return ResponsesStructuredOutput.method(profile, prepared);
    }

    @Override
    public void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
        ResponsesPlan.explain(profile, prepared, plan);
    }

    @Override
    public StreamDecoder<SseEvent> newStreamDecoder(ChatRequest request) {
        return new ResponsesStreamDecoder(profile);
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return ResponsesResponseDecoder.decode(profile, body);
    }

    /**
     * Returns an operator that decodes one response's SSE events into chat events.
     *
     * <p>Each output item is keyed by its {@code output_index}. A reasoning item's summary parts
     * become reasoning parts flagged as summaries (source {@code summary_text}), its raw text parts
     * reasoning parts with source {@code reasoning_text}; each gets its item id as a seal, and the
     * item's first part its {@code encrypted_content} (both from {@code response.output_item.done}).
     * The {@code .done} events give each reasoning part's {@code ReasoningFinal}.
     *
     * <p>The operator is reusable: each subscription gets its own decoder state. <b>Backpressure:</b>
     * honoured. <b>Cancellation:</b> propagates upstream (which closes the HTTP exchange).
     * <b>Errors:</b> {@code ProtocolException} for malformed JSON (with the event's line and byte
     * offset) or a wrong shape, {@code ProviderStreamException} for an {@code error} event or
     * {@code response.failed}, {@code IncompleteStreamException} when the body ends before
     * {@code response.completed} or {@code response.incomplete}; upstream errors pass through unchanged.
     *
     * @param profile the server's profile
     * @return the operator, for {@code Flux.transform}
     */
    public static Function<Flux<SseEvent>, Flux<ChatEvent>> streamDecoder(ResponsesProfile profile) {
        Objects.requireNonNull(profile, "profile");
        return StreamDecoding.operator(StreamFraming.SSE, () -> new ResponsesStreamDecoder(profile));
    }

    /**
     * Decodes a whole (non-streaming) {@code response} body into the events a stream would give,
     * with a {@code ReasoningFinal} per reasoning part. The deltas are taken from the same body, so
     * the reasoning check of a non-streaming call is {@code MATCHED} by construction.
     *
     * @param profile the server's profile
     * @param body the response body; not modified
     * @return a cold flux of the events, or of a {@code ProtocolException} or
     *     {@code ProviderStreamException} (a failed response)
     */
    public static Flux<ChatEvent> decodeResponse(ResponsesProfile profile, byte[] body) {
        Objects.requireNonNull(profile, "profile");
        return BodyDecoding.flux(body, b -> ResponsesResponseDecoder.decode(profile, b));
    }

    /**
     * Encodes a request body: model, instructions (the leading system messages), input items
     * (earlier reasoning items sent back with their id and encrypted content when they are this
     * server's own; images and documents as content parts), tools, the output schema, reasoning,
     * {@code include}/{@code store} per profile, streaming flag, sampling, {@code prompt_cache_key},
     * then the request's extras, which replace any field of the same name. What was ignored or
     * coerced is discarded; {@link #encodeRequest(ResponsesProfile, ChatRequest, boolean, RequestWarnings)}
     * reports it.
     *
     * @param profile the server's profile
     * @param request the request
     * @param stream true for a streaming call
     * @return the UTF-8 JSON body
     * @throws dev.ruminate.providers.spi.UnsupportedInput for media or an output-schema strategy the
     *     server does not take
     * @throws IllegalArgumentException if a tool's schema is not valid JSON, a tool call has no id,
     *     or an extra's value is not a string, number, boolean, null, list or string-keyed map
     */
    public static byte[] encodeRequest(ResponsesProfile profile, ChatRequest request, boolean stream) {
        return encodeRequest(profile, request, stream, new RequestWarnings());
    }

    /**
     * Encodes a request body as {@link #encodeRequest(ResponsesProfile, ChatRequest, boolean)} does,
     * reporting every option ignored or coerced (stop sequences, seeds, budgets, efforts a model lacks,
     * sampling a reasoning model refuses, cache breakpoints and times to live) to {@code warnings}.
     *
     * @param profile the server's profile
     * @param request the request
     * @param stream true for a streaming call
     * @param warnings where what was ignored or coerced is reported
     * @return the UTF-8 JSON body
     * @throws dev.ruminate.providers.spi.UnsupportedInput for media or an output-schema strategy the
     *     server does not take
     * @throws IllegalArgumentException as the three-argument form
     * @since 0.3
     */
    public static byte[] encodeRequest(ResponsesProfile profile, ChatRequest request, boolean stream,
                                       RequestWarnings warnings) {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(warnings, "warnings");
        return ResponsesRequestEncoder.encode(profile, request, stream, warnings);
    }
}
