package dev.ruminate.providers.spi;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.http.BaseUrl;
import java.net.URI;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A family's way to resume a streamed response that was cut after some of its events, where its
 * API keeps the stream and serves it again (OpenAI Responses background mode). When a pipeline has
 * one ({@link ProviderPipeline.Builder#resumption}), its streamed calls are decoded by
 * {@link #decode} in place of {@link StreamDecoding}: the implementation decodes the first
 * request's frames and, after a cut, those of the reconnections it makes through the
 * {@link Connection}, with one decoder, inside the same flux, so the subscriber sees one response.
 * A cut before the first event is not its business: it passes the error on, and the pipeline's
 * guards retry the call as they would any other.
 *
 * <p><b>Threading.</b> Implementations are immutable and thread-safe; {@link #decode} is called once
 * per subscription and its flux keeps its own state.
 *
 * @param <F> the frame type of the family's framing
 * @since 0.4
 */
public interface StreamResumption<F> {

    /**
     * Decodes one streamed call's frames into events, resuming after cuts.
     *
     * @param request the request as prepared and encoded
     * @param frames the frames of the first request, cold (subscribed once)
     * @param connection makes the reconnections, under the pipeline's authentication and limits
     * @return the events, cold
     */
    Flux<ChatEvent> decode(ChatRequest request, Flux<F> frames, Connection<F> connection);

    /**
     * The requests a resumption may make, with the pipeline's exchange (authentication, signing,
     * secrets kept out of errors), framing and limits.
     *
     * @param <F> the frame type
     * @since 0.4
     */
    interface Connection<F> {

        /**
         * Returns the API root.
         *
         * @return the base URL
         */
        BaseUrl base();

        /**
         * Gets a stream again: {@code GET uri}, its body framed as the first one was.
         *
         * @param uri the resource, query included
         * @return a cold flux of frames; errors as {@link dev.ruminate.transport.http.HttpExchange} gives them
         */
        Flux<F> get(URI uri);

        /**
         * Posts an empty JSON object, for a request such as a cancellation, and discards the answer.
         *
         * @param uri the resource
         * @return a cold mono that completes when the answer arrived, or fails
         */
        Mono<Void> post(URI uri);
    }
}
