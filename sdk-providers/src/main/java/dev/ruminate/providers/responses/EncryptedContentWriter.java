package dev.ruminate.providers.responses;

import org.jspecify.annotations.Nullable;

/**
 * Gives an output item the {@code encrypted_content} that carries its opaque provider state
 * (signatures, the provider's encrypted reasoning, item ids, redacted blocks) to a stateless client
 * and back: a hook for a gateway that seals that state under its own key.
 *
 * <p>{@link ResponsesStreamEncoder} calls it when a reasoning item closes; a non-null answer becomes
 * the item's {@code encrypted_content} in {@code response.output_item.done} and in the response
 * object. It also calls it when a {@code message} or {@code function_call} item closes whose parts
 * carry seals (Gemini signs text and function call parts with {@code thoughtSignature}): a non-null
 * answer is written as an extra {@code reasoning} item right after that item, with an empty
 * {@code summary} and the answer as its {@code encrypted_content}. Responses clients send reasoning
 * items back as they got them, so this is how state on non-reasoning parts survives a stateless
 * client; the service recognises its own blob when it comes back and restores the state onto the
 * turn's parts. Return null when the seals are not worth a round trip (an upstream Responses server
 * puts its {@code msg_…} item id on every message, for example): then no extra item is written.
 *
 * <p>Called on the thread that delivers the upstream events, in order, never concurrently for one
 * stream; it must not block (encrypt in memory, do not call out). An exception thrown here fails
 * the encoded stream like an upstream failure.
 *
 * @since 0.2
 */
@FunctionalInterface
public interface EncryptedContentWriter {

    /**
     * Returns the {@code encrypted_content} for an item, or null to write none.
     *
     * @param item the closing item, its type and reduced parts with all their seals
     * @return the opaque value, or null
     */
    @Nullable String encryptedContent(OutputItemState item);
}
