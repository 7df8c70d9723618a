package dev.ruminate.providers;

import dev.ruminate.providers.ProviderKind.Credential;
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
import dev.ruminate.transport.http.ApiKey;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The one registry of provider kinds: every name the command line ({@code --provider}), Spring
 * ({@code ruminate.providers.*.kind}) and the tests accept, and how each builds its client. The
 * Chat Completions and Responses kinds are their {@link Profiles} and {@link ResponsesProfiles}
 * entries, named as the profiles are.
 *
 * <pre>{@code
 * ChatProvider deepseek = ProviderKinds.get("deepseek").create(ProviderSettings.builder()
 *         .apiKey(ApiKey.fromEnv("DEEPSEEK_API_KEY")).build());
 * }</pre>
 *
 * <p>Thread-safe: the registry is fixed when the class loads.
 *
 * @since 0.1
 */
public final class ProviderKinds {

    private static final String LOCAL_KEY = "RUMINATE_API_KEY";
    private static final String BEDROCK_HOST_PREFIX = "bedrock-runtime.";
    private static final String BEDROCK_HOST_SUFFIX = ".amazonaws.com";

    private static final List<ProviderKind> ALL = List.of(
            chatCompletions(Profiles.OPENAI, Credential.API_KEY, "OPENAI_API_KEY",
                    "OpenAI Chat Completions (no reasoning text, only its token count)"),
            chatCompletions(Profiles.DEEPSEEK, Credential.API_KEY, "DEEPSEEK_API_KEY",
                    "DeepSeek: reasoning_content, sent back by model family"),
            chatCompletions(Profiles.VLLM, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    "vLLM's OpenAI-compatible server (local)"),
            chatCompletions(Profiles.LLAMA_CPP, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    "llama.cpp llama-server (local)"),
            chatCompletions(Profiles.OLLAMA, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    "Ollama's OpenAI-compatible endpoint (local)"),
            chatCompletions(Profiles.OPENROUTER, Credential.API_KEY, "OPENROUTER_API_KEY",
                    "OpenRouter: reasoning_details, sent back unmodified"),
            chatCompletions(Profiles.GROQ, Credential.API_KEY, "GROQ_API_KEY", "Groq"),
            chatCompletions(Profiles.XAI, Credential.API_KEY, "XAI_API_KEY", "xAI Chat Completions"),
            chatCompletions(Profiles.GLM, Credential.API_KEY, "ZAI_API_KEY", "Z.ai GLM"),
            chatCompletions(Profiles.CHUTES, Credential.API_KEY, "CHUTES_API_KEY", "Chutes"),
            chatCompletions(Profiles.PERPLEXITY, Credential.API_KEY, "PERPLEXITY_API_KEY",
                    "Perplexity sonar-reasoning (<think> tags)"),
            chatCompletions(Profiles.QWEN, Credential.API_KEY, "DASHSCOPE_API_KEY",
                    "Alibaba DashScope, Qwen (international endpoint)"),
            chatCompletions(Profiles.CEREBRAS, Credential.API_KEY, "CEREBRAS_API_KEY", "Cerebras"),
            chatCompletions(Profiles.SNOWFLAKE, Credential.API_KEY, "SNOWFLAKE_API_KEY",
                    "Snowflake Cortex (give your account's base URL)"),
            chatCompletions(Profiles.MISTRAL, Credential.API_KEY, "MISTRAL_API_KEY", "Mistral: thinking chunks"),
            chatCompletions(Profiles.GEMINI_OPENAI, Credential.API_KEY, "GEMINI_API_KEY",
                    "Gemini's OpenAI-compatible endpoint: thought signatures in extra_content"),
            chatCompletions(Profiles.VERCEL_GATEWAY, Credential.API_KEY, "AI_GATEWAY_API_KEY",
                    "Vercel AI Gateway: reasoning_details, sent back unmodified"),
            chatCompletions(Profiles.MOONSHOT, Credential.API_KEY, "MOONSHOT_API_KEY",
                    "Moonshot Kimi: reasoning_content, sent back"),
            chatCompletions(Profiles.MINIMAX, Credential.API_KEY, "MINIMAX_API_KEY",
                    "MiniMax: <think> tags, sent back in the content"),
            chatCompletions(Profiles.AZURE, Credential.API_KEY, "AZURE_API_KEY",
                    "Azure OpenAI v1 Chat Completions (give the resource's base URL)", "azure-openai"),
            chatCompletions(Profiles.OPENAI_COMPATIBLE, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    "any other OpenAI-compatible Chat Completions server (give the base URL)", "chat-completions"),
            responses(ResponsesProfiles.OPENAI, Credential.API_KEY, "OPENAI_API_KEY", "OpenAI Responses", "responses"),
            responses(ResponsesProfiles.AZURE, Credential.API_KEY, "AZURE_API_KEY",
                    "Azure OpenAI v1 Responses (give the resource's base URL)"),
            responses(ResponsesProfiles.XAI, Credential.API_KEY, "XAI_API_KEY", "xAI Responses"),
            responses(ResponsesProfiles.DEEPSEEK, Credential.API_KEY, "DEEPSEEK_API_KEY", "DeepSeek Responses"),
            responses(ResponsesProfiles.OPENROUTER, Credential.API_KEY, "OPENROUTER_API_KEY", "OpenRouter Responses"),
            responses(ResponsesProfiles.LMSTUDIO, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    "LM Studio's Responses server (local)"),
            responses(ResponsesProfiles.VLLM, Credential.OPTIONAL_API_KEY, LOCAL_KEY, "vLLM's Responses server (local)"),
            responses(ResponsesProfiles.OLLAMA, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    "Ollama's Responses endpoint (local)"),
            responses(ResponsesProfiles.BEDROCK, Credential.API_KEY, "BEDROCK_API_KEY",
                    "Amazon Bedrock's OpenAI-compatible Responses endpoint, with a Bedrock API key"),
            responses(ResponsesProfiles.OPEN_RESPONSES, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    "any other Responses server (give the base URL)"),
            new ProviderKind("anthropic", List.of(), "Anthropic Messages: signed thinking blocks",
                    ApiFamily.ANTHROPIC, AnthropicProvider.DEFAULT_BASE_URL, Credential.API_KEY, "ANTHROPIC_API_KEY",
                    Set.of(), ProviderKinds::anthropic),
            new ProviderKind("gemini", List.of(), "Google Gemini API (AI Studio): thought signatures",
                    ApiFamily.GEMINI, GeminiProvider.AI_STUDIO_BASE_URL, Credential.API_KEY, "GEMINI_API_KEY",
                    Set.of(), ProviderKinds::gemini),
            new ProviderKind("vertex", List.of(), "Gemini on Google Cloud Vertex AI (project, location, access token)",
                    ApiFamily.GEMINI, null, Credential.ACCESS_TOKEN, "VERTEX_ACCESS_TOKEN",
                    Set.of(ProviderSetting.PROJECT, ProviderSetting.LOCATION, ProviderSetting.ACCESS_TOKEN),
                    ProviderKinds::vertex),
            new ProviderKind(OllamaProvider.NAME, List.of(), "Ollama's native /api/chat (NDJSON, local)",
                    ApiFamily.OLLAMA, OllamaProvider.DEFAULT_BASE_URL, Credential.OPTIONAL_API_KEY, LOCAL_KEY,
                    Set.of(), ProviderKinds::ollama),
            new ProviderKind("bedrock", List.of(), "Amazon Bedrock Converse (region, AWS credentials, SigV4)",
                    ApiFamily.BEDROCK, null, Credential.AWS_CREDENTIALS, "AWS_SECRET_ACCESS_KEY",
                    Set.of(ProviderSetting.REGION, ProviderSetting.AWS_CREDENTIALS), ProviderKinds::bedrock));

    private static final Map<String, ProviderKind> BY_NAME = index(ALL);

    private ProviderKinds() {
    }

    /**
     * Returns every kind, in a stable order (Chat Completions profiles, Responses profiles, then the
     * other APIs).
     *
     * @return the kinds
     */
    public static List<ProviderKind> all() {
        return ALL;
    }

    /**
     * Returns the names of every kind, in the order of {@link #all()}; aliases are not listed.
     *
     * @return the names
     */
    public static List<String> names() {
        return ALL.stream().map(ProviderKind::name).toList();
    }

    /**
     * Finds a kind by its name or an alias, ignoring case and surrounding blanks.
     *
     * @param name the name
     * @return the kind, or empty when none has that name
     */
    public static Optional<ProviderKind> find(String name) {
        return Optional.ofNullable(BY_NAME.get(normalize(Objects.requireNonNull(name, "name"))));
    }

    /**
     * Returns the kind of a name or alias.
     *
     * @param name the name
     * @return the kind
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static ProviderKind get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException(
                "unknown provider kind '" + name + "'; known: " + String.join(", ", names())));
    }

    private static String normalize(String name) {
        return name.strip().toLowerCase(Locale.ROOT);
    }

    /**
     * The AWS region: the one set, else the one in a {@code bedrock-runtime.<region>.amazonaws.com}
     * base URL.
     */
    static @Nullable String region(ProviderSettings settings) {
        String region = settings.region();
        if (region != null && !region.isBlank()) {
            return region.strip();
        }
        URI base = settings.baseUrl();
        String host = base != null ? base.getHost() : null;
        if (host != null && host.startsWith(BEDROCK_HOST_PREFIX) && host.endsWith(BEDROCK_HOST_SUFFIX)
                && host.length() > BEDROCK_HOST_PREFIX.length() + BEDROCK_HOST_SUFFIX.length()) {
            return host.substring(BEDROCK_HOST_PREFIX.length(), host.length() - BEDROCK_HOST_SUFFIX.length());
        }
        return null;
    }

    private static ProviderKind chatCompletions(CompatProfile profile, Credential credential, String keyVariable,
                                                String description, String... aliases) {
        return new ProviderKind(profile.name(), List.of(aliases), description, ApiFamily.CHAT_COMPLETIONS,
                profile.baseUrl(), credential, keyVariable, baseUrlUnlessDefault(profile.baseUrl()), (kind, s) -> {
                    ChatCompletionsProvider.Builder b = ChatCompletionsProvider.builder(profile);
                    ApiKey key = s.apiKey();
                    if (key != null) {
                        b.apiKey(key);
                    }
                    if (s.thinkTags() != null) {
                        b.thinkTags(s.thinkTags());
                    }
                    return new ProviderKind.Started(b, b::build);
                });
    }

    private static ProviderKind responses(ResponsesProfile profile, Credential credential, String keyVariable,
                                          String description, String... aliases) {
        return new ProviderKind(profile.name(), List.of(aliases), description, ApiFamily.RESPONSES, profile.baseUrl(),
                credential, keyVariable, baseUrlUnlessDefault(profile.baseUrl()), (kind, s) -> {
                    ResponsesProvider.Builder b = ResponsesProvider.builder(profile);
                    ApiKey key = s.apiKey();
                    if (key != null) {
                        b.apiKey(key);
                    }
                    return new ProviderKind.Started(b, b::build);
                });
    }

    private static Set<ProviderSetting> baseUrlUnlessDefault(@Nullable String defaultBaseUrl) {
        return defaultBaseUrl == null ? Set.of(ProviderSetting.BASE_URL) : Set.of();
    }

    private static ProviderKind.Started anthropic(ProviderKind kind, ProviderSettings s) {
        AnthropicProvider.Builder b = AnthropicProvider.builder();
        ApiKey key = s.apiKey();
        if (key != null) {
            b.apiKey(key);
        }
        return new ProviderKind.Started(b, b::build);
    }

    private static ProviderKind.Started gemini(ProviderKind kind, ProviderSettings s) {
        GeminiProvider.Builder b = GeminiProvider.builder();
        ApiKey key = s.apiKey();
        if (key != null) {
            b.apiKey(key);
        }
        Mono<ApiKey> token = s.accessToken();
        if (token != null) {
            b.accessToken(token);
        }
        return new ProviderKind.Started(b, b::build);
    }

    private static ProviderKind.Started vertex(ProviderKind kind, ProviderSettings s) {
        GeminiProvider.Builder b = GeminiProvider.vertex(Objects.requireNonNull(s.project()).strip(),
                Objects.requireNonNull(s.location()).strip());
        Mono<ApiKey> token = s.accessToken();
        ApiKey fixed = s.apiKey();
        if (token != null && fixed != null) {
            throw new IllegalArgumentException(kind.name() + " takes accessToken or apiKey (as a fixed token), not both");
        }
        if (token != null) {
            b.accessToken(token);
        } else if (fixed != null) {
            b.accessToken(fixed);
        }
        return new ProviderKind.Started(b, b::build);
    }

    private static ProviderKind.Started ollama(ProviderKind kind, ProviderSettings s) {
        OllamaProvider.Builder b = OllamaProvider.builder();
        ApiKey key = s.apiKey();
        if (key != null) {
            b.apiKey(key);
        }
        if (s.thinkTags() != null) {
            b.thinkTags(s.thinkTags());
        }
        return new ProviderKind.Started(b, b::build);
    }

    private static ProviderKind.Started bedrock(ProviderKind kind, ProviderSettings s) {
        if (s.apiKey() != null) {
            throw new IllegalArgumentException(kind.name() + " signs with awsCredentials; apiKey does not apply");
        }
        BedrockProvider.Builder b = BedrockProvider.builder(Objects.requireNonNull(region(s)));
        Mono<AwsCredentials> credentials = s.awsCredentials();
        if (credentials != null) {
            b.credentials(credentials);
        }
        return new ProviderKind.Started(b, b::build);
    }

    private static Map<String, ProviderKind> index(List<ProviderKind> kinds) {
        Map<String, ProviderKind> byName = new LinkedHashMap<>();
        for (ProviderKind kind : kinds) {
            List<String> names = new ArrayList<>(kind.aliases());
            names.add(0, kind.name());
            for (String name : names) {
                if (!name.equals(normalize(name)) || byName.put(name, kind) != null) {
                    throw new IllegalStateException("provider kind name '" + name + "' is taken or not lower case");
                }
            }
        }
        return Map.copyOf(byName);
    }
}
