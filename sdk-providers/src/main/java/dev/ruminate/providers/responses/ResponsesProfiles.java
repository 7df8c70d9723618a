package dev.ruminate.providers.responses;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The known Responses servers, as {@link ResponsesProfile}s.
 *
 * <p>Servers that keep no state for the client (OpenAI, Azure, xAI and OpenRouter are asked to, with
 * {@code store: false}) return each reasoning item's {@code encrypted_content}, which goes back on
 * later turns. Local servers (LM Studio, vLLM, Ollama) stream raw reasoning text
 * ({@code response.reasoning_text.delta}) and need no key. Thread-safe constants.
 *
 * @since 0.1
 */
public final class ResponsesProfiles {

    /*
     * Capabilities (ResponsesCapabilities): OpenAI, Azure and a generic Open Responses server take
     * everything OpenAI's specification has. Servers that implement the specification only in part
     * (xAI, the local servers, Bedrock Mantle) take structured output, a forced tool choice and
     * images, but no input_file, no media in tool results and no prompt_cache_key: what their
     * documentation shows, the rest not confirmed (UNVERIFIED), so refused or warned about rather
     * than sent into a 400. DeepSeek's /responses takes none of it (its models read no media, and
     * its thinking mode refuses a forced tool choice); OpenRouter takes images and files.
     */
    private static final ResponsesCapabilities LOCAL = ResponsesCapabilities.OPENAI.withMedia(true, false, false)
            .withPromptCacheKey(false);

    /** OpenAI, {@code https://api.openai.com/v1/responses}, stateless reasoning. */
    public static final ResponsesProfile OPENAI = ResponsesProfile.builder("openai-responses")
            .baseUrl("https://api.openai.com/v1").statelessReasoning(true).build();

    /**
     * Azure OpenAI's v1 API: give the resource's base URL, such as
     * {@code https://RESOURCE.openai.azure.com/openai/v1}; the key goes in the {@code api-key} header.
     */
    public static final ResponsesProfile AZURE = ResponsesProfile.builder("azure-responses")
            .auth("api-key", "").statelessReasoning(true).build();

    /** xAI, {@code https://api.x.ai/v1/responses}; summaries of reasoning with encrypted content. */
    public static final ResponsesProfile XAI = ResponsesProfile.builder("xai-responses")
            .baseUrl("https://api.x.ai/v1").statelessReasoning(true)
            .reasoningStyle(ResponsesReasoningStyle.EFFORT_ONLY).capabilities(LOCAL).build();

    /** DeepSeek's {@code https://api.deepseek.com/responses}: raw reasoning text; thinking chosen by model. */
    public static final ResponsesProfile DEEPSEEK = ResponsesProfile.builder("deepseek-responses")
            .baseUrl("https://api.deepseek.com").reasoningStyle(ResponsesReasoningStyle.NONE)
            .capabilities(new ResponsesCapabilities(false, false, false, false, false, false)).build();

    /** OpenRouter's {@code https://openrouter.ai/api/v1/responses} (which ends its stream with {@code [DONE]}). */
    public static final ResponsesProfile OPENROUTER = ResponsesProfile.builder("openrouter-responses")
            .baseUrl("https://openrouter.ai/api/v1").statelessReasoning(true)
            .capabilities(ResponsesCapabilities.OPENAI.withMedia(true, true, false).withPromptCacheKey(false)).build();

    /** LM Studio's local server, {@code http://localhost:1234/v1/responses}. */
    public static final ResponsesProfile LMSTUDIO = ResponsesProfile.builder("lmstudio-responses")
            .baseUrl("http://localhost:1234/v1").reasoningStyle(ResponsesReasoningStyle.EFFORT_ONLY).capabilities(LOCAL)
            .build();

    /** vLLM's OpenAI-compatible server, {@code http://localhost:8000/v1/responses}. */
    public static final ResponsesProfile VLLM = ResponsesProfile.builder("vllm-responses")
            .baseUrl("http://localhost:8000/v1").reasoningStyle(ResponsesReasoningStyle.EFFORT_ONLY).capabilities(LOCAL)
            .build();

    /** Ollama's OpenAI-compatible server, {@code http://localhost:11434/v1/responses}. */
    public static final ResponsesProfile OLLAMA = ResponsesProfile.builder("ollama-responses")
            .baseUrl("http://localhost:11434/v1").reasoningStyle(ResponsesReasoningStyle.EFFORT_ONLY).capabilities(LOCAL)
            .build();

    /**
     * Amazon Bedrock's OpenAI-compatible endpoint ("Mantle"), {@code
     * https://bedrock-mantle.us-east-1.api.aws/openai/v1/responses} (change the region in the base
     * URL), with a Bedrock API key as bearer token; reasoning comes back as encrypted items.
     */
    public static final ResponsesProfile BEDROCK = ResponsesProfile.builder("bedrock-responses")
            .baseUrl("https://bedrock-mantle.us-east-1.api.aws/openai/v1").statelessReasoning(true).capabilities(LOCAL)
            .build();

    /**
     * Any other server that speaks the Responses API (the Open Responses specification, proxies):
     * give the base URL.
     */
    public static final ResponsesProfile OPEN_RESPONSES = ResponsesProfile.builder("open-responses").build();

    private static final Map<String, ResponsesProfile> BY_NAME = index(
            OPENAI, AZURE, XAI, DEEPSEEK, OPENROUTER, LMSTUDIO, VLLM, OLLAMA, BEDROCK, OPEN_RESPONSES);

    private ResponsesProfiles() {
    }

    /**
     * Finds a known profile by its name (case-insensitive), such as {@code openai-responses}.
     *
     * @param name the profile name
     * @return the profile, or null when none has that name
     */
    public static @Nullable ResponsesProfile byName(String name) {
        return BY_NAME.get(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Returns the names of the known profiles, in a stable order.
     *
     * @return the names
     */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    private static Map<String, ResponsesProfile> index(ResponsesProfile... profiles) {
        Map<String, ResponsesProfile> map = new LinkedHashMap<>();
        for (ResponsesProfile p : profiles) {
            map.put(p.name(), p);
        }
        return map;
    }
}
