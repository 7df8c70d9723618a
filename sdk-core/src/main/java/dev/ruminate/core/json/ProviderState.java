package dev.ruminate.core.json;

/**
 * Whether written JSON carries opaque provider state: signatures, encrypted and redacted reasoning,
 * provider item ids and formats ({@link dev.ruminate.core.message.Seals},
 * {@link dev.ruminate.core.event.Seal} events).
 *
 * <p>That state is needed to send a conversation back to the provider that made it, so storage on
 * the server side keeps it; a browser has no use for it and must not receive it.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ProviderState {
    /**
     * Leave opaque state out, and the provider JSON of server tool blocks with it (it may hold
     * encrypted content): the form for front ends. Such JSON cannot continue a signed conversation.
     */
    OMIT,
    /** Keep opaque state, under {@code provider_state} and as {@code seal} events: the form for server-side storage. */
    INCLUDE
}
