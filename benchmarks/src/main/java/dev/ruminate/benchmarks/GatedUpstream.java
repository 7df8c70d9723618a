package dev.ruminate.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A Chat Completions upstream for {@link GatewayStreams} that holds every stream open mid-stream until told to go
 * on: {@code POST /chat/completions} sends the headers and the first {@link #HEAD_EVENTS} events of
 * {@link ReasoningStream}'s 20-chunk stream, then waits, silent, until {@code POST /release}, then sends the rest and
 * ends. The test kit's emulator can hold a stream ({@code stallAfter}) but never resumes it, and these streams must
 * complete to show they still work. Also serves {@code GET /held} (streams waiting now) and {@code GET /heap} (this
 * JVM's used heap after garbage collection, in bytes), so that a client in another JVM can read the heap of the JVM
 * that runs this upstream and the gateway.
 */
final class GatedUpstream implements AutoCloseable {

    /** Events sent before a stream is held: the role chunk and the first reasoning chunk. */
    static final int HEAD_EVENTS = 2;

    final ReasoningStream stream = ReasoningStream.generate(20, 42);
    private final byte[] head;
    private final byte[] tail;
    private final AtomicReference<Sinks.Empty<Void>> gate = new AtomicReference<>(Sinks.empty());
    private final AtomicInteger held = new AtomicInteger();
    private final DisposableServer server;

    GatedUpstream() {
        int cut = 0;
        for (int i = 0; i < HEAD_EVENTS; i++) {
            cut += "data: ".length() + stream.payloads.get(i).length + 2;
        }
        head = Arrays.copyOfRange(stream.sse, 0, cut);
        tail = Arrays.copyOfRange(stream.sse, cut, stream.sse.length);
        server = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes
                        .post("/chat/completions", (request, response) -> response
                                .header("Content-Type", "text/event-stream")
                                // no keep-alive: every round opens every connection anew, so that a round's heap
                                // reading holds all of its streams' connections, none left over from an earlier one
                                .keepAlive(false)
                                .send(body()))
                        .post("/release", (request, response) -> response.sendString(
                                request.receive().then().then(Mono.fromCallable(() -> Integer.toString(release())))))
                        .get("/held", (request, response) -> response.sendString(Mono.fromCallable(
                                () -> Integer.toString(held.get()))))
                        .get("/heap", (request, response) -> response.sendString(Mono.fromCallable(
                                () -> Long.toString(OpenStreams.settledHeap(ManagementFactory.getMemoryMXBean())))
                                .subscribeOn(Schedulers.boundedElastic()))))
                .bindNow();
    }

    /** The head, then (after the gate opens) the tail; counted as held while waiting at the gate. */
    private Flux<ByteBuf> body() {
        Mono<Void> open = gate.get().asMono()
                .doOnSubscribe(s -> held.incrementAndGet())
                .doFinally(s -> held.decrementAndGet());
        return Flux.concat(Mono.fromCallable(() -> Unpooled.wrappedBuffer(head)), open.then(Mono.fromCallable(
                () -> Unpooled.wrappedBuffer(tail))));
    }

    /** Lets every held stream finish; streams started later are held again. Returns how many were held. */
    private int release() {
        int n = held.get();
        gate.getAndSet(Sinks.empty()).tryEmitEmpty();
        return n;
    }

    /** This upstream's root URL, {@code http://127.0.0.1:PORT}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
