package dev.ruminate.providers.fuzz;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.core.think.ThinkTags;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs a family's decoders on fuzz input the way {@code ProviderPipeline} does, without HTTP: a
 * streamed body through the codec's framing, {@link StreamDecoding} with the codec's stream decoder
 * and, when asked, the think-tag splitter; a whole body through {@link BodyDecoding} with the codec's
 * body decoder. Then the events are reduced, as a caller's {@code chat} would.
 *
 * <p>The property: decoding either gives events or ends with a {@link RuminateException} (the
 * typed errors the SPI documents: {@code ProtocolException} for malformed JSON or a wrong shape,
 * {@code ProviderStreamException} for an error the provider reported, {@code IncompleteStreamException}
 * for a body that ended too soon), never another exception; so does the reduction of what it gave.
 * Buffers are pooled direct ones released when {@code onNext} returns, as Reactor Netty does; one
 * kept or released by the decoders fails the release check, one leaked shows in {@code NettyLeakCheck}.
 *
 * <p>Input: byte 0 is the target's variant: bit 0 set decodes a whole body instead of a stream, the
 * other bits pick the target's profile; byte 1 the largest buffer (1 to 64 bytes, 0 for one buffer);
 * byte 2 seeds the buffer sizes; byte 3 bit 0 runs the think-tag splitter over the events. The rest
 * is the body.
 */
final class FamilyDecoding {

    static final int HEADER = 4;
    static final ChatRequest REQUEST = ChatRequest.builder("fuzz-model").user("Hi").build();
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    private FamilyDecoding() {
    }

    /** Returns the variant bits above bit 0 (the profile), from the input's first byte. */
    static int profile(byte[] data) {
        return data.length == 0 ? 0 : (data[0] & 0xff) >>> 1;
    }

    /** Returns the body, after the header. */
    static byte[] body(byte[] data) {
        return data.length > HEADER ? Arrays.copyOfRange(data, HEADER, data.length) : new byte[0];
    }

    /** Decodes the input as a stream or a whole body, as its header says, and reduces the events. */
    static <F> void run(WireCodec<F> codec, byte[] data) {
        byte[] header = Arrays.copyOf(data, HEADER);
        run(codec, header, body(data));
    }

    /** Decodes the body as the header says (the body given separately, for targets that build it). */
    static <F> void run(WireCodec<F> codec, byte[] header, byte[] body) {
        @Nullable ThinkTagOptions thinkTags = (header[3] & 1) == 1 ? ThinkTagOptions.DEFAULT : null;
        Flux<ChatEvent> events;
        if ((header[0] & 1) == 1) {
            events = Flux.defer(() -> Flux.fromIterable(BodyDecoding.decode(body, b -> codec.decodeBody(REQUEST, b))));
        } else {
            events = codec.framing().decode(released(split(body, header[1] & 0x3f, header[2])), WireLimits.DEFAULT)
                    .transform(StreamDecoding.operator(codec.framing(), () -> codec.newStreamDecoder(REQUEST)));
        }
        if (thinkTags != null) {
            events = events.transform(ThinkTags.splitter(thinkTags));
        }
        List<ChatEvent> decoded = new ArrayList<>();
        RuminateException[] failure = {null};
        events.doOnNext(decoded::add)
                // the typed errors end the stream; anything else propagates and is a finding
                .onErrorResume(RuminateException.class, e -> {
                    failure[0] = e;
                    return Mono.empty();
                })
                .blockLast(WAIT);
        Flux<ChatEvent> replay = Flux.fromIterable(decoded);
        if (failure[0] != null) {
            replay = replay.concatWith(Flux.error(failure[0]));
        }
        try {
            ChatReducer.defaults().reduce(replay).block(WAIT);
        } catch (RuminateException expected) {
            // a failed or incomplete response fails its reduction with a typed error
        }
    }

    /** The chunks as Reactor Netty delivers them: allocated on demand, released when onNext returns. */
    private static Flux<ByteBuf> released(List<byte[]> chunks) {
        return Flux.generate(() -> 0, (index, sink) -> {
            if (index == chunks.size()) {
                sink.complete();
                return index;
            }
            byte[] chunk = chunks.get(index);
            ByteBuf buf = ALLOCATOR.directBuffer(Math.max(1, chunk.length)).writeBytes(chunk);
            try {
                sink.next(buf);
            } finally {
                // false: a decoder retained it; an IllegalReferenceCountException: one released it
                if (!buf.release()) {
                    throw new AssertionError("a decoder kept a reference to buffer " + index);
                }
            }
            return index + 1;
        });
    }

    private static List<byte[]> split(byte[] body, int maxChunk, long seed) {
        if (maxChunk == 0) {
            return List.of(body);
        }
        Random random = new Random(seed);
        List<byte[]> chunks = new ArrayList<>();
        int position = 0;
        while (position < body.length) {
            int end = Math.min(body.length, position + random.nextInt(maxChunk + 1));
            chunks.add(Arrays.copyOfRange(body, position, end));
            position = end;
        }
        return chunks;
    }

    /** Picks one of the options by the profile bits, wrapping around. */
    static <T> T pick(byte[] data, List<T> options) {
        return options.get(profile(data) % options.size());
    }
}
