package dev.ruminate.providers.anthropic;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.providers.internal.CacheBreakpoints;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Where the Messages encoder writes {@code cache_control: {"type":"ephemeral"}} (with
 * {@code "ttl":"5m"} or {@code "ttl":"1h"} when a time to live is asked): on the last tool, the last
 * system block and the last content block of each marked message ({@link PromptCaching#marks}).
 *
 * <p>The API takes at most four blocks with {@code cache_control} ("A maximum of 4 blocks with
 * cache_control may be provided. Found N."): beyond that, the <b>last four by position</b> (tools,
 * then system, then messages in order) are kept and each earlier one is dropped with a warning. A
 * later breakpoint caches the whole prefix before it, so keeping the last ones keeps the longest
 * cached prefix; an earlier breakpoint only adds a shorter prefix for partial hits. A breakpoint with
 * nothing to end on (no tools, no system text, a system message, a message ending in a thinking or
 * verbatim server-tool block, which cannot carry it) and a routing key (the API has none) are
 * reported as ignored.
 *
 * <p>Immutable and thread-safe.
 *
 * @param tools cache_control on the last tool
 * @param system cache_control on the last system block
 * @param messages the messages whose last block carries cache_control
 * @param ttl the time to live asked
 */
record AnthropicCaching(boolean tools, boolean system, Set<Integer> messages, PromptCaching.Ttl ttl) {

    /** The most {@code cache_control} blocks the API takes in one request. */
    static final int MAX_BREAKPOINTS = 4;

    /** No breakpoint. */
    static final AnthropicCaching NONE = new AnthropicCaching(false, false, Set.of(), PromptCaching.Ttl.DEFAULT);

    /**
     * Decides the breakpoints of a request ({@link CacheBreakpoints#decide}, at most four).
     *
     * @param caching the breakpoints asked
     * @param messages the conversation
     * @param hasTools whether a {@code tools} array is written
     * @param hasSystem whether a {@code system} is written
     * @param lastBlockCacheable per message with a content block, whether its last block can carry cache_control
     * @param warnings where dropped and ignored breakpoints are reported
     * @return the breakpoints to write
     */
    static AnthropicCaching decide(PromptCaching caching, List<Message> messages, boolean hasTools, boolean hasSystem,
                                   Map<Integer, Boolean> lastBlockCacheable, RequestWarnings warnings) {
        if (caching.key() != null) {
            warnings.ignored("prompt cache key not sent: the Messages API has no cache routing key");
        }
        CacheBreakpoints b = CacheBreakpoints.decide("Anthropic", "cache_control blocks", MAX_BREAKPOINTS, caching, messages,
                hasTools, hasSystem, lastBlockCacheable, warnings);
        return new AnthropicCaching(b.tools(), b.system(), b.messages(), caching.ttl());
    }

    /**
     * Returns the writer of the {@code cache_control} property, or null when nothing is cached.
     *
     * @return the writer, or null
     */
    @Nullable Consumer<JsonGenerator> control() {
        if (!tools && !system && messages.isEmpty()) {
            return null;
        }
        return g -> {
            g.writeObjectPropertyStart("cache_control");
            g.writeStringProperty("type", "ephemeral");
            switch (ttl) {
                case FIVE_MINUTES -> g.writeStringProperty("ttl", "5m");
                case ONE_HOUR -> g.writeStringProperty("ttl", "1h");
                default -> {
                    // the API's default, five minutes: no field
                }
            }
            g.writeEndObject();
        };
    }
}
