package dev.ruminate.gateway.state;

import dev.ruminate.core.message.Part;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a backend needs back from one output item of a turn it produced: the item's parts as the
 * backend produced them, every signature, encrypted blob, redacted block and item id included, and
 * where they came from.
 *
 * <p>The gateway seals this into a reasoning item's {@code encrypted_content}; only a gateway holding
 * the key can read or forge it. {@code route} and {@code provider} tell, when it comes back, whether
 * the backend the request now goes to is the one that made the state: only then is it restored.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param route the route (client-facing model name) the turn was produced for
 * @param provider the provider that produced the parts (its {@code ChatProvider#name()})
 * @param model the upstream model, if known
 * @param issuedAt when the state was sealed
 * @param parts the item's parts with their seals, in order
 * @since 0.2
 */
public record SealedState(String route, String provider, @Nullable String model, Instant issuedAt, List<Part> parts) {

    /**
     * Creates the value, checking its components.
     *
     * @param route see {@link #route()}
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param issuedAt see {@link #issuedAt()}
     * @param parts see {@link #parts()}
     */
    public SealedState {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(issuedAt, "issuedAt");
        parts = List.copyOf(parts);
    }
}
