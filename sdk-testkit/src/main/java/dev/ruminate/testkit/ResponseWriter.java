package dev.ruminate.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Writes one {@link EmulatorResponse} to a Reactor Netty server response, chunk by chunk, and
 * carries out its fault.
 *
 * <p>Body chunks become {@link ByteBuf}s only when they are about to be written, so a cancelled
 * or stalled response never holds a buffer that nobody will release; Netty releases each one
 * after writing it.
 */
final class ResponseWriter {

    // Flushing every chunk puts each one on the wire on its own rather than letting Netty coalesce them.
    private static final Predicate<ByteBuf> FLUSH_EVERY_CHUNK = chunk -> true;

    private ResponseWriter() {
    }

    static Mono<Void> write(EmulatorResponse response, HttpServerResponse out) {
        out.status(response.status());
        String contentType = response.contentType();
        if (contentType != null) {
            out.header(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        for (Map.Entry<String, String> header : response.headers()) {
            out.addHeader(header.getKey(), header.getValue());
        }
        byte[] body = response.bodyBytes();
        if (response.fixedLength()) {
            out.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
        } else {
            out.header(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        WriteProbe probe = response.probe();
        if (probe != null) {
            return observed(response, body, probe, out);
        }
        return switch (response.fault()) {
            case NONE -> out.send(chunks(response, body), FLUSH_EVERY_CHUNK).then();
            case RESET -> Mono.from(out.sendHeaders())
                    .then(out.send(chunks(response, prefix(response, body)), FLUSH_EVERY_CHUNK).then())
                    .then(closeConnection(out));
            case STALL -> Mono.from(out.sendHeaders())
                    .then(out.send(chunks(response, prefix(response, body)).concatWith(Flux.never()),
                            FLUSH_EVERY_CHUNK).then());
        };
    }

    /**
     * Writes a response a probe watches: slices of the body array (no copies), each flushed, pulled
     * by Reactor Netty only while the channel is writable.
     */
    private static Mono<Void> observed(EmulatorResponse response, byte[] body, WriteProbe probe,
                                       HttpServerResponse out) {
        out.withConnection(connection -> probe.attach(connection.channel(), body.length));
        int length = response.fault() == EmulatorResponse.Fault.NONE ? body.length : response.faultAfter();
        Flux<ByteBuf> slices = Flux.range(0, (length + WriteProbe.SLICE_BYTES - 1) / WriteProbe.SLICE_BYTES)
                .map(i -> {
                    int from = i * WriteProbe.SLICE_BYTES;
                    return Unpooled.wrappedBuffer(body, from, Math.min(WriteProbe.SLICE_BYTES, length - from));
                });
        return switch (response.fault()) {
            case NONE -> out.send(slices, FLUSH_EVERY_CHUNK).then().doOnSuccess(done -> probe.done());
            case RESET -> Mono.from(out.sendHeaders())
                    .then(out.send(slices, FLUSH_EVERY_CHUNK).then())
                    .then(closeConnection(out));
            case STALL -> Mono.from(out.sendHeaders())
                    .then(out.send(slices.concatWith(Flux.never()), FLUSH_EVERY_CHUNK).then());
        };
    }

    private static byte[] prefix(EmulatorResponse response, byte[] body) {
        return Arrays.copyOf(body, response.faultAfter());
    }

    private static Flux<ByteBuf> chunks(EmulatorResponse response, byte[] bytes) {
        List<byte[]> pieces = response.chunkPlan().split(bytes);
        Duration delay = response.chunkDelay();
        Flux<byte[]> timed = Flux.fromIterable(pieces);
        if (!delay.isZero() && pieces.size() > 1) {
            timed = Flux.just(pieces.get(0))
                    .concatWith(Flux.fromIterable(pieces.subList(1, pieces.size())).delayElements(delay));
        }
        return timed.map(Unpooled::wrappedBuffer);
    }

    // Closing the channel mid-body is the fault itself: completing the handler instead would make
    // Reactor Netty finish the response properly. The handler ends only once the close is done.
    private static Mono<Void> closeConnection(HttpServerResponse out) {
        return Mono.create(sink -> out.withConnection(
                connection -> connection.channel().close().addListener(done -> sink.success())));
    }
}
