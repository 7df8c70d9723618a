package dev.ruminate.transport.wire;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.spi.StreamDecoder;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Benchmark-only bridge to the lending {@link EventStreamFramer} (package-private): decodes each buffer's
 * messages inside the read that completes them, as the provider path does once main wires lent frames, so that
 * {@code DecodeBenchmark.bedrockLentDecodeReduce} can measure it before that. Lives in the framer's package in the
 * benchmarks jar (class path only). Not thread-safe per subscription; a fresh framer and decoder per subscription.
 */
public final class LentEventStreamBench {

    private LentEventStreamBench() {
    }

    /**
     * Frames a body with a lending framer and decodes each message during the read that completed it.
     *
     * @param body the body's buffers, valid only during {@code onNext}
     * @param decoders creates the stream decoder of each subscription
     * @return the decoded events
     */
    public static Flux<ChatEvent> decode(Flux<ByteBuf> body, Supplier<StreamDecoder<EventStreamMessage>> decoders) {
        return Flux.defer(() -> {
            EventStreamFramer framer = new EventStreamFramer(WireLimits.DEFAULT, true);
            StreamDecoder<EventStreamMessage> decoder = decoders.get();
            List<EventStreamMessage> frames = new ArrayList<>();
            return body.map(buf -> {
                List<ChatEvent> events = new ArrayList<>(4);
                framer.feed(buf, frames);
                for (EventStreamMessage m : frames) {
                    decoder.decode(m, events);
                }
                frames.clear();
                return events;
            }).concatWith(Mono.fromSupplier(() -> {
                List<ChatEvent> events = new ArrayList<>(4);
                framer.finish(frames);
                for (EventStreamMessage m : frames) {
                    decoder.decode(m, events);
                }
                frames.clear();
                decoder.end(events);
                return events;
            })).concatMapIterable(events -> events);
        });
    }
}
