package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * What {@link PromptCaching} becomes in a Chat Completions request, by the profile's
 * {@link CompatProfile.PromptCacheStyle}, and the warnings for what it cannot carry.
 *
 * <p>OpenAI and the servers modelled on it cache prompt prefixes on their own: breakpoints have no
 * field, and are reported ignored. OpenRouter passes Anthropic-style {@code cache_control} on text
 * parts through to the providers that need breakpoints; it gets them on the system prompt and on
 * user messages, the two places its prompt-caching guide shows them.
 */
final class ChatCompletionsCaching {

    private ChatCompletionsCaching() {
    }

    /**
     * Decides which messages get {@code cache_control} on their last text part, reporting every
     * breakpoint the profile ignores.
     *
     * @return per message of the request, whether it is marked (all false unless the style is
     *     {@link CompatProfile.PromptCacheStyle#CACHE_CONTROL})
     */
    static boolean[] marks(CompatProfile profile, ChatRequest request, RequestWarnings warnings) {
        PromptCaching caching = request.caching();
        List<Message> messages = request.messages();
        boolean[] marked = new boolean[messages.size()];
        if (!caching.hasBreakpoints()) {
            return marked;
        }
        if (profile.promptCache() != CompatProfile.PromptCacheStyle.CACHE_CONTROL) {
            warnings.ignored(profile.name() + " caches prompts automatically; breakpoints ignored");
            return marked;
        }
        if (caching.tools()) {
            warnings.ignored(profile.name() + " takes cache_control only on message text: the tools breakpoint is ignored");
        }
        if (caching.system()) {
            int lastSystem = -1;
            for (int i = 0; i < messages.size() && messages.get(i) instanceof SystemMessage; i++) {
                lastSystem = i;
            }
            if (lastSystem >= 0) {
                marked[lastSystem] = true;
            } else {
                warnings.ignored("the system breakpoint is ignored: the request has no system prompt");
            }
        }
        for (int i = 0; i < messages.size(); i++) {
            if (!caching.marks(i, messages.size())) {
                continue;
            }
            Message m = messages.get(i);
            if (m instanceof SystemMessage || (m instanceof UserMessage u && !u.text().isEmpty())) {
                marked[i] = true;
            } else {
                warnings.add(Warning.OPTION_IGNORED, profile.name() + " takes cache_control on the text of system and "
                        + "user messages: the breakpoint on this message is ignored", i, null);
            }
        }
        return marked;
    }

    /**
     * Writes {@code prompt_cache_key} and {@code prompt_cache_retention} where the profile takes
     * them (each unless an extra replaces it), reporting the key and time to live it ignores.
     */
    static void writeFields(JsonGenerator g, CompatProfile profile, PromptCaching caching, Set<String> taken,
                            RequestWarnings warnings) {
        CompatProfile.PromptCacheStyle style = profile.promptCache();
        boolean takesKey = style == CompatProfile.PromptCacheStyle.OPENAI
                || style == CompatProfile.PromptCacheStyle.PROMPT_CACHE_KEY;
        if (caching.key() != null) {
            if (takesKey) {
                if (!taken.contains("prompt_cache_key")) {
                    g.writeStringProperty("prompt_cache_key", caching.key());
                }
            } else {
                warnings.ignored(profile.name() + " takes no prompt cache key; the key is ignored");
            }
        }
        if (caching.ttl() == PromptCaching.Ttl.ONE_HOUR) {
            if (style == CompatProfile.PromptCacheStyle.OPENAI) {
                if (!taken.contains("prompt_cache_retention")) {
                    g.writeStringProperty("prompt_cache_retention", "24h");
                    warnings.coerced("a one-hour cache time to live is sent as prompt_cache_retention \"24h\", "
                            + "OpenAI's only retention longer than its default");
                }
            } else {
                warnings.ignored(profile.name() + " takes no cache time to live; the one-hour ttl is ignored");
            }
        } else if (caching.ttl() == PromptCaching.Ttl.FIVE_MINUTES && style != CompatProfile.PromptCacheStyle.CACHE_CONTROL
                && style != CompatProfile.PromptCacheStyle.OPENAI) {
            // OpenAI's default retention and OpenRouter's ephemeral breakpoints already last about five minutes
            warnings.ignored(profile.name() + " takes no cache time to live; the five-minute ttl is ignored");
        }
    }
}
