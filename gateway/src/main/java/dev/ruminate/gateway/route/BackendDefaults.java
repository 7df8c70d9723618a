package dev.ruminate.gateway.route;

import dev.ruminate.providers.ApiFamily;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.chatcompletions.CompatProfile;
import dev.ruminate.providers.chatcompletions.Profiles;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Decides a route's defaults from its provider's kind, when the configuration leaves them unset.
 *
 * <p>{@code reasoning-to-backend}: {@link ReasoningToBackend#TAGS} for a Chat Completions backend
 * that understands reasoning only as {@code <think>} tags: one configured to split think tags out of
 * its answers ({@code think-tags=true}), one whose profile does (Groq, Perplexity), and the hosts
 * that serve the R1 family, QwQ and R1 distills through plain Chat Completions without a reasoning
 * input field (Chutes, any other OpenAI-compatible server such as Together or Hugging Face); also
 * for Ollama's native API with think tags on. Everything else has a field of its own, or signed
 * state, and gets {@link ReasoningToBackend#FIELD}.
 *
 * <p>{@code reasoning-summaries}: {@code mirror} (the Responses encoder's default): raw reasoning goes
 * out as summary, since clients that read only summaries (the AI SDK's OpenAI provider) would
 * otherwise see none.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class BackendDefaults {

    /** Kinds serving tag-only models through Chat Completions without a reasoning input field. */
    private static final Set<String> TAG_KINDS = Set.of("chutes", "openai-compatible");

    private BackendDefaults() {
    }

    /**
     * Returns the default {@code reasoning-to-backend} of a backend.
     *
     * @param kind the provider's kind, or null when unknown (a provider bean defined by the
     *     application); null gives {@link ReasoningToBackend#FIELD}
     * @param thinkTags whether the provider is configured to split think tags out of answers
     * @return the default
     */
    public static ReasoningToBackend reasoningToBackend(@Nullable ProviderKind kind, boolean thinkTags) {
        if (kind == null) {
            return ReasoningToBackend.FIELD;
        }
        if (kind.api() == ApiFamily.CHAT_COMPLETIONS) {
            String name = kind.name().toLowerCase(Locale.ROOT);
            CompatProfile profile = Profiles.names().contains(name) ? Profiles.byName(name) : null;
            boolean profileTags = profile != null && profile.thinkTags() != null;
            return thinkTags || profileTags || TAG_KINDS.contains(name) ? ReasoningToBackend.TAGS : ReasoningToBackend.FIELD;
        }
        if (kind.api() == ApiFamily.OLLAMA && thinkTags) {
            return ReasoningToBackend.TAGS;
        }
        return ReasoningToBackend.FIELD;
    }
}
