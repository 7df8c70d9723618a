package dev.ruminate.providers.bedrock;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.transport.http.RequestSigner;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Signs each request with the credentials current at that moment: the credentials source is
 * subscribed per request, so rotating credentials (an STS session, an instance role) are picked up
 * without rebuilding the client.
 */
final class SigV4RequestSigner implements RequestSigner {

    private final String provider;
    private final SigV4Signer signer;
    private final Mono<AwsCredentials> credentials;
    private final Clock clock;

    SigV4RequestSigner(String provider, SigV4Signer signer, Mono<AwsCredentials> credentials, Clock clock) {
        this.provider = provider;
        this.signer = signer;
        this.credentials = credentials;
        this.clock = clock;
    }

    @Override
    public Mono<List<Map.Entry<String, String>>> sign(String method, URI uri, List<Map.Entry<String, String>> headers,
                                                      byte[] body) {
        return credentials
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("the AWS credentials source completed empty")))
                .map(c -> signer.sign(method, uri.getRawPath(), uri.getRawQuery(), headers, body, c, clock.instant())
                        .addedHeaders())
                // the source's own error may name a profile or file, never a secret we hold
                .onErrorMap(e -> !(e instanceof RuminateException),
                        e -> new InvalidRequestException(provider, "no AWS credentials to sign it: " + e.getMessage(), e));
    }

    @Override
    public String toString() {
        return "SigV4RequestSigner[credentials=(redacted)]";
    }
}
