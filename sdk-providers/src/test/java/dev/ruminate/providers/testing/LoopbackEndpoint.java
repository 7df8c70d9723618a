package dev.ruminate.providers.testing;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A real HTTP server on loopback, port 0, answering each request with a function of it and recording
 * what arrived: the stand-in for a credentials endpoint (STS, container credentials, instance metadata,
 * an OAuth token endpoint) that the credential libraries call over the network.
 */
public final class LoopbackEndpoint implements AutoCloseable {

    /** A request as it arrived; header names lower case. */
    public record Seen(String method, String path, Map<String, String> headers, String body) {
        /** The header's value, or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** An answer. */
    public record Answer(int status, String contentType, String body) {
        /** A 200 JSON answer. */
        public static Answer json(String body) {
            return new Answer(200, "application/json", body);
        }

        /** A 404. */
        public static Answer notFound() {
            return new Answer(404, "text/plain", "not found");
        }
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final DisposableServer server;

    /** Starts the server. */
    public LoopbackEndpoint(Function<Seen, Answer> answers) {
        server = HttpServer.create().host("127.0.0.1").port(0)
                .handle((request, response) -> request.receive().aggregate().asString(StandardCharsets.UTF_8)
                        .defaultIfEmpty("")
                        .flatMap(body -> {
                            Map<String, String> headers = new LinkedHashMap<>();
                            request.requestHeaders().forEach(h -> headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
                            Seen s = new Seen(request.method().name(), request.uri(), headers, body);
                            seen.add(s);
                            Answer a = answers.apply(s);
                            return response.status(HttpResponseStatus.valueOf(a.status()))
                                    .header("Content-Type", a.contentType())
                                    .sendString(Mono.just(a.body())).then();
                        }))
                .bindNow();
    }

    /** The server's URL, {@code http://127.0.0.1:PORT}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    /** Every request so far, in order. */
    public List<Seen> seen() {
        return List.copyOf(seen);
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
