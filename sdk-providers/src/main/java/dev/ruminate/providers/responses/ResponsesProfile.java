package dev.ruminate.providers.responses;

import dev.ruminate.providers.ProfileBuilder;
import dev.ruminate.providers.internal.ProfileChecks;
import dev.ruminate.transport.http.BaseUrl;
import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything that makes one Responses server different from another: where it is, how it
 * authenticates, whether reasoning is kept client-side, how reasoning is requested, and what it
 * takes beyond the conversation ({@link ResponsesCapabilities}).
 *
 * <p>{@link ResponsesProfiles} holds the known servers; {@code ResponsesProfiles.OPEN_RESPONSES.toBuilder()}
 * is the start for a new one. Immutable and thread-safe.
 *
 * @param name the profile name; it is the {@code provider} of every
 *     {@link dev.ruminate.core.event.ResponseStarted}
 * @param baseUrl the API root, e.g. {@code https://api.openai.com/v1}; null when the user must give
 *     one (Azure resources, self-hosted servers)
 * @param path the path appended to the base URL, {@code /responses}
 * @param authHeader the header carrying the key, {@code Authorization} (or {@code api-key} for Azure)
 * @param authPrefix what precedes the key in that header, {@code "Bearer "} (or {@code ""})
 * @param statelessReasoning true to send {@code store: false} and
 *     {@code include: ["reasoning.encrypted_content"]}, so that reasoning items come back with their
 *     encrypted state and can be replayed without the server keeping them
 * @param reasoningStyle how {@link dev.ruminate.core.request.ReasoningOptions} are written
 * @param capabilities what the server takes beyond the conversation (structured output, media,
 *     a forced tool choice, a prompt cache key); since 0.3
 * @since 0.1
 */
public record ResponsesProfile(String name, @Nullable String baseUrl, String path, String authHeader,
                               String authPrefix, boolean statelessReasoning,
                               ResponsesReasoningStyle reasoningStyle, ResponsesCapabilities capabilities) {

    /**
     * Validates the components.
     *
     * @param name see {@link #name()}
     * @param baseUrl see {@link #baseUrl()}
     * @param path see {@link #path()}
     * @param authHeader see {@link #authHeader()}
     * @param authPrefix see {@link #authPrefix()}
     * @param statelessReasoning see {@link #statelessReasoning()}
     * @param reasoningStyle see {@link #reasoningStyle()}
     * @param capabilities see {@link #capabilities()}
     * @throws IllegalArgumentException when a name is blank, the base URL is not an absolute http(s)
     *     URL, or the path does not start with {@code /}
     */
    public ResponsesProfile {
        ProfileChecks.requireEndpoint(name, baseUrl, "path", path, authHeader, authPrefix);
        Objects.requireNonNull(reasoningStyle, "reasoningStyle");
        Objects.requireNonNull(capabilities, "capabilities");
    }

    /**
     * Creates a profile with the capabilities of OpenAI's API (the constructor of 0.1 and 0.2).
     *
     * @param name see {@link #name()}
     * @param baseUrl see {@link #baseUrl()}
     * @param path see {@link #path()}
     * @param authHeader see {@link #authHeader()}
     * @param authPrefix see {@link #authPrefix()}
     * @param statelessReasoning see {@link #statelessReasoning()}
     * @param reasoningStyle see {@link #reasoningStyle()}
     * @throws IllegalArgumentException as the canonical constructor
     */
    public ResponsesProfile(String name, @Nullable String baseUrl, String path, String authHeader, String authPrefix,
                            boolean statelessReasoning, ResponsesReasoningStyle reasoningStyle) {
        this(name, baseUrl, path, authHeader, authPrefix, statelessReasoning, reasoningStyle, ResponsesCapabilities.OPENAI);
    }

    /**
     * Starts a profile with the defaults of a generic Open Responses server: no base URL,
     * {@code /responses}, {@code Authorization: Bearer}, stateful (no {@code store}/{@code include}),
     * {@code reasoning: {effort, summary}}, the capabilities of OpenAI's API
     * ({@link ResponsesCapabilities#OPENAI}).
     *
     * @param name the profile name
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Returns a builder holding this profile's values, to derive a variant.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder(name);
        b.baseUrl(baseUrl);
        b.path = path;
        b.auth(authHeader, authPrefix);
        b.statelessReasoning = statelessReasoning;
        b.reasoningStyle = reasoningStyle;
        b.capabilities = capabilities;
        return b;
    }

    /**
     * Returns the endpoint: the base URL (the override if given, else the profile's) with trailing
     * slashes removed from its path, followed by {@link #path()}; a query on the base URL (Azure's
     * {@code ?api-version=…}) is kept after the path.
     *
     * @param baseUrlOverride a base URL to use instead of the profile's, or null
     * @return the endpoint
     * @throws IllegalStateException if neither base URL is set
     * @throws IllegalArgumentException if the override is not an absolute http(s) URL
     */
    public URI uri(@Nullable String baseUrlOverride) {
        return BaseUrl.of(baseUrlOverride, baseUrl, "profile " + name).resolve(path);
    }

    /**
     * Builds a {@link ResponsesProfile}. Not thread-safe; every {@link #build()} returns an
     * independent immutable profile.
     *
     * @since 0.1
     */
    public static final class Builder extends ProfileBuilder<Builder> {
        private String path = "/responses";
        private boolean statelessReasoning;
        private ResponsesReasoningStyle reasoningStyle = ResponsesReasoningStyle.EFFORT_AND_SUMMARY;
        private ResponsesCapabilities capabilities = ResponsesCapabilities.OPENAI;

        private Builder(String name) {
            super(name);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * Sets the path of the endpoint.
         *
         * @param path the path, starting with {@code /}
         * @return this builder
         */
        public Builder path(String path) {
            this.path = Objects.requireNonNull(path, "path");
            return this;
        }

        /**
         * Sets whether requests ask for stateless reasoning ({@code store: false} and the encrypted content).
         *
         * @param stateless true to ask for it
         * @return this builder
         */
        public Builder statelessReasoning(boolean stateless) {
            this.statelessReasoning = stateless;
            return this;
        }

        /**
         * Sets how reasoning is requested.
         *
         * @param style the style
         * @return this builder
         */
        public Builder reasoningStyle(ResponsesReasoningStyle style) {
            this.reasoningStyle = Objects.requireNonNull(style, "style");
            return this;
        }

        /**
         * Sets what the server takes beyond the conversation.
         *
         * @param what the capabilities
         * @return this builder
         * @since 0.3
         */
        public Builder capabilities(ResponsesCapabilities what) {
            this.capabilities = Objects.requireNonNull(what, "what");
            return this;
        }

        /**
         * Builds the profile.
         *
         * @return the immutable profile
         * @throws IllegalArgumentException as {@link ResponsesProfile#ResponsesProfile} documents
         */
        public ResponsesProfile build() {
            return new ResponsesProfile(name(), baseUrl(), path, authHeader(), authPrefix(), statelessReasoning,
                    reasoningStyle, capabilities);
        }
    }
}
