package dev.ruminate.testkit;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/** A plain Reactor Netty client for talking to the emulator over real HTTP in tests. */
final class Http {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A whole response as the client received it. */
    record Received(int status, HttpHeaders headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private Http() {
    }

    static HttpClient client(URI baseUrl) {
        return HttpClient.create().baseUrl(baseUrl.toString());
    }

    static Mono<Received> exchange(URI baseUrl, HttpMethod method, String uri, Map<String, String> headers,
                                   String body) {
        return client(baseUrl)
                .headers(h -> headers.forEach(h::add))
                .request(method)
                .uri(uri)
                .send(ByteBufFlux.fromString(Mono.just(body)))
                .responseSingle((response, content) -> content.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> new Received(response.status().code(), response.responseHeaders(), bytes)));
    }

    static Received get(URI baseUrl, String uri) {
        Received received = client(baseUrl).get().uri(uri)
                .responseSingle((response, content) -> content.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> new Received(response.status().code(), response.responseHeaders(), bytes)))
                .block(TIMEOUT);
        if (received == null) {
            throw new AssertionError("no response for GET " + uri);
        }
        return received;
    }

    static Received post(URI baseUrl, String uri, Map<String, String> headers, String body) {
        Received received = exchange(baseUrl, HttpMethod.POST, uri, headers, body).block(TIMEOUT);
        if (received == null) {
            throw new AssertionError("no response for POST " + uri);
        }
        return received;
    }
}
