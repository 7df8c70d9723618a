package dev.ruminate.providers;

import dev.ruminate.providers.bedrock.AwsSdkCredentials;
import dev.ruminate.providers.gemini.GoogleCredentialsTokens;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The credential chains a configuration can name instead of keys in variables: what the command
 * line's {@code --credentials} and Spring's {@code ruminate.providers.<name>.credentials} take.
 *
 * <ul>
 *   <li>{@value #DEFAULT_CHAIN}: for Bedrock the AWS SDK's default credentials chain
 *       ({@link AwsSdkCredentials#defaultChain()}), and its region chain when no region is given;
 *       for Vertex AI Google's Application Default Credentials
 *       ({@link GoogleCredentialsTokens#applicationDefault()}).</li>
 *   <li>{@code profile:NAME} (Bedrock): the default chain reading the named profile of the shared
 *       AWS config and credentials files ({@link AwsSdkCredentials#profile(String)}), and the
 *       profile's region when no region is given.</li>
 * </ul>
 *
 * <p>The chains come from optional dependencies ({@code software.amazon.awssdk:auth} and
 * {@code regions}; {@code com.google.auth:google-auth-library-oauth2-http}); naming a chain
 * without them on the class path fails with a message naming them, and nothing of them is loaded
 * otherwise.
 *
 * <p>Thread-safe (stateless).
 *
 * @since 0.4
 */
public final class CredentialChains {

    /** The name of the default chain of the kind's cloud. */
    public static final String DEFAULT_CHAIN = "default-chain";
    /** The prefix of a named AWS profile, as in {@code profile:bedrock-prod}. */
    public static final String PROFILE_PREFIX = "profile:";

    private static final String AWS_CLASS = "software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider";
    private static final String AWS_ARTIFACTS = "software.amazon.awssdk:auth and software.amazon.awssdk:regions";
    private static final String GOOGLE_CLASS = "com.google.auth.oauth2.GoogleCredentials";
    private static final String GOOGLE_ARTIFACTS = "com.google.auth:google-auth-library-oauth2-http";

    private CredentialChains() {
    }

    /**
     * Sets the credentials of a kind from a chain, and for Bedrock without a region the chain's region.
     * Resolving a region (and finding Google's credentials) may block: call it when building clients.
     *
     * @param kind the provider kind; Bedrock (AWS credentials) or Vertex AI (an access token)
     * @param choice {@value #DEFAULT_CHAIN} or {@code profile:NAME}
     * @param region the region configured otherwise, or null to take the chain's
     * @param settings where the credentials (and region) are set
     * @throws IllegalArgumentException if the choice is not a chain, or the kind takes no chain
     * @throws IllegalStateException if the chain's library is not on the class path, or the chain
     *     finds no region or no Google credentials
     */
    public static void apply(ProviderKind kind, String choice, @Nullable String region, ProviderSettings.Builder settings) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(settings, "settings");
        String value = Objects.requireNonNull(choice, "choice").strip();
        String profile = value.startsWith(PROFILE_PREFIX) ? value.substring(PROFILE_PREFIX.length()).strip() : null;
        if (!value.equals(DEFAULT_CHAIN) && (profile == null || profile.isEmpty())) {
            throw new IllegalArgumentException("credentials '" + value + "' is not " + DEFAULT_CHAIN + " or "
                    + PROFILE_PREFIX + "NAME");
        }
        switch (kind.credential()) {
            case AWS_CREDENTIALS -> {
                requireClass(AWS_CLASS, AWS_ARTIFACTS, kind);
                settings.awsCredentials(profile == null ? AwsSdkCredentials.defaultChain() : AwsSdkCredentials.profile(profile));
                if (region == null || region.isBlank()) {
                    settings.region(profile == null ? AwsSdkCredentials.defaultRegion() : AwsSdkCredentials.region(profile));
                }
            }
            case ACCESS_TOKEN -> {
                if (profile != null) {
                    throw new IllegalArgumentException(kind.name() + " takes credentials " + DEFAULT_CHAIN
                            + " (Application Default Credentials), not an AWS profile");
                }
                requireClass(GOOGLE_CLASS, GOOGLE_ARTIFACTS, kind);
                settings.accessToken(GoogleCredentialsTokens.applicationDefault());
            }
            case API_KEY, OPTIONAL_API_KEY -> throw new IllegalArgumentException(kind.name()
                    + " takes an API key, not a credentials chain");
        }
    }

    /** Checks the library is there before touching the adapter, which would fail with a bare NoClassDefFoundError. */
    private static void requireClass(String className, String artifacts, ProviderKind kind) {
        try {
            Class.forName(className, false, CredentialChains.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("credentials " + DEFAULT_CHAIN + " of " + kind.name() + " needs " + artifacts
                    + " on the class path", e);
        }
    }
}
