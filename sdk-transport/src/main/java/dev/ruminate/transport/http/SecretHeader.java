package dev.ruminate.transport.http;

import java.util.Map;
import java.util.Objects;

/**
 * A header a {@link RequestSigner} adds whose value holds a secret: {@link HttpExchange} sends it
 * and removes the secret from every error it reports. Made by {@link RequestSigner#secretHeader}.
 *
 * <p>{@link #toString()} shows the name only. Entries are compared by identity, as {@link ApiKey}s
 * are, so that no code path compares or hashes the secret. Immutable and thread-safe.
 */
final class SecretHeader implements Map.Entry<String, String> {

    private final String name;
    private final String valuePrefix;
    private final ApiKey secret;

    SecretHeader(String name, String valuePrefix, ApiKey secret) {
        this.name = HttpExchange.Builder.requireHeaderText(name, "name");
        this.valuePrefix = HttpExchange.Builder.requireHeaderText(valuePrefix, "valuePrefix");
        this.secret = Objects.requireNonNull(secret, "secret");
    }

    ApiKey secret() {
        return secret;
    }

    @Override
    public String getKey() {
        return name;
    }

    /** The value as sent: the prefix, then the secret. */
    @Override
    public String getValue() {
        return valuePrefix + secret.reveal();
    }

    @Override
    public String setValue(String value) {
        throw new UnsupportedOperationException("a secret header is immutable");
    }

    @Override
    public String toString() {
        return name + "=" + valuePrefix + "(redacted)";
    }
}
