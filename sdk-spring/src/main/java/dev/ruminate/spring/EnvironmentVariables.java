package dev.ruminate.spring;

import org.jspecify.annotations.Nullable;

/**
 * Where API keys are read from: the process environment by default. A bean of this type replaces
 * it, for tests or for a secret store that presents keys as named variables.
 *
 * <p>Implementations must be thread-safe. A value read here is wrapped at once into an
 * {@link dev.ruminate.transport.http.ApiKey}, which never shows it.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface EnvironmentVariables {

    /**
     * Reads a variable.
     *
     * @param name the variable's name, such as {@code DEEPSEEK_API_KEY}
     * @return its value, or null when it is not set
     */
    @Nullable String get(String name);

    /**
     * Returns the process environment ({@link System#getenv(String)}).
     *
     * @return the process environment
     */
    static EnvironmentVariables system() {
        return System::getenv;
    }
}
