package dev.ruminate.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The Chat Completions upstream of the scale runs ({@link ScaleStreams}): every request gets a stream of its own,
 * generated from a seed written in the request, and every stream is held after its first events until the client
 * says that all of its streams are open.
 *
 * <ul>
 *   <li>{@code POST /chat/completions}: the body must contain {@code scale-seed-N} (anywhere: in a user message, as
 *       the provider or the gateway writes it); the answer is {@link #stream(long)} of that seed. The headers and the
 *       first {@link #HEAD_EVENTS} events go out at once; the rest waits at the gate. No keep-alive: each round opens
 *       its connections anew, so that a heap reading holds every stream's connection.</li>
 *   <li>{@code POST /release/N}: waits until at least N streams wait at the gate, then lets every waiting stream
 *       finish; answers with the number released. Streams that arrive later wait for the next release.</li>
 *   <li>{@code GET /held/N}: answers once at least N streams wait at the gate, with their number.</li>
 *   <li>{@code GET /heap}: this JVM's used heap after garbage collection, in bytes.</li>
 * </ul>
 *
 * <p>Thread-safe: the gate is guarded by its monitor; requests are served on Reactor Netty's event loops.
 */
final class ScaleUpstream implements AutoCloseable {

    /** Events sent before a stream waits: the role chunk and the first reasoning chunk. */
    static final int HEAD_EVENTS = 2;

    private static final Pattern SEED = Pattern.compile("scale-seed-(\\d+)");

    private final Gate gate = new Gate();
    private final DisposableServer server;

    ScaleUpstream() {
        server = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes
                        .post("/chat/completions", (request, response) -> request.receive().aggregate().asString()
                                .flatMap(body -> {
                                    Matcher m = SEED.matcher(body);
                                    if (!m.find()) {
                                        return response.status(400).sendString(Mono.just("no scale-seed-N")).then();
                                    }
                                    return response.header("Content-Type", "text/event-stream").keepAlive(false)
                                            .send(body(Long.parseLong(m.group(1)))).then();
                                }))
                        .post("/release/{when}", (request, response) -> {
                            int when = Integer.parseInt(Objects.requireNonNull(request.param("when")));
                            return response.sendString(request.receive().then()
                                    .then(gate.releaseWhen(when)).map(n -> Integer.toString(n)));
                        })
                        .get("/held/{atLeast}", (request, response) -> {
                            int atLeast = Integer.parseInt(Objects.requireNonNull(request.param("atLeast")));
                            return response.sendString(gate.awaitHeld(atLeast).map(n -> Integer.toString(n)));
                        })
                        .get("/heap", (request, response) -> response.sendString(Mono.fromCallable(
                                () -> Long.toString(OpenStreams.settledHeap(ManagementFactory.getMemoryMXBean())))
                                .subscribeOn(Schedulers.boundedElastic()))))
                .bindNow();
    }

    /** The answer to the request carrying {@code seed}: 20 to 32 chunks, so that usage differs between seeds too. */
    static ReasoningStream stream(long seed) {
        return ReasoningStream.generate(20 + (int) (seed % 13), seed);
    }

    /** The marker a request carries so that this upstream answers it with {@link #stream(long)} of the seed. */
    static String marker(long seed) {
        return "scale-seed-" + seed;
    }

    /** The head, then (after the gate opens) the tail. */
    private Flux<ByteBuf> body(long seed) {
        byte[] sse = stream(seed).sse;
        int cut = 0;
        for (int i = 0; i < HEAD_EVENTS; i++) {
            cut = indexOfEventEnd(sse, cut);
        }
        byte[] head = Arrays.copyOfRange(sse, 0, cut);
        byte[] tail = Arrays.copyOfRange(sse, cut, sse.length);
        return Flux.concat(Mono.fromCallable(() -> Unpooled.wrappedBuffer(head)),
                Mono.defer(gate::hold).then(Mono.fromCallable(() -> Unpooled.wrappedBuffer(tail))));
    }

    /** The index just past the blank line that ends the event starting at {@code from}. */
    private static int indexOfEventEnd(byte[] sse, int from) {
        for (int i = from; i + 1 < sse.length; i++) {
            if (sse[i] == '\n' && sse[i + 1] == '\n') {
                return i + 2;
            }
        }
        throw new IllegalStateException("no event end after " + from);
    }

    /** This upstream's root URL, {@code http://127.0.0.1:PORT}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }

    /** The port it listens on. */
    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow();
    }

    /** Streams waiting to finish, and the one pending release; the counts are guarded by the monitor. */
    private static final class Gate {
        private Sinks.Empty<Void> open = Sinks.empty();
        private int waiting;
        private int releaseAt = Integer.MAX_VALUE;
        private Sinks.One<Integer> released = Sinks.one();
        private final List<Waiter> waiters = new ArrayList<>();

        /** A pending {@code /held} call. */
        private record Waiter(int atLeast, Sinks.One<Integer> answer) {
        }

        /** Counts a stream as waiting; the returned signal completes at the next release. */
        Mono<Void> hold() {
            Mono<Void> signal;
            Runnable release;
            List<Runnable> answers = new ArrayList<>();
            synchronized (this) {
                waiting++;
                signal = open.asMono();
                for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                    Waiter w = it.next();
                    if (waiting >= w.atLeast) {
                        it.remove();
                        int n = waiting;
                        answers.add(() -> w.answer.tryEmitValue(n));
                    }
                }
                release = due();
            }
            answers.forEach(Runnable::run);
            release.run();
            return signal;
        }

        /** Completes with the number waiting once at least {@code n} streams wait. */
        Mono<Integer> awaitHeld(int n) {
            Sinks.One<Integer> answer = Sinks.one();
            int now;
            synchronized (this) {
                now = waiting;
                if (now < n) {
                    waiters.add(new Waiter(n, answer));
                }
            }
            if (now >= n) {
                answer.tryEmitValue(now);
            }
            return answer.asMono();
        }

        /** Completes with the number released once {@code n} streams wait and have been let go. */
        Mono<Integer> releaseWhen(int n) {
            Sinks.One<Integer> answer = Sinks.one();
            Runnable release;
            synchronized (this) {
                released = answer;
                releaseAt = n;
                release = due();
            }
            release.run();
            return answer.asMono();
        }

        /**
         * What to do, outside the monitor, if the pending release is due: every sink taken here is emitted to once,
         * by the one caller that took it, so the emissions cannot fail as non-serialized; the streams resume on the
         * caller's thread, and their writes go to their own event loops.
         */
        private Runnable due() {
            if (waiting < releaseAt) {
                return () -> { };
            }
            Sinks.Empty<Void> gone = open;
            int n = waiting;
            Sinks.One<Integer> answer = released;
            open = Sinks.empty();
            waiting = 0;
            releaseAt = Integer.MAX_VALUE;
            released = Sinks.one();
            return () -> {
                gone.tryEmitEmpty();
                answer.tryEmitValue(n);
            };
        }
    }
}
