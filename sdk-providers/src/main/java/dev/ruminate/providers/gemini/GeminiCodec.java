package dev.ruminate.providers.gemini;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.wire.SseEvent;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * Gemini without HTTP: the stream decoder (for {@code streamGenerateContent?alt=sse} and for the
 * Interactions API's stream), the {@code generateContent} body decoder, and the request encoder.
 * {@link GeminiProvider} uses them over Reactor Netty.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class GeminiCodec {

    private GeminiCodec() {
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
        return events -> Flux.defer(() -> {
            GeminiStreamDecoder decoder = new GeminiStreamDecoder(provider);
            return events.concatMapIterable(decoder::onEvent)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(decoder.onComplete())));
        });
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
        Objects.requireNonNull(body, "body");
        return Flux.defer(() -> Flux.fromIterable(GeminiResponseDecoder.decode(provider, body)));
    }

    /**
     * Encodes a {@code generateContent} / {@code streamGenerateContent} request body (the same for
     * both; the model is in the URL).
     *
     * @param provider the provider name: other providers' turns lose their signatures and reasoning
     * @param request the request
     * @param policy the retention of reasoning and the handling of other providers' reasoning
     * @param skipSignatureValidation true to write Google's placeholder signature on another
     *     provider's function calls in the current tool loop, which Gemini 3 would otherwise reject
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if a tool's schema or a call's arguments are not valid JSON,
     *     or an extra's value is not a plain JSON value
     */
    public static byte[] encodeRequest(String provider, ChatRequest request, HistoryPolicy policy,
                                       boolean skipSignatureValidation) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(policy, "policy");
        return GeminiRequestEncoder.encode(provider, request, policy, skipSignatureValidation);
    }
}
