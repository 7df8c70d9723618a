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
 * @param code the provider's error code ({@code invalid_encrypted_content}), or {@code null} for the
 *     family's usual one (since 0.3)
 * @since 0.2
 */
public record Violation(String rule, int status, String message, @Nullable String param, @Nullable String code) {

    /**
     * Validates the values.
     *
     * @param rule the rule name
     * @param status the HTTP error status
     * @param message the error message
     * @param param the parameter, or null
     * @param code the error code, or null
     */
    public Violation {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
        if (status < 400 || status > 499) {
            throw new IllegalArgumentException("a refused request gets a 4xx status, got " + status);
        }
    }

    /**
     * Creates a violation answered with the family's usual error code.
     *
     * @param rule the rule name
     * @param status the HTTP error status
     * @param message the error message
     * @param param the parameter, or null
     */
    public Violation(String rule, int status, String message, @Nullable String param) {
        this(rule, status, message, param, null);
    }

    static Violation badRequest(String rule, String message) {
        return new Violation(rule, 400, message, null);
    }
}
