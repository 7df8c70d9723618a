package dev.ruminate.core.error;

import org.jspecify.annotations.Nullable;

/**
 * The error a provider reported in its own body or stream, as far as it could be parsed.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param type the provider's error type ({@code invalid_request_error}, {@code overloaded_error}, …)
 * @param code the provider's error code, if any
 * @param message the provider's message, if any
 * @param param the request parameter it names, if any
 * @since 0.1
 */
public record ProviderError(@Nullable String type, @Nullable String code, @Nullable String message,
                            @Nullable String param) {

    /** Nothing could be parsed. */
    public static final ProviderError UNKNOWN = new ProviderError(null, null, null, null);

    /**
     * Renders the error as one line for exception messages.
     *
     * @return a short description
     */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        if (type != null) {
            sb.append(type);
        }
        if (code != null) {
            sb.append(sb.isEmpty() ? "" : "/").append(code);
        }
        if (message != null) {
            sb.append(sb.isEmpty() ? "" : ": ").append(message);
        }
        if (param != null) {
            sb.append(" (param ").append(param).append(')');
        }
        return sb.isEmpty() ? "no error details" : sb.toString();
    }
}
