package dev.ruminate.providers.bedrock;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.wire.EventStreamMessage;
import java.util.Objects;
import java.util.function.Function;
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
public final class BedrockCodec {

    private BedrockCodec() {
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
        return messages -> Flux.defer(() -> {
            BedrockStreamDecoder decoder = new BedrockStreamDecoder(provider, model);
            return messages.concatMapIterable(decoder::onMessage)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(decoder.onComplete())));
        });
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
        Objects.requireNonNull(body, "body");
        return Flux.defer(() -> Flux.fromIterable(BedrockResponseDecoder.decode(provider, model, body)));
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
        Objects.requireNonNull(policy, "policy");
        return BedrockRequestEncoder.encode(provider, request, policy);
    }
}
