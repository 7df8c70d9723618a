package dev.ruminate.testkit;

import io.netty.channel.Channel;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Runs a real HTTP/1.1 server on {@code 127.0.0.1} (a free port) that plays a model provider:
 * it answers every request, whatever its method and path, with the next queued
 * {@link EmulatorResponse}, and records what the client sent.
 *
 * <pre>{@code
 * try (ProviderEmulator emulator = ProviderEmulator.start()) {
 *     emulator.enqueue(ChatCompletionsScript.create()
 *             .reasoning("The user wants a greeting.")
 *             .content("Hello!")
 *             .usage(12, 9, 5)
 *             .toResponse());
 *     // point the client under test at emulator.baseUrl() and run it …
 *     assertThat(emulator.requests()).singleElement()
 *             .satisfies(sent -> assertThat(sent.path()).isEqualTo("/v1/chat/completions"));
 * }
 * }</pre>
 *
 * <p>Serving order: queued responses first, one per request, in the order they were queued; when
 * the queue is empty, the {@linkplain #always(EmulatorResponse) standing response}; with neither,
 * a 500 whose JSON body says that nothing was queued, so a test that forgot a response fails
 * loudly rather than hanging.
 *
 * <p>Threading: all methods are thread-safe. Requests are served on Reactor Netty's shared event
 * loops; timed chunks use Reactor's parallel scheduler. Nothing sleeps.
 *
 * @since 0.1
 */
public final class ProviderEmulator implements AutoCloseable {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final JsonFactory JSON = new JsonFactory();

    private final Queue<EmulatorResponse> queue = new ConcurrentLinkedQueue<>();
    private final List<Exchange> exchanges = new ArrayList<>();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile @Nullable EmulatorResponse standing;
    private volatile @Nullable AcceptanceRules rules;
    private volatile @Nullable Function<RecordedRequest, @Nullable EmulatorResponse> router;
    private final DisposableServer server;

    /** A recorded request and the close signal of the connection that carried it. */
    private record Exchange(RecordedRequest request, Mono<Void> connectionClosed) {
    }

    private ProviderEmulator() {
        this.server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .doOnChannelInit((observer, channel, remoteAddress) -> track(channel))
                .handle(this::serve)
                .bindNow();
    }

    /**
     * Starts an emulator on {@code 127.0.0.1} on a free port.
     *
     * <p>Blocks until the port is bound; call it from test set-up, not from an event loop.
     *
     * @return the running emulator; {@link #close()} it when done
     * @since 0.1
     */
    public static ProviderEmulator start() {
        return new ProviderEmulator();
    }

    /**
     * Returns the emulator's root URL, {@code http://127.0.0.1:<port>}, without a trailing slash.
     *
     * <p>Use it as the client's base URL, with whatever path prefix the provider needs
     * ({@code baseUrl() + "/v1"}); the emulator answers on every path.
     *
     * @return the base URL
     * @since 0.1
     */
    public URI baseUrl() {
        return URI.create("http://" + server.host() + ":" + server.port());
    }

    /**
     * Queues a response for one future request.
     *
     * @param response the response to serve
     * @return this emulator, to chain more calls
     * @since 0.1
     */
    public ProviderEmulator enqueue(EmulatorResponse response) {
        queue.add(Objects.requireNonNull(response, "response"));
        return this;
    }

    /**
     * Sets the response served whenever the queue is empty.
     *
     * @param response the standing response, or {@code null} to answer with the "nothing queued" 500 again
     * @return this emulator, to chain more calls
     * @since 0.1
     */
    public ProviderEmulator always(@Nullable EmulatorResponse response) {
        this.standing = response;
        return this;
    }

    /**
     * Makes the emulator check every request the way the provider does: a request that breaks one
     * of the rules is answered with the provider's 4xx status and error body (and recorded with
     * {@link RecordedRequest#rejectedBy()} naming the rule), and does not take a queued response;
     * a request that passes is served as usual, and the rules see the response served.
     *
     * @param acceptanceRules the rules to apply, or {@code null} to stop checking
     * @return this emulator, to chain more calls
     * @since 0.2
     */
    public ProviderEmulator checking(@Nullable AcceptanceRules acceptanceRules) {
        this.rules = acceptanceRules;
        return this;
    }

    /**
     * Lets a stateful part of the emulated API answer the requests it knows before the queue is
     * consulted, such as {@link ResponsesBackground}'s stored streams: a request it answers (a non-null
     * response) is recorded and served that response, unchecked by the
     * {@linkplain #checking acceptance rules} and without taking a queued response; for any other it
     * returns null and the request is served as usual.
     *
     * <pre>{@code
     * ResponsesBackground stored = ResponsesBackground.create();
     * emulator.routing(stored::answer).enqueue(stored.cutAfter(script.toSse(), 3));
     * }</pre>
     *
     * @param value the router, called on an event loop (it must not block), or null for none
     * @return this emulator, to chain more calls
     * @since 0.4
     */
    public ProviderEmulator routing(@Nullable Function<RecordedRequest, @Nullable EmulatorResponse> value) {
        this.router = value;
        return this;
    }

    /**
     * Returns the requests received so far, oldest first.
     *
     * <p>A request is recorded once its body has been read, before its response starts, so by the
     * time a client sees the response status the request is in this list.
     *
     * @return an immutable snapshot
     * @since 0.1
     */
    public List<RecordedRequest> requests() {
        synchronized (exchanges) {
            List<RecordedRequest> requests = new ArrayList<>(exchanges.size());
            for (Exchange exchange : exchanges) {
                requests.add(exchange.request());
            }
            return List.copyOf(requests);
        }
    }

    /**
     * Returns a signal that completes when the connection that carried a request is closed, by
     * either side.
     *
     * <p>This is how a test sees that cancelling a subscription really closed the HTTP exchange:
     *
     * <pre>{@code
     * emulator.enqueue(EmulatorResponse.sse(body).stallAfter(64));
     * client.stream(request).take(1).blockLast();           // cancels after the first event
     * StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Duration.ofSeconds(5));
     * }</pre>
     *
     * <p>A connection kept alive for reuse stays open after its response; the signal completes
     * only when it is actually closed.
     *
     * @param requestIndex the request's position in {@link #requests()}
     * @return a {@code Mono} that completes empty when the connection is closed (at once if it already is)
     * @throws IndexOutOfBoundsException if no request with that index has been received yet
     * @since 0.1
     */
    public Mono<Void> connectionClosed(int requestIndex) {
        synchronized (exchanges) {
            return exchanges.get(requestIndex).connectionClosed();
        }
    }

    /**
     * Returns the number of client connections currently open.
     *
     * @return the open connection count
     * @since 0.1
     */
    public int openConnections() {
        int open = 0;
        for (Channel channel : channels) {
            // The set drops a channel only after its close listeners ran; isOpen() is exact at once.
            if (channel.isOpen()) {
                open++;
            }
        }
        return open;
    }

    /**
     * Stops the server and closes every open connection; idempotent.
     *
     * <p>Waits up to five seconds for the port to be released and the connections to close, except
     * on a non-blocking thread (an event loop), where it only starts the shutdown.
     *
     * @since 0.1
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<Channel> open = List.copyOf(channels);
        open.forEach(Channel::close);
        if (Schedulers.isInNonBlockingThread()) {
            server.dispose();
            return;
        }
        server.disposeNow(CLOSE_TIMEOUT);
        for (Channel channel : open) {
            channel.closeFuture().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
        }
    }

    /**
     * Describes the emulator.
     *
     * @return its base URL and how many responses are queued and requests recorded
     */
    @Override
    public String toString() {
        return "ProviderEmulator[" + baseUrl() + ", queued=" + queue.size() + ", requests=" + requests().size() + "]";
    }

    private void track(Channel channel) {
        channels.add(channel);
        channel.closeFuture().addListener(done -> channels.remove(channel));
    }

    private Mono<Void> serve(HttpServerRequest in, HttpServerResponse out) {
        return in.receive().aggregate().asString(StandardCharsets.UTF_8).defaultIfEmpty("").flatMap(body -> {
            RecordedRequest request = new RecordedRequest(in.method().name(), in.uri(), headersOf(in), body);
            Function<RecordedRequest, @Nullable EmulatorResponse> routed = router;
            EmulatorResponse answered = routed == null ? null : routed.apply(request);
            if (answered != null) {
                record(in, request);
                return ResponseWriter.write(answered, out);
            }
            AcceptanceRules checked = rules;
            Violation violation = checked == null ? null : checked.check(request);
            if (violation != null) {
                request = request.rejected(violation.rule());
            }
            record(in, request);
            EmulatorResponse response;
            if (checked != null && violation != null) {
                response = checked.reject(violation);
            } else {
                response = next(request);
                if (checked != null) {
                    checked.served(response);
                }
            }
            return ResponseWriter.write(response, out);
        });
    }

    private void record(HttpServerRequest in, RecordedRequest request) {
        Sinks.Empty<Void> connectionClosed = Sinks.empty();
        in.withConnection(connection -> connection.onDispose(connectionClosed::tryEmitEmpty));
        synchronized (exchanges) {
            exchanges.add(new Exchange(request, connectionClosed.asMono()));
        }
    }

    private EmulatorResponse next(RecordedRequest request) {
        EmulatorResponse queued = queue.poll();
        if (queued != null) {
            return queued;
        }
        EmulatorResponse fallback = standing;
        return fallback != null ? fallback : nothingQueued(request);
    }

    private static Map<String, List<String>> headersOf(HttpServerRequest in) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (Map.Entry<String, String> header : in.requestHeaders()) {
            headers.computeIfAbsent(header.getKey(), name -> new ArrayList<>()).add(header.getValue());
        }
        return headers;
    }

    private static EmulatorResponse nothingQueued(RecordedRequest request) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(ObjectWriteContext.empty(), text)) {
            json.writeStartObject();
            json.writeName("error");
            json.writeStartObject();
            json.writeStringProperty("type", "emulator_error");
            json.writeStringProperty("message", "ProviderEmulator has no response queued for "
                    + request.method() + " " + request.path() + "; call enqueue(…) or always(…) first");
            json.writeEndObject();
            json.writeEndObject();
        }
        return EmulatorResponse.json(500, text.toString());
    }
}
