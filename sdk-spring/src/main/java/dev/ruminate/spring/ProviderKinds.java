package dev.ruminate.spring;

import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesProfile;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Turns a {@code kind} into the matching provider builder, with the kind-specific settings
 * (key, profile, project, region) applied. Kind names are the {@code ruminate --provider} names of
 * the command line, plus {@code chat-completions} and {@code responses} for the generic endpoints.
 */
final class ProviderKinds {

    static final String CHAT_COMPLETIONS = "chat-completions";
    static final String RESPONSES = "responses";
    static final String ANTHROPIC = "anthropic";
    static final String GEMINI = "gemini";
    static final String VERTEX = "vertex";
    static final String OLLAMA_NATIVE = OllamaProvider.NAME;
    static final String BEDROCK = "bedrock";

    private ProviderKinds() {
    }

    /** Every accepted kind, in a stable order, for error messages. */
    static List<String> names() {
        List<String> names = new ArrayList<>(Profiles.names());
        names.add(CHAT_COMPLETIONS);
        names.addAll(ResponsesProfiles.names());
        names.addAll(List.of(RESPONSES, ANTHROPIC, GEMINI, VERTEX, OLLAMA_NATIVE, BEDROCK));
        return names;
    }

    /**
     * Creates the builder of a kind.
     *
     * @param kind the kind, lower case
     * @param settings the provider's properties
     * @param key the key read from {@code api-key-env}, or null
     * @param env where the AWS variables are read, for Bedrock
     * @return the builder and how to build it, or null for an unknown kind
     */
    static @Nullable PendingProvider create(String kind, ProviderProperties settings, @Nullable ApiKey key,
                                            EnvironmentVariables env) {
        boolean thinkTags = Boolean.TRUE.equals(settings.thinkTags());
        switch (kind) {
            case CHAT_COMPLETIONS:
                return chatCompletions(Profiles.OPENAI_COMPATIBLE.name(), key, thinkTags);
            case RESPONSES:
                return responses(ResponsesProfiles.OPENAI, key);
            case ANTHROPIC: {
                AnthropicProvider.Builder b = AnthropicProvider.builder();
                if (key != null) {
                    b.apiKey(key);
                }
                return new PendingProvider(b, b::build);
            }
            case GEMINI: {
                GeminiProvider.Builder b = GeminiProvider.builder();
                if (key != null) {
                    b.apiKey(key);
                }
                return new PendingProvider(b, b::build);
            }
            case OLLAMA_NATIVE: {
                OllamaProvider.Builder b = OllamaProvider.builder();
                if (key != null) {
                    b.apiKey(key);
                }
                if (thinkTags) {
                    b.thinkTags(ThinkTagOptions.DEFAULT);
                }
                return new PendingProvider(b, b::build);
            }
            default:
                break;
        }
        if (Profiles.names().contains(kind)) {
            return chatCompletions(kind, key, thinkTags);
        }
        ResponsesProfile responses = ResponsesProfiles.byName(kind);
        return responses != null ? responses(responses, key) : null;
    }

    /**
     * Vertex AI: the project and location name the endpoint; the access token comes from
     * {@code api-key-env} or, for a rotating token, from a {@link ChatProviderCustomizer}.
     */
    static PendingProvider vertex(String project, String location, @Nullable ApiKey token) {
        GeminiProvider.Builder b = GeminiProvider.vertex(project, location);
        if (token != null) {
            b.accessToken(token);
        }
        return new PendingProvider(b, b::build);
    }

    /**
     * Bedrock signs requests with AWS credentials, read from {@code AWS_ACCESS_KEY_ID}, the secret
     * variable, and {@code AWS_SESSION_TOKEN} if set; without them the credentials must come from a
     * {@link ChatProviderCustomizer} (a rotating source), else building fails.
     */
    static PendingProvider bedrock(String region, EnvironmentVariables env, String secretVariable) {
        BedrockProvider.Builder b = BedrockProvider.builder(region);
        String id = env.get("AWS_ACCESS_KEY_ID");
        String secret = env.get(secretVariable);
        if (id != null && !id.isBlank() && secret != null && !secret.isBlank()) {
            String token = env.get("AWS_SESSION_TOKEN");
            b.credentials(new AwsCredentials(id.strip(), ApiKey.of(secret.strip()),
                    token == null || token.isBlank() ? null : ApiKey.of(token.strip())));
        }
        return new PendingProvider(b, b::build);
    }

    private static PendingProvider chatCompletions(String profile, @Nullable ApiKey key, boolean thinkTags) {
        ChatCompletionsProvider.Builder b = ChatCompletionsProvider.builder(Profiles.byName(profile));
        if (key != null) {
            b.apiKey(key);
        }
        if (thinkTags) {
            b.thinkTags(ThinkTagOptions.DEFAULT);
        }
        return new PendingProvider(b, b::build);
    }

    private static PendingProvider responses(ResponsesProfile profile, @Nullable ApiKey key) {
        ResponsesProvider.Builder b = ResponsesProvider.builder(profile);
        if (key != null) {
            b.apiKey(key);
        }
        return new PendingProvider(b, b::build);
    }

    /** Normalizes a configured kind: trimmed, lower case. */
    static String normalize(String kind) {
        return kind.strip().toLowerCase(Locale.ROOT);
    }
}
