package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.http.ApiKey;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.CompatProfile;
import dev.ruminate.providers.chatcompletions.Profiles;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The providers the command line knows by name, and how to build a client for one. */
final class ProviderCatalog {

    private ProviderCatalog() {
    }

    static List<String> names() {
        return Profiles.names();
    }

    /**
     * Builds a client.
     *
     * @param name a provider name from {@link #names()}
     * @param baseUrl where the server is
     * @param key the API key, or null for a server that needs none
     * @param thinkTags true to split {@code <think>} tags out of the content even if the profile does not
     */
    static ChatProvider create(String name, URI baseUrl, @Nullable ApiKey key, boolean thinkTags) {
        ChatCompletionsProvider.Builder builder = ChatCompletionsProvider.builder(Profiles.byName(name))
                .baseUrl(baseUrl);
        if (key != null) {
            builder.apiKey(key);
        }
        if (thinkTags) {
            builder.thinkTags(ThinkTagOptions.DEFAULT);
        }
        return builder.build();
    }

    static @Nullable URI defaultBaseUrl(String name) {
        CompatProfile profile = Profiles.byName(name);
        return profile.baseUrl() != null ? URI.create(profile.baseUrl()) : null;
    }

    /** Tells whether the provider is usually a local server that needs no key. */
    static boolean keyOptional(String name) {
        return switch (name) {
            case "openai-compatible", "vllm", "llamacpp", "ollama" -> true;
            default -> false;
        };
    }

    /** The conventional variable for a provider's key: {@code DEEPSEEK_API_KEY}, {@code OPENROUTER_API_KEY}, … */
    static String defaultKeyVariable(String name) {
        return switch (name) {
            case "openai-compatible", "vllm", "llamacpp", "ollama" -> "RUMINATE_API_KEY";
            case "glm" -> "ZAI_API_KEY";
            case "qwen" -> "DASHSCOPE_API_KEY";
            default -> name.toUpperCase(Locale.ROOT).replace('-', '_') + "_API_KEY";
        };
    }
}
