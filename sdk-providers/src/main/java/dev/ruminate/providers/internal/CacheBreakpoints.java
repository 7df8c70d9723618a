package dev.ruminate.providers.internal;

import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which prompt-cache breakpoints an API with explicit breakpoints (Anthropic {@code cache_control},
 * Bedrock {@code cachePoint}) gets: the tools, the system prompt and each marked message
 * ({@link PromptCaching#marks}), in that order of position, the order of the cached prefix. A
 * breakpoint with nothing to end on (no tools, no system text, a system message, a message that
 * writes no block, or whose last block cannot carry one) is reported as ignored. Beyond the API's
 * maximum, the <b>last ones by position</b> are kept, each earlier one reported: a later breakpoint
 * caches the whole prefix before it, so the last ones keep the longest cached prefix, while an
 * earlier one only adds a shorter prefix for partial hits.
 *
 * <p>Immutable and thread-safe.
 *
 * @param tools a breakpoint after the tools
 * @param system a breakpoint after the system prompt
 * @param messages the indexes of the messages a breakpoint ends
 */
public record CacheBreakpoints(boolean tools, boolean system, Set<Integer> messages) {

    /**
     * Copies the indexes.
     *
     * @param tools see {@link #tools()}
     * @param system see {@link #system()}
     * @param messages see {@link #messages()}
     */
    public CacheBreakpoints {
        messages = Set.copyOf(messages);
    }

    /** One breakpoint asked: its place, and the message it ends (-1 for tools and system). */
    private record Asked(String place, int message) {
    }

    /**
     * Decides the breakpoints of a request.
     *
     * @param api the API's name in warnings ({@code Anthropic})
     * @param what what the API calls a breakpoint, in warnings ({@code cache_control blocks})
     * @param max the most breakpoints the API takes in one request
     * @param caching the breakpoints asked
     * @param messages the conversation
     * @param hasTools whether tools are written
     * @param hasSystem whether a system prompt is written
     * @param lastBlockCacheable per message that writes a block, whether a breakpoint can end it
     * @param warnings where dropped and ignored breakpoints are reported
     * @return the breakpoints to write
     */
    public static CacheBreakpoints decide(String api, String what, int max, PromptCaching caching, List<Message> messages,
                                          boolean hasTools, boolean hasSystem, Map<Integer, Boolean> lastBlockCacheable,
                                          RequestWarnings warnings) {
        if (!caching.hasBreakpoints()) {
            return new CacheBreakpoints(false, false, Set.of());
        }
        List<Asked> asked = new ArrayList<>();
        if (caching.tools()) {
            if (hasTools) {
                asked.add(new Asked("the tools", -1));
            } else {
                warnings.ignored("cache breakpoint on the tools not sent: the request writes no tools");
            }
        }
        if (caching.system()) {
            if (hasSystem) {
                asked.add(new Asked("the system prompt", -1));
            } else {
                warnings.ignored("cache breakpoint on the system prompt not sent: the request has no system text");
            }
        }
        for (int i = 0; i < messages.size(); i++) {
            if (!caching.marks(i, messages.size())) {
                continue;
            }
            Boolean cacheable = lastBlockCacheable.get(i);
            if (messages.get(i) instanceof SystemMessage) {
                warnings.add(Warning.OPTION_IGNORED, "cache breakpoint on message " + i + " not sent: a system message "
                        + "goes into the system prompt (mark the system prompt instead)", i, null);
            } else if (cacheable == null) {
                warnings.add(Warning.OPTION_IGNORED, "cache breakpoint on message " + i + " not sent: the message "
                        + "writes no content block", i, null);
            } else if (!cacheable) {
                warnings.add(Warning.OPTION_IGNORED, "cache breakpoint on message " + i + " not sent: its last block "
                        + "(thinking or a server-tool block) cannot carry one", i, null);
            } else {
                asked.add(new Asked("message " + i, i));
            }
        }
        int drop = Math.max(0, asked.size() - max);
        for (int d = 0; d < drop; d++) {
            Asked a = asked.get(d);
            String text = "cache breakpoint on " + a.place() + " not sent: " + api + " takes at most " + max + " " + what
                    + " per request (" + asked.size() + " asked; the last " + max + " by position are kept)";
            if (a.message() >= 0) {
                warnings.add(Warning.OPTION_IGNORED, text, a.message(), null);
            } else {
                warnings.ignored(text);
            }
        }
        Set<Integer> cached = new LinkedHashSet<>();
        boolean tools = false;
        boolean system = false;
        for (Asked a : asked.subList(drop, asked.size())) {
            if (a.message() >= 0) {
                cached.add(a.message());
            } else if (a.place().equals("the tools")) {
                tools = true;
            } else {
                system = true;
            }
        }
        return new CacheBreakpoints(tools, system, cached);
    }
}
