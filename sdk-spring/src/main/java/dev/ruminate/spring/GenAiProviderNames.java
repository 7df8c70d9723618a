package dev.ruminate.spring;

import java.util.Locale;
import java.util.Map;

/**
 * Maps Ruminate's provider names (API kinds and Chat Completions/Responses profiles) to the well-known
 * values of {@code gen_ai.provider.name}; a name the conventions do not list is kept as it is.
 */
final class GenAiProviderNames {

    private static final Map<String, String> WELL_KNOWN = Map.ofEntries(
            Map.entry("openai", "openai"),
            Map.entry("azure", "azure.ai.openai"),
            Map.entry("anthropic", "anthropic"),
            Map.entry("bedrock", "aws.bedrock"),
            Map.entry("gemini", "gcp.gemini"),
            Map.entry("gemini-openai", "gcp.gemini"),
            Map.entry("vertex", "gcp.vertex_ai"),
            Map.entry("deepseek", "deepseek"),
            Map.entry("mistral", "mistral_ai"),
            Map.entry("groq", "groq"),
            Map.entry("xai", "x_ai"),
            Map.entry("perplexity", "perplexity"));

    private GenAiProviderNames() {
    }

    /**
     * Returns the {@code gen_ai.provider.name} of a provider.
     *
     * @param ruminateName the provider's {@link dev.ruminate.core.ChatProvider#name()}, e.g. {@code deepseek}
     *     or {@code xai-responses}
     * @return the well-known value, e.g. {@code x_ai}, else the name itself
     */
    static String of(String ruminateName) {
        String name = ruminateName.toLowerCase(Locale.ROOT);
        // a Responses profile serves the same provider as the Chat Completions profile of the same stem
        String stem = name.endsWith("-responses") ? name.substring(0, name.length() - "-responses".length()) : name;
        return WELL_KNOWN.getOrDefault(stem, ruminateName);
    }
}
