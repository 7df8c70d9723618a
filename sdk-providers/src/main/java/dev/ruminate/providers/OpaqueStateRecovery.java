package dev.ruminate.providers;

/**
 * What a provider client does when the provider refuses a request because of the opaque reasoning
 * state it carried back (a {@link dev.ruminate.core.error.OpaqueStateRejectedException}).
 *
 * <p>{@link #OFF} (the default) fails the call with the typed error. {@link #STRIP_AND_RETRY_ONCE}
 * strips the refused state and sends the request once more; the retried stream starts with a
 * {@link dev.ruminate.core.event.Warning} ({@code opaque-state-recovered}) that says what was
 * stripped and where, so a recovery is never silent.
 *
 * <p><b>What is stripped.</b> When the rejection names a place the client could map to a message
 * and part, only that part's opaque values (signature, redacted data, encrypted content, item id;
 * for a Responses reasoning item, every part of that item) are removed; otherwise the opaque values
 * of every assistant message are. The readable reasoning stays, and each family's encoder then
 * applies its rule for unsigned reasoning (Anthropic and Bedrock drop it, Responses drops an item
 * without id, Gemini drops an unsigned thought).
 *
 * <p><b>When there is no retry.</b> Only a rejection whose
 * {@linkplain dev.ruminate.core.error.OpaqueStateRejectedException.Reason#strippable() reason is
 * strippable} is retried: a missing DeepSeek {@code reasoning_content}, a missing Anthropic
 * signature or thinking block, or a missing Gemini thought signature cannot be fixed by removing
 * anything, and repeating the request unchanged would be refused again, so the typed error stays.
 * Nor is there a retry when stripping changes nothing, or after an event was delivered. On Gemini
 * 3 a function call of the current turn must carry a signature: stripping an invalid one there is
 * answered with a missing-signature rejection, which then fails the call (the recovery helps for
 * signatures Google validates but does not require).
 *
 * <p><b>Once, never in a loop.</b> A second rejection fails the call with the second error, the
 * first attached as {@linkplain Throwable#getSuppressed() suppressed}.
 *
 * <p><b>Order with the resilience guards.</b> The recovery runs outside the endpoint's
 * {@link dev.ruminate.transport.resilience.Resilience} guards: the guards retry transient failures
 * (429, 5xx, timeouts) of the original request first; a rejection of its opaque state (a 400, which
 * the guards do not retry) then leads to one stripped request, itself run under the guards.
 *
 * @since 0.3
 */
public enum OpaqueStateRecovery {
    /** Fail with the typed rejection. */
    OFF,
    /** Strip the refused opaque state, report it with a warning event, and retry once. */
    STRIP_AND_RETRY_ONCE
}
