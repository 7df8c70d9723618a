package dev.ruminate.providers.bedrock;

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
import dev.ruminate.providers.internal.ClaudeOpaqueRules;
import dev.ruminate.providers.internal.OpaqueRejections;
import dev.ruminate.providers.spi.ApiIds;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.EventStreamMessage;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * Bedrock Converse without HTTP: the ConverseStream decoder over event-stream messages, the
 * non-streaming decoder, and the request encoder. {@link BedrockProvider} uses them over Reactor
 * Netty; use them directly to decode recorded bodies or to drive your own transport.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class BedrockCodec implements WireCodec<EventStreamMessage> {

    private final String provider;

    private BedrockCodec(String provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    /**
     * Returns the codec, as the provider skeleton uses it.
     *
     * @param provider the provider name for events and errors, and the owner of its opaque state
     * @return the codec
     */
    public static BedrockCodec of(String provider) {
        return new BedrockCodec(provider);
    }

    /**
     * Types Bedrock's {@code ValidationException} (400) when it passes on Claude's refusal of a
     * thinking block's signature (Anthropic's words, matched tolerantly). The location words are
     * kept; the indices are not mapped back (Converse's message grouping is not Anthropic's, and
     * which one the words index is UNVERIFIED).
     */
    @Override
    public @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                    ProviderHttpException error) {
        OpaqueRejections.Found found = OpaqueRejections.anthropic(error);
        return found == null ? null : OpaqueRejections.typed(error, provider, found, null);
    }

    @Override
    public String api() {
        return ApiIds.BEDROCK_CONVERSE;
    }

    @Override
    public StreamFraming<EventStreamMessage> framing() {
        return StreamFraming.EVENT_STREAM;
    }

    /** {@code /model/MODEL/converse-stream} or {@code /model/MODEL/converse}, the model id percent-encoded as SigV4 expects. */
    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        return base.resolve("/model/" + pathSegment(request.model()) + (stream ? "/converse-stream" : "/converse"));
    }

    /**
     * Returns the family's opaque-value rules: see {@link ClaudeOpaqueRules}.
     *
     * @return the rules
     */
    @Override
    public OpaqueRules opaqueRules() {
        return ClaudeOpaqueRules.INSTANCE;
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        return BedrockRequestEncoder.encode(prepared, warnings);
    }

    /**
     * Returns the structured-output method this codec's encoder writes: the output tool, forced while
     * thinking is off and offered with {@code toolChoice: auto} while Claude's thinking is on; the
     * native {@code outputConfig.textFormat} only for the NATIVE strategy
     * ({@link BedrockStructuredOutput}, the encoder's own decision).
     */
    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        return BedrockStructuredOutput.method(prepared, BedrockReasoning.of(prepared, new RequestWarnings()));
    }

    @Override
    public void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
        BedrockPlan.explain(prepared, provider, plan);
    }

    @Override
    public StreamDecoder<EventStreamMessage> newStreamDecoder(ChatRequest request) {
        return new BedrockStreamDecoder(provider, request.model());
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return BedrockResponseDecoder.decode(provider, request.model(), body);
    }

    /** Percent-encodes every byte outside RFC 3986's unreserved set, so that the path is the one SigV4 signs. */
    static String pathSegment(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }

    /**
     * Returns an operator that decodes one ConverseStream response's messages (from
     * {@link dev.ruminate.transport.wire.EventStreams#decode}) into chat events.
     *
     * <p>Reusable: each subscription gets its own decoder state. <b>Errors:</b>
     * {@code ProviderStreamException} for an exception message in the stream (throttling, model
     * errors, validation), {@code ProtocolException} for a payload that is not the expected JSON,
     * {@code IncompleteStreamException} when the body ends before {@code messageStop}; upstream
     * errors (a checksum mismatch, a cut connection) pass through unchanged.
     *
     * @param provider the provider name for {@code ResponseStarted} and errors
     * @param model the model id requested (ConverseStream does not echo it)
     * @return the operator, for {@code Flux.transform}
     */
    public static Function<Flux<EventStreamMessage>, Flux<ChatEvent>> streamDecoder(String provider, String model) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        return StreamDecoding.operator(StreamFraming.EVENT_STREAM, () -> new BedrockStreamDecoder(provider, model));
    }

    /**
     * Decodes a whole Converse response body into the events a stream would give, with a
     * {@code ReasoningFinal} per reasoning part: the body is the provider's final view and the
     * deltas are taken from it, so the reasoning check is {@code MATCHED} by construction.
     *
     * @param provider the provider name
     * @param model the model id requested
     * @param body the response body; not modified
     * @return a cold flux of the events, or of a {@code ProtocolException}
     */
    public static Flux<ChatEvent> decodeResponse(String provider, String model, byte[] body) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        return BodyDecoding.flux(body, b -> BedrockResponseDecoder.decode(provider, model, b));
    }

    /**
     * Encodes a Converse or ConverseStream request body (the same for both; the model goes in the
     * URL).
     *
     * @param provider the provider name: reasoning that this provider returned without a signature
     *     goes back as think-tagged text; other providers' turns lose their reasoning and opaque state
     * @param request the request
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if a tool's schema or a tool call's arguments are not valid
     *     JSON, or an extra's value is not a plain JSON value
     */
    public static byte[] encodeRequest(String provider, ChatRequest request) {
        return encodeRequest(provider, request, HistoryPolicy.DEFAULT);
    }

    /**
     * Encodes a request body, sending earlier turns back under a history policy.
     *
     * @param provider the provider name; turns of any other provider lose their opaque state
     * @param request the request
     * @param policy the retention of reasoning (default {@link dev.ruminate.core.history.Retention#ALL})
     *     and the handling of other providers' reasoning
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException as {@link #encodeRequest(String, ChatRequest)}
     */
    public static byte[] encodeRequest(String provider, ChatRequest request, HistoryPolicy policy) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(request, "request");
        return BedrockRequestEncoder.encode(History.prepare(request, provider, Objects.requireNonNull(policy, "policy"),
                Retention.ALL));
    }
}
