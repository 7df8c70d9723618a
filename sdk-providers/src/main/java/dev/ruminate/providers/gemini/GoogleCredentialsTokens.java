package dev.ruminate.providers.gemini;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.ruminate.transport.http.ApiKey;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Vertex AI access tokens from Google's auth library (google-auth-library-oauth2-http), for
 * {@link GeminiProvider.Builder#accessToken(Mono)}.
 *
 * <pre>{@code
 * ChatProvider vertex = GeminiProvider.vertex("my-project", "us-central1")
 *         .accessToken(GoogleCredentialsTokens.applicationDefault())
 *         .build();
 * }</pre>
 *
 * <p>Application Default Credentials are, in Google's order: the key file named by
 * {@code GOOGLE_APPLICATION_CREDENTIALS} (a service account, external account / workload identity
 * federation, impersonation), gcloud's {@code application_default_credentials.json} (user
 * credentials from {@code gcloud auth application-default login}), then the metadata server of
 * Google Cloud runtimes.
 *
 * <p><b>Optional dependency.</b> This is the only class of Ruminate that refers to the library, an
 * optional dependency of sdk-providers: a fixed or application-supplied token needs none of it.
 *
 * <p><b>Refresh.</b> For every request (every subscription) the credentials are asked to refresh
 * if their token is expired or about to be (the library refreshes within minutes of expiry), then
 * the current token is used; the token is never kept elsewhere. The library may block on a token
 * endpoint, so this runs on {@link Schedulers#boundedElastic()}, never on an event loop. The token
 * goes into an {@link ApiKey} at once and never appears in messages, logs or {@code toString}.
 *
 * <p>Thread-safe: Google's credentials serialise their own refreshes.
 *
 * @since 0.4
 */
public final class GoogleCredentialsTokens {

    /** The OAuth scope Vertex AI takes, given to credentials that need a scope. */
    public static final String CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

    private GoogleCredentialsTokens() {
    }

    /**
     * Returns tokens of the Application Default Credentials, scoped to {@link #CLOUD_PLATFORM_SCOPE}
     * where they take scopes. The credentials are looked up now (which may read files or probe the
     * metadata server: call it when building the client), the tokens per request.
     *
     * @return tokens refreshed before expiry, one per subscription
     * @throws IllegalStateException if no Application Default Credentials are found
     */
    public static Mono<ApiKey> applicationDefault() {
        GoogleCredentials credentials;
        try {
            credentials = GoogleCredentials.getApplicationDefault();
        } catch (IOException e) {
            throw new IllegalStateException("no Google Application Default Credentials: " + e.getMessage(), e);
        }
        return from(credentials);
    }

    /**
     * Returns tokens of the given credentials, scoped to {@link #CLOUD_PLATFORM_SCOPE} where they
     * take scopes and have none.
     *
     * @param credentials the credentials, such as {@code GoogleCredentials.fromStream(...)} or
     *     impersonated ones
     * @return tokens refreshed before expiry, one per subscription
     */
    @SuppressWarnings("exports") // the library is an optional dependency, not re-exported: a caller of this method has it
    public static Mono<ApiKey> from(GoogleCredentials credentials) {
        Objects.requireNonNull(credentials, "credentials");
        GoogleCredentials scoped = credentials.createScopedRequired()
                ? credentials.createScoped(List.of(CLOUD_PLATFORM_SCOPE)) : credentials;
        return Mono.fromCallable(() -> token(scoped)).subscribeOn(Schedulers.boundedElastic());
    }

    private static ApiKey token(GoogleCredentials credentials) throws IOException {
        credentials.refreshIfExpired();
        AccessToken token = credentials.getAccessToken();
        if (token == null || token.getTokenValue() == null || token.getTokenValue().isEmpty()) {
            throw new IOException("the Google credentials gave no access token");
        }
        return ApiKey.of(token.getTokenValue());
    }
}
