package dev.ruminate.providers.internal;

import dev.ruminate.transport.http.BaseUrl;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The checks every server profile ({@code CompatProfile}, {@code ResponsesProfile}) makes of where
 * its server is and how it authenticates, so that a bad value fails the same way, naming the
 * component, in every family.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfileChecks {

    private ProfileChecks() {
    }

    /**
     * Checks the endpoint and authentication components of a profile, in this order.
     *
     * @param name the profile name: not blank
     * @param baseUrl the API root: null, or an absolute http(s) URL
     * @param pathName the path component's name, for messages ({@code "chatPath"})
     * @param path the path appended to the base URL: not blank, starting with {@code /}
     * @param authHeader the header carrying the key: not blank
     * @param authPrefix what precedes the key: not null, possibly empty
     * @throws NullPointerException naming the component that is null
     * @throws IllegalArgumentException naming the component that is blank or malformed
     */
    public static void requireEndpoint(String name, @Nullable String baseUrl, String pathName, String path,
                                       String authHeader, String authPrefix) {
        requireText(name, "name");
        if (baseUrl != null) {
            BaseUrl.of(baseUrl);
        }
        requireText(path, pathName);
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException(pathName + " must start with '/', was " + path);
        }
        requireText(authHeader, "authHeader");
        Objects.requireNonNull(authPrefix, "authPrefix");
    }

    /**
     * Checks that a text is present and not blank.
     *
     * @param value the text
     * @param what its name, for messages
     * @throws NullPointerException naming it when null
     * @throws IllegalArgumentException naming it when blank
     */
    public static void requireText(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
    }
}
