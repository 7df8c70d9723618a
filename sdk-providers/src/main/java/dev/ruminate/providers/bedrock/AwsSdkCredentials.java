package dev.ruminate.providers.bedrock;

import dev.ruminate.transport.http.ApiKey;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * AWS credentials and region from the AWS SDK for Java v2's provider chains, for
 * {@link BedrockProvider.Builder#credentials(Mono)} and {@link BedrockProvider#builder(String)}.
 *
 * <pre>{@code
 * ChatProvider bedrock = BedrockProvider.builder(AwsSdkCredentials.defaultRegion())
 *         .credentials(AwsSdkCredentials.defaultChain())
 *         .build();
 * }</pre>
 *
 * <p>The default chain is the SDK's {@link DefaultCredentialsProvider}: the {@code aws.accessKeyId}
 * system properties, the {@code AWS_ACCESS_KEY_ID} environment variables, web identity tokens, the
 * shared {@code config} and {@code credentials} files with their profiles (static keys, SSO,
 * {@code role_arn} with {@code source_profile} or {@code credential_source}, {@code credential_process}),
 * the container credentials endpoint, and the instance metadata service. SSO and role assumption
 * need the SDK's {@code sso}, {@code ssooidc} and {@code sts} modules on the class path, which the
 * chain loads when a profile asks for them.
 *
 * <p><b>Optional dependency.</b> This is the only class of Ruminate that refers to the AWS SDK
 * ({@code software.amazon.awssdk:auth} and {@code regions}, optional dependencies of
 * sdk-providers): the SDK is needed only when this class is used. Explicit {@link AwsCredentials}
 * need nothing of it.
 *
 * <p><b>Refresh.</b> Each returned {@code Mono} asks its provider for credentials at every
 * subscription, that is for every request, and keeps nothing itself: the SDK's providers cache
 * temporary credentials and fetch new ones before they expire, so a request is never signed with
 * credentials past the expiry the provider knows. Since a provider may block (a file read, an STS
 * or metadata call), it is called on {@link Schedulers#boundedElastic()}, never on an event loop.
 *
 * <p><b>Secrets.</b> The secret access key and session token go into {@link ApiKey}s at once and
 * never appear in messages, logs or {@code toString}; the SDK's own errors name profiles and files,
 * not secrets.
 *
 * <p>Thread-safe: the monos may be subscribed concurrently (the SDK's providers are thread-safe).
 *
 * @since 0.4
 */
public final class AwsSdkCredentials {

    private AwsSdkCredentials() {
    }

    /**
     * Returns the default credentials chain, with the profile named by {@code aws.profile} or
     * {@code AWS_PROFILE} (else {@code default}). The chain is built at once and resolves
     * credentials at the first request; it lives as long as the client that uses it.
     *
     * @return credentials resolved per subscription, on the bounded elastic scheduler
     */
    public static Mono<AwsCredentials> defaultChain() {
        return from(DefaultCredentialsProvider.builder().build());
    }

    /**
     * Returns the default credentials chain reading a named profile of the shared config and
     * credentials files (environment variables and system properties still come first, as in
     * the SDK's own chain).
     *
     * @param profileName the profile, such as {@code bedrock-prod}
     * @return credentials resolved per subscription, on the bounded elastic scheduler
     */
    public static Mono<AwsCredentials> profile(String profileName) {
        Objects.requireNonNull(profileName, "profileName");
        return from(DefaultCredentialsProvider.builder().profileName(profileName).build());
    }

    /**
     * Adapts any AWS SDK v2 credentials provider (an assumed role's {@code StsAssumeRoleCredentialsProvider},
     * a {@code ProfileCredentialsProvider}, one of the application's own).
     *
     * @param provider the provider, which must be thread-safe; it is called once per request and
     *     should cache (the SDK's do)
     * @return credentials resolved per subscription, on the bounded elastic scheduler
     */
    @SuppressWarnings("exports") // the SDK is an optional dependency, not re-exported: a caller of this method has it
    public static Mono<AwsCredentials> from(AwsCredentialsProvider provider) {
        Objects.requireNonNull(provider, "provider");
        return Mono.fromCallable(() -> convert(provider.resolveCredentials()))
                .subscribeOn(Schedulers.boundedElastic());
    }

    /**
     * Returns the region of the SDK's default region chain: the {@code aws.region} system property,
     * the {@code AWS_REGION} environment variable, the {@code region} of the current profile, then
     * the instance metadata service. Blocks: call it when building the client, not on an event loop.
     *
     * @return the region id, such as {@code us-east-1}
     * @throws IllegalStateException if no link of the chain has a region
     */
    public static String defaultRegion() {
        return region(new DefaultAwsRegionProviderChain());
    }

    /**
     * Returns the region of the default region chain reading a named profile.
     *
     * @param profileName the profile
     * @return the region id
     * @throws IllegalStateException if no link of the chain has a region
     */
    public static String region(String profileName) {
        Objects.requireNonNull(profileName, "profileName");
        return region(DefaultAwsRegionProviderChain.builder().profileName(profileName).build());
    }

    private static String region(DefaultAwsRegionProviderChain chain) {
        Region region;
        try {
            region = chain.getRegion();
        } catch (RuntimeException e) {
            throw new IllegalStateException("no AWS region: " + e.getMessage(), e);
        }
        return region.id();
    }

    private static AwsCredentials convert(AwsCredentialsIdentity identity) {
        String token = identity instanceof AwsSessionCredentialsIdentity session ? session.sessionToken() : null;
        return new AwsCredentials(identity.accessKeyId(), ApiKey.of(identity.secretAccessKey()),
                token == null || token.isEmpty() ? null : ApiKey.of(token));
    }
}
