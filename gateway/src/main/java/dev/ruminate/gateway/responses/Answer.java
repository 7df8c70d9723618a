package dev.ruminate.gateway.responses;

import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * What the gateway answers a request with: a stream of Server-Sent Events, or one JSON body with
 * its status.
 *
 * <p>Implementations are immutable; a {@link Streamed} answer's flux is cold and runs the upstream
 * call when subscribed.
 *
 * @since 0.2
 */
public sealed interface Answer {

    /**
     * A streamed answer.
     *
     * @param frames the Server-Sent Events, each one whole frame as written on the wire (ending in a
     *     blank line); cancelling the subscription cancels the upstream exchange
     * @since 0.2
     */
    record Streamed(Flux<String> frames) implements Answer {

        /**
         * Creates the value.
         *
         * @param frames see {@link #frames()}
         */
        public Streamed {
            Objects.requireNonNull(frames, "frames");
        }
    }

    /**
     * A JSON body.
     *
     * @param status the HTTP status
     * @param json the body
     * @since 0.2
     */
    record Json(int status, String json) implements Answer {

        /**
         * Creates the value.
         *
         * @param status see {@link #status()}
         * @param json see {@link #json()}
         */
        public Json {
            Objects.requireNonNull(json, "json");
        }
    }
}
