package dev.ruminate.providers.spi;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.util.List;

/**
 * What a provider family writes, and all it writes: where a call goes, how a request is encoded,
 * how a streamed response's frames and a whole response body are decoded. Everything else, the
 * history policy before encoding, authentication and signing, the HTTP exchange, framing, error
 * positions, think-tag splitting, timeouts and resilience, is done once for every family by
 * {@link ProviderPipeline}. See {@code docs/adding-a-provider.md}.
 *
 * <p><b>Threading.</b> Implementations are immutable and thread-safe: one codec serves every call
 * of a provider.
 *
 * @param <F> the frame type of the API's streaming framing
 * @since 0.1
 */
public interface WireCodec<F> {

    /**
     * Returns the framing of streamed responses.
     *
     * @return {@link StreamFraming#SSE}, {@link StreamFraming#NDJSON},
     *     {@link StreamFraming#EVENT_STREAM}, {@link StreamFraming#JSON_ARRAY} or
     *     {@link StreamFraming#SSE_OR_JSON_ARRAY}
     */
    StreamFraming<F> framing();

    /**
     * Returns the endpoint of a call.
     *
     * @param base the API root
     * @param request the request (some APIs put the model in the path)
     * @param stream true for a streamed call
     * @return the URI to {@code POST} to
     */
    URI endpoint(BaseUrl base, ChatRequest request, boolean stream);

    /**
     * Encodes a request body. The provider-neutral history rules have already run on the request
     * ({@link dev.ruminate.core.history.History#prepare}); the family's own send-back rules
     * (what of the kept reasoning and opaque state its API takes, and in which form) apply here.
     *
     * @param prepared the request, history prepared
     * @param stream true for a streamed call
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if the request cannot be expressed in this API (the
     *     skeleton reports it as {@link dev.ruminate.core.error.InvalidRequestException})
     */
    byte[] encode(ChatRequest prepared, boolean stream);

    /**
     * Creates the decoder of one streamed response.
     *
     * @param request the request the response answers
     * @return a fresh decoder
     */
    StreamDecoder<F> newStreamDecoder(ChatRequest request);

    /**
     * Decodes a whole (non-streaming) response body into the events a stream would give.
     *
     * @param request the request the response answers
     * @param body the body; not to be modified
     * @return the events
     * @throws tools.jackson.core.JacksonException for malformed JSON and {@link ShapeException}
     *     for a wrong shape (the skeleton adds the position and an excerpt), or a
     *     {@link dev.ruminate.core.error.RuminateException} for an error the body reports
     */
    List<ChatEvent> decodeBody(ChatRequest request, byte[] body);
}
