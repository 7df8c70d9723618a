package dev.ruminate.core.history;

import dev.ruminate.core.message.Origin;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a request goes, as {@link History#plan} needs to know it: the endpoint identity opaque
 * state is compared with, the model, and the target family's rules for its opaque values.
 *
 * <p>Immutable and thread-safe.
 *
 * @param origin the provider, API, endpoint and account fingerprint the request goes to; its
 *     provider is the name turns are judged by ({@link dev.ruminate.core.message.AssistantMessage#provider()})
 * @param model the model the request names, or null when not known (then no model boundary applies)
 * @param rules the target family's opaque-value rules ({@link OpaqueRules#LENIENT} when not known)
 * @since 0.2
 */
public record SendTarget(Origin origin, @Nullable String model, OpaqueRules rules) {

    /**
     * Creates the value, checking its components.
     *
     * @param origin see {@link #origin()}
     * @param model see {@link #model()}
     * @param rules see {@link #rules()}
     */
    public SendTarget {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(rules, "rules");
    }

    /**
     * Returns the provider name turns are judged by.
     *
     * @return {@code origin().provider()}
     */
    public String provider() {
        return origin.provider();
    }
}
