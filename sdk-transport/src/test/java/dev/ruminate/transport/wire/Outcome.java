package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Everything a decoded body produced, as a comparable value: the frames, then the protocol error
 * that ended it, if any.
 *
 * @param frames the frames, in order
 * @param error the error, or null when the body decoded completely
 * @param <T> the frame value type
 */
record Outcome<T>(List<T> frames, @Nullable Failure error) {

    /** Where and why decoding failed. */
    record Failure(ProtocolException.Reason reason, long line, long byteOffset) {
    }

    /** Runs a decoder to its end; errors other than protocol errors fail the test. */
    static <F, T> Outcome<T> of(Flux<F> decoded, Function<F, T> value) {
        List<T> frames = new ArrayList<>();
        AtomicReference<@Nullable Failure> failure = new AtomicReference<>();
        decoded.map(value)
                .doOnNext(frames::add)
                .onErrorResume(ProtocolException.class, error -> {
                    failure.set(new Failure(error.reason(), error.line(), error.byteOffset()));
                    return Mono.empty();
                })
                .blockLast(Duration.ofSeconds(30));
        return new Outcome<>(frames, failure.get());
    }

    static Outcome<SseEventValue> sse(Flux<ByteBuf> body, WireLimits limits) {
        return of(ServerSentEvents.decode(body, limits), SseEventValue::of);
    }

    static Outcome<JsonLineValue> jsonLines(Flux<ByteBuf> body, WireLimits limits) {
        return of(JsonLines.decode(body, limits), JsonLineValue::of);
    }
}
