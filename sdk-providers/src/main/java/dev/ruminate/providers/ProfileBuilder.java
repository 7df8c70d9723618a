package dev.ruminate.providers;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What every server profile's builder sets the same way: the profile's name, its default base URL
 * and how the key is sent. {@code CompatProfile.Builder} (Chat Completions) and
 * {@code ResponsesProfile.Builder} (Responses) extend it with what is their API's own.
 *
 * <p>Not thread-safe: configure a builder on one thread.
 *
 * @param <B> the concrete builder, returned by every setter
 * @since 0.1
 */
public abstract class ProfileBuilder<B extends ProfileBuilder<B>> {

    private String name;
    private @Nullable String baseUrl;
    private String authHeader = "Authorization";
    private String authPrefix = "Bearer ";

    /**
     * Starts a builder.
     *
     * @param name the profile's name
     */
    protected ProfileBuilder(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * Returns this builder as its concrete type.
     *
     * @return this
     */
    protected abstract B self();

    /**
     * Sets the name: the {@code provider} of the events the profile's streams give, and the owner of
     * the reasoning and opaque state that history sends back to it.
     *
     * @param name the profile name
     * @return this builder
     */
    public B name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return self();
    }

    /**
     * Sets the default base URL.
     *
     * @param baseUrl the API root, or null when the user must give one
     * @return this builder
     */
    public B baseUrl(@Nullable String baseUrl) {
        this.baseUrl = baseUrl;
        return self();
    }

    /**
     * Sets how the key is sent: {@code ("Authorization", "Bearer ")} or {@code ("api-key", "")}.
     *
     * @param header the header name
     * @param prefix what precedes the key, possibly empty
     * @return this builder
     */
    public B auth(String header, String prefix) {
        this.authHeader = Objects.requireNonNull(header, "header");
        this.authPrefix = Objects.requireNonNull(prefix, "prefix");
        return self();
    }

    /**
     * Returns the name set.
     *
     * @return the name
     */
    protected final String name() {
        return name;
    }

    /**
     * Returns the default base URL set.
     *
     * @return the URL, or null
     */
    protected final @Nullable String baseUrl() {
        return baseUrl;
    }

    /**
     * Returns the auth header set.
     *
     * @return the header name
     */
    protected final String authHeader() {
        return authHeader;
    }

    /**
     * Returns what precedes the key in the auth header.
     *
     * @return the prefix, possibly empty
     */
    protected final String authPrefix() {
        return authPrefix;
    }
}
