package dev.ruminate.core.request;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Prompt-caching breakpoints: where the provider should cache the prompt prefix up to. Anthropic
 * writes {@code cache_control} on the marked system prompt, last tool definition and message
 * contents; Bedrock writes {@code cachePoint} blocks there. Providers that cache automatically
 * (OpenAI, DeepSeek, Gemini's implicit caching) or not at all ignore the breakpoints and say so with
 * a {@link dev.ruminate.core.event.Warning}; OpenAI's APIs take the {@link #key()} as
 * {@code prompt_cache_key}. Cached tokens are reported on {@link dev.ruminate.core.message.Usage}.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param system cache up to the end of the system prompt
 * @param tools cache up to the end of the tool definitions
 * @param messages indexes (in {@link ChatRequest#messages()}) of messages to cache up to the end of;
 *     sorted, distinct, an unmodifiable copy. An index whose message the history policy drops from
 *     the request is dropped with it
 * @param lastMessage cache up to the end of the last message, wherever it is: the usual breakpoint of
 *     a growing conversation
 * @param ttl how long the entry should live, for APIs that take it ({@link Ttl#DEFAULT} leaves the
 *     provider's default, five minutes at Anthropic)
 * @param key a routing key for APIs that take one ({@code prompt_cache_key}), or null
 * @since 0.3
 */
public record PromptCaching(boolean system, boolean tools, List<Integer> messages, boolean lastMessage, Ttl ttl,
                            @Nullable String key) {

    /** No breakpoint and no key: the provider's defaults. */
    public static final PromptCaching NONE = new PromptCaching(false, false, List.of(), false, Ttl.DEFAULT, null);

    /** How long a cache entry should live. */
    public enum Ttl {
        /** The provider's default (Anthropic and Bedrock: five minutes). */
        DEFAULT,
        /** Five minutes. */
        FIVE_MINUTES,
        /** One hour, where the API has it (Anthropic {@code "ttl": "1h"}). */
        ONE_HOUR
    }

    /**
     * Creates the value, checking its components.
     *
     * @param system see {@link #system()}
     * @param tools see {@link #tools()}
     * @param messages see {@link #messages()}
     * @param lastMessage see {@link #lastMessage()}
     * @param ttl see {@link #ttl()}
     * @param key see {@link #key()}
     * @throws IllegalArgumentException for a negative message index or a blank key
     */
    public PromptCaching {
        TreeSet<Integer> sorted = new TreeSet<>();
        for (Integer i : messages) {
            if (Objects.requireNonNull(i, "message index") < 0) {
                throw new IllegalArgumentException("a cache breakpoint's message index must be >= 0, was " + i);
            }
            sorted.add(i);
        }
        messages = List.copyOf(sorted);
        Objects.requireNonNull(ttl, "ttl");
        if (key != null && key.isBlank()) {
            throw new IllegalArgumentException("a prompt cache key must not be blank");
        }
    }

    /**
     * The usual breakpoints of a conversation: the system prompt, the tools and the last message.
     *
     * @return the caching
     */
    public static PromptCaching conversation() {
        return new PromptCaching(true, true, List.of(), true, Ttl.DEFAULT, null);
    }

    /**
     * Tells whether any breakpoint is set (the key is not a breakpoint).
     *
     * @return true when the provider is asked to cache somewhere
     */
    public boolean hasBreakpoints() {
        return system || tools || lastMessage || !messages.isEmpty();
    }

    /**
     * Tells whether a breakpoint ends at a message.
     *
     * @param index the message's index in the request
     * @param count the number of messages in the request
     * @return true when the message is listed, or is the last and {@link #lastMessage()} is set
     */
    public boolean marks(int index, int count) {
        return messages.contains(index) || (lastMessage && index == count - 1);
    }

    /**
     * Returns these breakpoints with other message indexes, everything else the same: how a history
     * preparation that drops messages keeps the breakpoints on the messages they were set on.
     *
     * @param indexes the new indexes
     * @return the caching
     */
    public PromptCaching withMessages(List<Integer> indexes) {
        return new PromptCaching(system, tools, indexes, lastMessage, ttl, key);
    }

    /**
     * Returns these breakpoints with a cache routing key.
     *
     * @param routingKey the key, or null
     * @return the caching
     */
    public PromptCaching withKey(@Nullable String routingKey) {
        return new PromptCaching(system, tools, messages, lastMessage, ttl, routingKey);
    }

    /**
     * Returns these breakpoints with another time to live.
     *
     * @param other the time to live
     * @return the caching
     */
    public PromptCaching withTtl(Ttl other) {
        return new PromptCaching(system, tools, messages, lastMessage, other, key);
    }
}
