package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.CompatProfile;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesProfile;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The providers the command line knows by name, and how to build a client for one. */
final class ProviderCatalog {

    /**
     * How to reach a server.
     *
     * @param baseUrl where the server is
     * @param key the API key (for AWS: the secret access key), or null for a server that needs none
     * @param thinkTags true to split {@code <think>} tags out of the content even if the provider does not
     * @param replay true when the server is the replay emulator, which checks no credentials
     * @param history how earlier turns go back
     */
    record Connection(URI baseUrl, @Nullable ApiKey key, boolean thinkTags, boolean replay, HistoryPolicy history) {
    }

    /** Builds a client for one entry. */
    @FunctionalInterface
    interface Factory {
        ChatProvider create(Connection connection);
    }

    /**
     * One provider name.
     *
     * @param name what {@code --provider} takes
     * @param defaultBaseUrl the public endpoint, or null when the user must give one
     * @param keyOptional true for servers usually run locally without a key
     * @param keyVariable the conventional environment variable of the key
     * @param factory builds the client
     */
    record Entry(String name, @Nullable URI defaultBaseUrl, boolean keyOptional, String keyVariable, Factory factory) {
    }

    private static final Map<String, Entry> ENTRIES = entries();

    private ProviderCatalog() {
    }

    private static Map<String, Entry> entries() {
        List<Entry> all = new ArrayList<>();
        for (String name : Profiles.names()) {
            CompatProfile profile = Profiles.byName(name);
            all.add(new Entry(name, profile.baseUrl() != null ? URI.create(profile.baseUrl()) : null,
                    isLocal(name), keyVariable(name), c -> chatCompletions(profile, c.baseUrl(), c.key(), c.thinkTags(), c.history())));
        }
        for (String name : ResponsesProfiles.names()) {
            ResponsesProfile profile = Objects.requireNonNull(ResponsesProfiles.byName(name), name); // a name it listed
            all.add(new Entry(name, profile.baseUrl() != null ? URI.create(profile.baseUrl()) : null,
                    isLocal(name), keyVariable(name), c -> responses(profile, c)));
        }
        all.add(new Entry(AnthropicCodec.PROVIDER, URI.create(AnthropicProvider.DEFAULT_BASE_URL), false,
                "ANTHROPIC_API_KEY", ProviderCatalog::anthropic));
        all.add(new Entry("gemini", URI.create(GeminiProvider.AI_STUDIO_BASE_URL), false, "GEMINI_API_KEY",
                ProviderCatalog::gemini));
        all.add(new Entry("vertex", null, false, "VERTEX_ACCESS_TOKEN", ProviderCatalog::vertex));
        all.add(new Entry(OllamaProvider.NAME, URI.create(OllamaProvider.DEFAULT_BASE_URL), true, "RUMINATE_API_KEY",
                ProviderCatalog::ollamaNative));
        String region = awsRegion();
        all.add(new Entry("bedrock", URI.create("https://bedrock-runtime." + region + ".amazonaws.com"), false,
                "AWS_SECRET_ACCESS_KEY", ProviderCatalog::bedrock));
        Map<String, Entry> byName = new LinkedHashMap<>();
        for (Entry e : all) {
            if (byName.put(e.name(), e) != null) {
                throw new IllegalStateException("two providers named " + e.name());
            }
        }
        return byName;
    }

    private static ChatProvider chatCompletions(CompatProfile profile, URI base, @Nullable ApiKey key, boolean thinkTags,
                                                HistoryPolicy history) {
        ChatCompletionsProvider.Builder builder = ChatCompletionsProvider.builder(profile).baseUrl(base).history(history);
        if (key != null) {
            builder.apiKey(key);
        }
        if (thinkTags) {
            builder.thinkTags(ThinkTagOptions.DEFAULT);
        }
        return builder.build();
    }

    private static ChatProvider responses(ResponsesProfile profile, Connection c) {
        ResponsesProvider.Builder builder = ResponsesProvider.builder(profile).baseUrl(c.baseUrl().toString()).history(c.history());
        if (c.key() != null) {
            builder.apiKey(c.key());
        }
        return builder.build();
    }

    private static ChatProvider anthropic(Connection c) {
        AnthropicProvider.Builder builder = AnthropicProvider.builder().baseUrl(c.baseUrl().toString()).history(c.history());
        if (c.key() != null) {
            builder.apiKey(c.key());
        }
        return builder.build();
    }

    private static ChatProvider gemini(Connection c) {
        GeminiProvider.Builder builder = GeminiProvider.builder().baseUrl(c.baseUrl().toString()).history(c.history());
        if (c.key() != null) {
            builder.apiKey(c.key());
        }
        return builder.build();
    }

    /**
     * Vertex AI: the token comes from {@code VERTEX_ACCESS_TOKEN} (for example
     * {@code $(gcloud auth print-access-token)}); the project and region are in the base URL the
     * user gives ({@code https://REGION-aiplatform.googleapis.com/v1/projects/P/locations/REGION/publishers/google}).
     */
    private static ChatProvider vertex(Connection c) {
        ApiKey token = c.key() != null ? c.key() : ApiKey.of("no-token");
        return GeminiProvider.vertex("replay", "global").baseUrl(c.baseUrl().toString()).accessToken(token)
                .history(c.history()).build();
    }

    private static ChatProvider ollamaNative(Connection c) {
        OllamaProvider.Builder builder = OllamaProvider.builder().baseUrl(c.baseUrl().toString()).history(c.history());
        if (c.key() != null) {
            builder.apiKey(c.key());
        }
        if (c.thinkTags()) {
            builder.thinkTags(ThinkTagOptions.DEFAULT);
        }
        return builder.build();
    }

    /**
     * Bedrock signs with AWS credentials: the replay emulator gets fixed ones, a real call reads
     * {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY} and {@code AWS_SESSION_TOKEN}. The
     * signing region comes from a {@code bedrock-runtime.<region>.amazonaws.com} URL, else
     * {@code AWS_REGION}.
     */
    private static ChatProvider bedrock(Connection c) {
        String host = c.baseUrl().getHost() == null ? "" : c.baseUrl().getHost();
        String region = host.startsWith("bedrock-runtime.") && host.endsWith(".amazonaws.com")
                ? host.substring("bedrock-runtime.".length(), host.length() - ".amazonaws.com".length()) : awsRegion();
        AwsCredentials credentials = c.replay() ? AwsCredentials.of("AKIDREPLAY", "replay-secret-not-a-secret")
                : AwsCredentials.fromEnv();
        return BedrockProvider.builder(region).baseUrl(c.baseUrl().toString()).credentials(credentials).history(c.history())
                .build();
    }

    private static String awsRegion() {
        String region = System.getenv("AWS_REGION");
        return region == null || region.isBlank() ? "us-east-1" : region;
    }

    private static boolean isLocal(String name) {
        return switch (name) {
            case "openai-compatible", "vllm", "llamacpp", "ollama", "lmstudio-responses", "vllm-responses",
                 "ollama-responses", "open-responses" -> true;
            default -> false;
        };
    }

    /** The conventional variable for a provider's key: {@code DEEPSEEK_API_KEY}, {@code OPENROUTER_API_KEY}, … */
    private static String keyVariable(String name) {
        return switch (name) {
            case "openai-compatible", "vllm", "llamacpp", "ollama", "lmstudio-responses", "vllm-responses",
                 "ollama-responses", "open-responses" -> "RUMINATE_API_KEY";
            case "glm" -> "ZAI_API_KEY";
            case "qwen" -> "DASHSCOPE_API_KEY";
            default -> name.replace("-responses", "").toUpperCase(Locale.ROOT).replace('-', '_') + "_API_KEY";
        };
    }

    static List<String> names() {
        return List.copyOf(ENTRIES.keySet());
    }

    /**
     * Returns the entry of a name.
     *
     * @throws UsageException for an unknown name, listing the known ones
     */
    static Entry entry(String name) {
        Entry entry = ENTRIES.get(Objects.requireNonNull(name, "name"));
        if (entry == null) {
            throw new UsageException("unknown provider '" + name + "'; known: " + String.join(", ", names()));
        }
        return entry;
    }

    /**
     * Builds a client.
     *
     * @param name a provider name from {@link #names()}
     * @param baseUrl where the server is
     * @param key the API key, or null for a server that needs none
     * @param thinkTags true to split {@code <think>} tags out of the content even if the provider does not
     */
    static ChatProvider create(String name, URI baseUrl, @Nullable ApiKey key, boolean thinkTags) {
        return entry(name).factory().create(new Connection(baseUrl, key, thinkTags, false, HistoryPolicy.DEFAULT));
    }

    /** Builds a client for the replay emulator, which needs no real credentials. */
    static ChatProvider forReplay(String name, URI emulator, boolean thinkTags) {
        return forReplay(name, emulator, thinkTags, HistoryPolicy.DEFAULT);
    }

    /** Builds a client for the replay emulator with a history policy. */
    static ChatProvider forReplay(String name, URI emulator, boolean thinkTags, HistoryPolicy history) {
        return entry(name).factory().create(new Connection(emulator, ApiKey.of("replay-key-not-a-secret"), thinkTags, true,
                history));
    }

    static @Nullable URI defaultBaseUrl(String name) {
        return entry(name).defaultBaseUrl();
    }

    /** Tells whether the provider is usually a local server that needs no key. */
    static boolean keyOptional(String name) {
        return entry(name).keyOptional();
    }

    static String defaultKeyVariable(String name) {
        return entry(name).keyVariable();
    }
}
