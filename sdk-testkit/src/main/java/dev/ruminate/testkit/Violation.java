package dev.ruminate.testkit;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Why a request breaks a provider's acceptance rule: the status and message the real API answers
 * with. Immutable.
 *
 * @param rule the {@linkplain AcceptanceRule#name() name} of the rule that was broken
 * @param status the HTTP status the provider answers with (400, or 404 for an unknown stored item)
 * @param message the provider's error message
 * @param param the request parameter the error points at ({@code "input"}), or {@code null}
 * @since 0.2
 */
public record Violation(String rule, int status, String message, @Nullable String param) {

    /**
     * Validates the values.
     *
     * @param rule the rule name
     * @param status the HTTP error status
     * @param message the error message
     * @param param the parameter, or null
     */
    public Violation {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
        if (status < 400 || status > 499) {
            throw new IllegalArgumentException("a refused request gets a 4xx status, got " + status);
        }
    }

    static Violation badRequest(String rule, String message) {
        return new Violation(rule, 400, message, null);
    }
}
