package dev.ruminate.transport.http;

import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A provider API key, held so that it cannot leak by accident.
 *
 * <p>{@link #toString()} never shows the value; only {@link #reveal()} does. The SDK calls it in
 * five places, each of which needs the value itself: {@link HttpExchange} writing its
 * authentication header; a signer's {@linkplain RequestSigner#secretHeader secret header} writing
 * its value into a request; the exchange's redaction, which must know a secret to replace its
 * echoes in error messages; the Bedrock provider's AWS Signature Version 4 signer, which
 * derives its signing key from the secret access key; and the provider pipeline, which hashes it
 * once into a non-reversible account fingerprint (the first 16 hex digits of a labelled SHA-256)
 * that marks where opaque reasoning state was made. Keys are compared by identity (no
 * {@code equals}), so that no code path compares secrets; that fingerprint is the one hash taken.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class ApiKey {

    private final String value;

    private ApiKey(String value) {
        this.value = value;
    }

    /**
     * Wraps a key given in code or configuration.
     *
     * @param value the key exactly as the provider issued it
     * @return the key
     * @throws IllegalArgumentException if the value is blank or contains a line break (which would
     *     let it inject a second HTTP header)
     */
    public static ApiKey of(String value) {
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            throw new IllegalArgumentException("an API key must not be blank");
        }
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("an API key must not contain line breaks");
        }
        return new ApiKey(value);
    }

    /**
     * Reads a key from an environment variable, ignoring surrounding whitespace (a trailing newline
     * pasted with the key is a common mistake).
     *
     * @param variable the variable's name, e.g. {@code DEEPSEEK_API_KEY}
     * @return the key
     * @throws IllegalStateException if the variable is not set or blank; the message names the
     *     variable, never a value
     */
    public static ApiKey fromEnv(String variable) {
        return fromEnv(variable, System::getenv);
    }

    static ApiKey fromEnv(String variable, UnaryOperator<String> environment) {
        Objects.requireNonNull(variable, "variable");
        String value = environment.apply(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + variable + " is not set or is blank");
        }
        return of(value.strip());
    }

    /**
     * Returns the secret value, for code that must send it, derive a key from it, or find its echoes
     * to remove them; never for display.
     *
     * @return the key
     */
    public String reveal() {
        return value;
    }

    /**
     * Describes the key without its value.
     *
     * @return {@code ApiKey[redacted]}
     */
    @Override
    public String toString() {
        return "ApiKey[redacted]";
    }
}
