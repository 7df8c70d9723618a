package dev.ruminate.providers.bedrock;

import dev.ruminate.transport.http.ApiKey;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * AWS credentials for signing requests: an access key id, its secret, and the session token of
 * temporary credentials.
 *
 * <p>The secret and the token are {@link ApiKey}s, so they never appear in {@code toString},
 * messages or logs; the access key id is shown only by its first four characters. Immutable and
 * thread-safe. For credentials that rotate, supply a new value per request (see the provider's
 * builder).
 *
 * @param accessKeyId the access key id ({@code AKIA…} or {@code ASIA…})
 * @param secretAccessKey the secret access key
 * @param sessionToken the session token of temporary credentials, or null for long-term ones
 * @since 0.1
 */
public record AwsCredentials(String accessKeyId, ApiKey secretAccessKey, @Nullable ApiKey sessionToken) {

    /**
     * Creates the value, checking its components.
     *
     * @param accessKeyId see {@link #accessKeyId()}
     * @param secretAccessKey see {@link #secretAccessKey()}
     * @param sessionToken see {@link #sessionToken()}
     */
    public AwsCredentials {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretAccessKey, "secretAccessKey");
        if (accessKeyId.isBlank()) {
            throw new IllegalArgumentException("accessKeyId is blank");
        }
    }

    /**
     * Creates long-term credentials.
     *
     * @param accessKeyId the access key id
     * @param secretAccessKey the secret access key
     * @return the credentials
     */
    public static AwsCredentials of(String accessKeyId, String secretAccessKey) {
        return new AwsCredentials(accessKeyId, ApiKey.of(secretAccessKey), null);
    }

    /**
     * Reads credentials from the standard environment variables {@code AWS_ACCESS_KEY_ID},
     * {@code AWS_SECRET_ACCESS_KEY} and, if set, {@code AWS_SESSION_TOKEN}.
     *
     * @return the credentials
     * @throws IllegalStateException if the key id or the secret is not set
     */
    public static AwsCredentials fromEnv() {
        String id = System.getenv("AWS_ACCESS_KEY_ID");
        if (id == null || id.isBlank()) {
            throw new IllegalStateException("AWS_ACCESS_KEY_ID is not set");
        }
        String token = System.getenv("AWS_SESSION_TOKEN");
        return new AwsCredentials(id, ApiKey.fromEnv("AWS_SECRET_ACCESS_KEY"),
                token == null || token.isBlank() ? null : ApiKey.fromEnv("AWS_SESSION_TOKEN"));
    }

    @Override
    public String toString() {
        String shown = accessKeyId.length() <= 4 ? "****" : accessKeyId.substring(0, 4) + "****";
        return "AwsCredentials[accessKeyId=" + shown + ", secretAccessKey=(redacted)"
                + (sessionToken != null ? ", sessionToken=(redacted)" : "") + "]";
    }
}
