package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.history.Retention;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * Gemini without HTTP: the stream decoder (for {@code streamGenerateContent?alt=sse}, the JSON
 * array {@code streamGenerateContent} streams without {@code alt=sse}, and the Interactions API's
 * stream), the {@code generateContent} body decoder, and the request encoder.
 * {@link GeminiProvider} uses them over Reactor Netty.
 *
 * <p>An instance ({@link #of}) is the family's {@link WireCodec}, which {@link GeminiProvider} runs
 * through the provider skeleton; the static methods serve callers with their own transport.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class GeminiCodec implements WireCodec<SseEvent> {

    private final String provider;
    private final boolean skipSignatureValidation;

    private GeminiCodec(String provider, boolean skipSignatureValidation) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.skipSignatureValidation = skipSignatureValidation;
    }

    /**
     * Returns the codec, as the provider skeleton uses it.
     *
     * @param provider the provider name ({@code gemini}, {@code vertex}) for events and errors
     * @param skipSignatureValidation see {@link #encodeRequest(String, ChatRequest, HistoryPolicy, boolean)}
     * @return the codec
     */
    public static GeminiCodec of(String provider, boolean skipSignatureValidation) {
        return new GeminiCodec(provider, skipSignatureValidation);
    }

    /**
     * Types Gemini's INVALID_ARGUMENT about a function call's {@code thought_signature} (missing,
     * or corrupted/invalid: that wording is UNVERIFIED). The location words name the function and
     * a content block whose numbering base is UNVERIFIED, so the call is found by its name instead:
     * the one call of that name in the current turn without a signature (missing) or with one
     * (invalid); unresolved when there is not exactly one.
     */
    @Override
    public @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                    ProviderHttpException error) {
        OpaqueRejections.Found found = OpaqueRejections.gemini(error);
        if (found == null) {
            return null;
        }
        String function = OpaqueRejections.geminiFunction(found.location());
        boolean missing = found.reason() == OpaqueStateRejectedException.Reason.MISSING_THOUGHT_SIGNATURE;
        return OpaqueRejections.typed(error, provider, found, function == null ? null
                : OpaqueRejections.currentTurnCall(prepared.messages(), function, missing));
    }

    @Override
    public String api() {
        return ApiIds.GEMINI;
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@link StreamFraming#SSE_OR_JSON_ARRAY}: the stream is asked for with {@code alt=sse}, but
     * a server or proxy that answers with the JSON array {@code streamGenerateContent} gives without
     * it ({@code application/json}, {@code [{…},{…}]}) is read too, told by the body's content.
     */
    @Override
    public StreamFraming<SseEvent> framing() {
        return StreamFraming.SSE_OR_JSON_ARRAY;
    }

    /** {@code /models/MODEL:streamGenerateContent?alt=sse} or {@code :generateContent}; the model id percent-encoded. */
    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        String model = request.model();
        String id = model.startsWith("models/") ? model.substring("models/".length()) : model;
        return base.resolve("/models/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20") + ":"
                + (stream ? "streamGenerateContent?alt=sse" : "generateContent"));
    }

    /**
     * Returns the family's opaque-value rules: see {@link GeminiOpaqueRules}.
     *
     * @return the rules
     */
    @Override
    public OpaqueRules opaqueRules() {
        return GeminiOpaqueRules.INSTANCE;
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        return GeminiRequestEncoder.encode(provider, prepared, skipSignatureValidation, warnings);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Gemini: {@code NATIVE} ({@code responseJsonSchema}) for every model, except models before
     * Gemini 3 when the request has tools, which refuse function calling with a JSON response type
     * and get {@code TOOL_FORCED}; the {@code TOOL} strategy gets {@code TOOL_FORCED} (Gemini
     * forces a call with thinking on).
     */
    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        return GeminiRequestEncoder.method(prepared);
    }

    @Override
    public void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
        GeminiPlan.explain(prepared, provider, skipSignatureValidation, plan);
    }

    @Override
    public StreamDecoder<SseEvent> newStreamDecoder(ChatRequest request) {
        return new GeminiStreamDecoder(provider);
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return GeminiResponseDecoder.decode(provider, body);
    }

    /**
     * Returns an operator that decodes one response's SSE events into chat events.
     *
     * <p>Reusable: each subscription gets its own decoder state. <b>Errors:</b>
     * {@code ProviderStreamException} for an {@code error} object in the stream,
     * {@code ProtocolException} for malformed JSON or a wrong shape, {@code IncompleteStreamException}
     * when the body ends before a chunk with a {@code finishReason}; upstream errors pass through.
     *
     * @param provider the provider name ({@code gemini}, {@code vertex}) for events and errors
     * @return the operator, for {@code Flux.transform}
     */
    public static Function<Flux<SseEvent>, Flux<ChatEvent>> streamDecoder(String provider) {
        Objects.requireNonNull(provider, "provider");
        return StreamDecoding.operator(StreamFraming.SSE_OR_JSON_ARRAY, () -> new GeminiStreamDecoder(provider));
    }

    /**
     * Decodes a whole {@code generateContent} body into the events a stream would give, with a
     * {@code ReasoningFinal} per thought part: the reasoning check is {@code MATCHED} by construction.
     *
     * @param provider the provider name
     * @param body the response body; not modified
     * @return a cold flux of the events, or of a {@code ProtocolException} or
     *     {@code ProviderStreamException}
     */
    public static Flux<ChatEvent> decodeResponse(String provider, byte[] body) {
        Objects.requireNonNull(provider, "provider");
        return BodyDecoding.flux(body, b -> GeminiResponseDecoder.decode(provider, b));
    }

    /**
     * Encodes a {@code generateContent} / {@code streamGenerateContent} request body (the same for
     * both; the model is in the URL).
     *
     * @param provider the provider name: other providers' turns lose their signatures and reasoning
     * @param request the request
     * @param policy the retention of reasoning and the handling of other providers' reasoning
     * @param skipSignatureValidation true to write Google's placeholder signature on unsigned
     *     function calls in the current tool loop (another provider's, and the first of a step of this
     *     provider's), which Gemini 3 would otherwise reject (rule G4)
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if a tool's schema or a call's arguments are not valid JSON,
     *     or an extra's value is not a plain JSON value
     */
    public static byte[] encodeRequest(String provider, ChatRequest request, HistoryPolicy policy,
                                       boolean skipSignatureValidation) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(request, "request");
        return of(provider, skipSignatureValidation).encode(
                History.prepare(request, provider, Objects.requireNonNull(policy, "policy"), Retention.ALL), false);
    }
}
