package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.think.ThinkTagOptions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The known Chat Completions servers, as {@link CompatProfile}s.
 *
 * <p>Where a fact is unverified (no recording or primary source), the profile takes the choice
 * that cannot cause a 400: reasoning is dropped on later turns, and only fields every server of
 * that kind accepts are written.
 *
 * <p>Structured output, media and caching (since 0.3), from each server's documentation as known
 * when written (no recording shows them): {@code json_schema} where documented (OpenAI, Azure,
 * OpenRouter, Groq, xAI, vLLM, llama.cpp, Ollama, Mistral, Gemini, Vercel, Perplexity, Chutes,
 * Cerebras), else JSON mode ({@code json_object}: DeepSeek, GLM, Qwen, Moonshot); a forced tool
 * choice refused while thinking (DeepSeek, Qwen, and, unverified, Moonshot and MiniMax) or always
 * (GLM takes only {@code auto}); no tools at Perplexity; no images at DeepSeek, Cerebras and
 * MiniMax (text-only), images only as {@code data:} URLs at Ollama, Gemini and Moonshot; PDF
 * {@code file} parts at OpenAI, Azure and OpenRouter (OpenRouter also by URL);
 * {@code prompt_cache_key} at OpenAI and Azure, {@code cache_control} breakpoints at OpenRouter;
 * Mistral's seed is {@code random_seed}, DeepSeek takes none.
 *
 * <p>The profiles are immutable and thread-safe.
 *
 * @since 0.1
 */
public final class Profiles {

    private static final List<String> NO_FIELDS = List.of();

    /**
     * Describes OpenAI: no reasoning text on Chat Completions (only {@code reasoning_tokens}), so nothing to
     * read or send back; {@code reasoning_effort}; {@code max_completion_tokens}.
     */
    public static final CompatProfile OPENAI = CompatProfile.builder("openai")
            .baseUrl("https://api.openai.com/v1")
            .reasoningFields(NO_FIELDS)
            .reasoningStyle(ReasoningRequestStyle.OPENAI_EFFORT)
            .streamUsage(true)
            .maxTokensField("max_completion_tokens")
            .structuredOutput(true, true)
            .pdfFiles(true, false)
            .promptCache(CompatProfile.PromptCacheStyle.OPENAI)
            .build();

    /**
     * Describes DeepSeek: {@code reasoning_content}; {@code thinking} + {@code reasoning_effort}; send-back by
     * model family, decided on each request's model name:
     *
     * <ul>
     *   <li>R1-family names ({@code deepseek-r1…}): reasoning never goes back; those endpoints answered
     *       400 when an input message carried {@code reasoning_content} (rule C2 of
     *       {@code docs/send-back-rules.md}).</li>
     *   <li>Every other name ({@code deepseek-chat}, {@code deepseek-reasoner}, V3.2, V4) is thinking
     *       mode: {@code reasoning_content} goes back on the assistant messages of every user turn that
     *       called a tool, an empty string on a message without reasoning. Without it the API answers
     *       400 "The reasoning_content in the thinking mode must be passed back to the API", typed as
     *       {@code OpaqueStateRejectedException} {@code MISSING_REASONING_CONTENT}. On turns without
     *       tool calls the API ignores it, so it is not sent there (rule C1). {@code deepseek-reasoner}
     *       is an alias that moved from R1 to the thinking-mode models; R1 never made tool calls, so
     *       the tool-turn scope is right in both eras.</li>
     * </ul>
     *
     * <p>Only reasoning this client read from DeepSeek goes back; another provider's is dropped first
     * ({@link dev.ruminate.core.history.History}).
     *
     * @see <a href="https://api-docs.deepseek.com/guides/thinking_mode">DeepSeek thinking mode</a>
     */
    public static final CompatProfile DEEPSEEK = CompatProfile.builder("deepseek")
            .baseUrl("https://api.deepseek.com")
            .reasoningFields(List.of("reasoning_content"))
            .reasoningStyle(ReasoningRequestStyle.DEEPSEEK_THINKING)
            .streamUsage(true)
            .sendBackRule(DeepSeekSendBackRule.INSTANCE)
            .structuredOutput(false, true)
            .tools(true, CompatProfile.ForcedToolChoice.NOT_WHILE_THINKING)
            .images(false, false)
            .seedField(null)
            .build();

    /**
     * Describes vLLM: {@code reasoning} (current) or {@code reasoning_content} (servers before the rename;
     * transitional ones send both with the same text); {@code chat_template_kwargs}; sends
     * {@code reasoning} back (0.16+ reads it and drops {@code reasoning_content}). Default URL is
     * {@code vllm serve}'s local one.
     */
    public static final CompatProfile VLLM = CompatProfile.builder("vllm")
            .baseUrl("http://localhost:8000/v1")
            .reasoningFields(List.of("reasoning", "reasoning_content"))
            .reasoningStyle(ReasoningRequestStyle.CHAT_TEMPLATE_KWARGS)
            .streamUsage(true)
            .sendBack(ReasoningSendBack.field("reasoning"))
            .structuredOutput(true, true)
            .build();

    /**
     * Describes llama.cpp {@code llama-server}: {@code reasoning_content}; {@code chat_template_kwargs}; sends
     * {@code reasoning_content} back (accepted since ggml-org/llama.cpp#18994, ignored by templates
     * that cannot render it). Default URL is the server's local one.
     */
    public static final CompatProfile LLAMA_CPP = CompatProfile.builder("llamacpp")
            .baseUrl("http://localhost:8080/v1")
            .reasoningFields(List.of("reasoning_content", "reasoning"))
            .reasoningStyle(ReasoningRequestStyle.CHAT_TEMPLATE_KWARGS)
            .streamUsage(true)
            .sendBack(ReasoningSendBack.field("reasoning_content"))
            .structuredOutput(true, true)
            .build();

    /**
     * Describes Ollama's OpenAI endpoint: {@code reasoning}; {@code reasoning_effort}; sends {@code reasoning}
     * back (forwarded as the message's thinking).
     */
    public static final CompatProfile OLLAMA = CompatProfile.builder("ollama")
            .baseUrl("http://localhost:11434/v1")
            .reasoningFields(List.of("reasoning", "reasoning_content"))
            .reasoningStyle(ReasoningRequestStyle.OPENAI_EFFORT)
            .streamUsage(true)
            .sendBack(ReasoningSendBack.field("reasoning"))
            .structuredOutput(true, true)
            .images(true, false)
            .build();

    /**
     * Describes OpenRouter: {@code reasoning_details} (text, summaries, signatures, encrypted data) win over
     * the plain {@code reasoning} copy of the same text; the {@code reasoning} object; details sent
     * back unmodified.
     */
    public static final CompatProfile OPENROUTER = CompatProfile.builder("openrouter")
            .baseUrl("https://openrouter.ai/api/v1")
            .reasoningFields(List.of("reasoning", "reasoning_content"))
            .readsReasoningDetails(true)
            .reasoningStyle(ReasoningRequestStyle.OPENROUTER_REASONING)
            .streamUsage(true)
            .sendBack(ReasoningSendBack.reasoningDetails())
            .structuredOutput(true, true)
            .pdfFiles(true, true)
            .promptCache(CompatProfile.PromptCacheStyle.CACHE_CONTROL)
            .build();

    /**
     * Describes Groq: {@code reasoning} ({@code reasoning_format: parsed}); {@code <think>} tags in the content
     * when a model defaults to {@code raw}; reasoning dropped on later turns ({@code reasoning_content}
     * is rejected with 400; whether {@code reasoning} is accepted is unverified).
     */
    public static final CompatProfile GROQ = CompatProfile.builder("groq")
            .baseUrl("https://api.groq.com/openai/v1")
            .reasoningFields(List.of("reasoning"))
            .thinkTags(ThinkTagOptions.DEFAULT)
            .reasoningStyle(ReasoningRequestStyle.GROQ)
            .streamUsage(true)
            .maxTokensField("max_completion_tokens")
            .structuredOutput(true, true)
            .build();

    /**
     * Describes xAI chat: {@code reasoning_content} (grok-3-mini only); {@code reasoning_effort} low|high;
     * reasoning dropped on later turns (chat send-back unverified).
     */
    public static final CompatProfile XAI = CompatProfile.builder("xai")
            .baseUrl("https://api.x.ai/v1")
            .reasoningFields(List.of("reasoning_content"))
            .reasoningStyle(ReasoningRequestStyle.XAI_EFFORT)
            .streamUsage(true)
            .structuredOutput(true, true)
            .build();

    /**
     * Describes Z.ai GLM: {@code reasoning_content}; {@code thinking}; sends {@code reasoning_content} back
     * (interleaved and preserved thinking need it). Usage arrives without {@code stream_options}.
     */
    public static final CompatProfile GLM = CompatProfile.builder("glm")
            .baseUrl("https://api.z.ai/api/paas/v4")
            .reasoningFields(List.of("reasoning_content"))
            .reasoningStyle(ReasoningRequestStyle.GLM_THINKING)
            .sendBack(ReasoningSendBack.field("reasoning_content"))
            .structuredOutput(false, true)
            .tools(true, CompatProfile.ForcedToolChoice.NEVER)
            .build();

    /**
     * Describes Chutes: reportedly both {@code reasoning_content} and {@code reasoning} with the same text
     * (unverified; one is taken); {@code chat_template_kwargs}; reasoning dropped on later turns.
     */
    public static final CompatProfile CHUTES = CompatProfile.builder("chutes")
            .baseUrl("https://llm.chutes.ai/v1")
            .reasoningFields(List.of("reasoning_content", "reasoning"))
            .reasoningStyle(ReasoningRequestStyle.CHAT_TEMPLATE_KWARGS)
            .streamUsage(true)
            .structuredOutput(true, true)
            .build();

    /**
     * Describes Perplexity sonar-reasoning: reasoning only as {@code <think>} tags in the content; nothing to
     * request; dropped on later turns.
     */
    public static final CompatProfile PERPLEXITY = CompatProfile.builder("perplexity")
            .baseUrl("https://api.perplexity.ai")
            .reasoningFields(NO_FIELDS)
            .thinkTags(ThinkTagOptions.DEFAULT)
            .structuredOutput(true, false)
            .tools(false, CompatProfile.ForcedToolChoice.NEVER)
            .build();

    /**
     * Describes Alibaba DashScope (Qwen, international endpoint): {@code reasoning_content};
     * {@code enable_thinking} + {@code thinking_budget}; reasoning dropped on later turns (unverified).
     */
    public static final CompatProfile QWEN = CompatProfile.builder("qwen")
            .baseUrl("https://dashscope-intl.aliyuncs.com/compatible-mode/v1")
            .reasoningFields(List.of("reasoning_content"))
            .reasoningStyle(ReasoningRequestStyle.DASHSCOPE)
            .streamUsage(true)
            .structuredOutput(false, true)
            .tools(true, CompatProfile.ForcedToolChoice.NOT_WHILE_THINKING)
            .build();

    /**
     * Describes Cerebras: {@code reasoning} (gpt-oss and GLM alike); {@code reasoning_effort};
     * {@code max_completion_tokens}; sends {@code reasoning} back (a recorded gpt-oss multi-turn
     * request with it was accepted).
     */
    public static final CompatProfile CEREBRAS = CompatProfile.builder("cerebras")
            .baseUrl("https://api.cerebras.ai/v1")
            .reasoningFields(List.of("reasoning", "reasoning_content"))
            .reasoningStyle(ReasoningRequestStyle.OPENAI_EFFORT)
            .maxTokensField("max_completion_tokens")
            .sendBack(ReasoningSendBack.field("reasoning"))
            .structuredOutput(true, true)
            .images(false, false)
            .build();

    /**
     * Describes Snowflake Cortex (OpenAI-compatible endpoint; the base URL is per account, so none is set):
     * OpenRouter-style {@code reasoning_details} with Claude signatures, sent back unmodified; the
     * {@code reasoning} object.
     */
    public static final CompatProfile SNOWFLAKE = CompatProfile.builder("snowflake")
            .reasoningFields(List.of("reasoning_content", "reasoning"))
            .readsReasoningDetails(true)
            .reasoningStyle(ReasoningRequestStyle.OPENROUTER_REASONING)
            .streamUsage(true)
            .sendBack(ReasoningSendBack.reasoningDetails())
            .build();

    /**
     * Describes Mistral (La Plateforme): reasoning as thinking chunks in {@code content} arrays
     * ({@code {"type":"thinking","thinking":[{"type":"text","text":…}]}}, Magistral and the
     * adjustable-reasoning models alike), so no plain reasoning field; {@code prompt_mode} for
     * Magistral, {@code reasoning_effort} for the others ({@link ReasoningRequestStyle#MISTRAL});
     * earlier reasoning sent back as thinking chunks on every turn (a recorded Magistral request
     * with them was accepted). Usage comes on the last chunk without {@code stream_options}.
     */
    public static final CompatProfile MISTRAL = CompatProfile.builder("mistral")
            .baseUrl("https://api.mistral.ai/v1")
            .reasoningFields(NO_FIELDS)
            .reasoningStyle(ReasoningRequestStyle.MISTRAL)
            .sendBack(ReasoningSendBack.thinkingChunks())
            .structuredOutput(true, true)
            .seedField("random_seed")
            .build();

    /**
     * Describes Gemini's OpenAI-compatible endpoint ({@code /v1beta/openai/chat/completions}): the
     * thought signature arrives as {@code extra_content.google.thought_signature} on the message (or
     * a plain {@code thought_signature}) and on each tool call, and goes back the same way
     * ({@link ReasoningSendBack#googleExtraContent()}); thought summaries, when asked for with an
     * extra {@code extra_body.google.thinking_config.include_thoughts}, are read from
     * {@code <thought>} tags in the content (unverified) and not sent back; {@code reasoning_effort}
     * mapped to thinking levels ({@link ReasoningRequestStyle#GEMINI_EFFORT}). Tool calls with an
     * empty id are kept without one; they go back under their name, which their results quote.
     */
    public static final CompatProfile GEMINI_OPENAI = CompatProfile.builder("gemini-openai")
            .baseUrl("https://generativelanguage.googleapis.com/v1beta/openai")
            .thinkTags(new ThinkTagOptions("<thought>", "</thought>", false))
            .reasoningStyle(ReasoningRequestStyle.GEMINI_EFFORT)
            .sendBack(ReasoningSendBack.googleExtraContent())
            .structuredOutput(true, true)
            .images(true, false)
            .build();

    /**
     * Describes the Vercel AI Gateway's OpenAI-compatible endpoint: {@code reasoning} and
     * OpenRouter-style {@code reasoning_details} (text, summaries, signatures, encrypted data), the
     * same text taken once; the {@code reasoning} object; details sent back unmodified (the shape
     * of accepted gpt-5 and Gemini 3 tool-turn requests).
     */
    public static final CompatProfile VERCEL_GATEWAY = CompatProfile.builder("vercel-gateway")
            .baseUrl("https://ai-gateway.vercel.sh/v1")
            .readsReasoningDetails(true)
            .reasoningStyle(ReasoningRequestStyle.OPENROUTER_REASONING)
            .streamUsage(true)
            .sendBack(ReasoningSendBack.reasoningDetails())
            .structuredOutput(true, true)
            .build();

    /**
     * Describes Moonshot's Kimi API: {@code reasoning_content} (and {@code reasoning_details} with the
     * same text, taken once); {@code thinking: {"type"}} when reasoning is switched on or off
     * (unverified for the models that always think); {@code reasoning_content} sent back on every
     * turn, which Kimi's thinking models need in tool-call turns (the shape of an accepted Kimi K2.5
     * request, on Avian).
     */
    public static final CompatProfile MOONSHOT = CompatProfile.builder("moonshot")
            .baseUrl("https://api.moonshot.ai/v1")
            .reasoningFields(List.of("reasoning_content", "reasoning"))
            .readsReasoningDetails(true)
            .reasoningStyle(ReasoningRequestStyle.GLM_THINKING)
            .streamUsage(true)
            .sendBack(ReasoningSendBack.field("reasoning_content"))
            .structuredOutput(false, true)
            .tools(true, CompatProfile.ForcedToolChoice.NOT_WHILE_THINKING)
            .images(true, false)
            .build();

    /**
     * Describes MiniMax (M2 family): reasoning inline as {@code <think>} tags in the content (the
     * default), or, with an extra {@code reasoning_split: true}, as {@code reasoning_details}
     * (read too, each text once); MiniMax asks for the whole assistant message, thinking included,
     * to stay in the history, so reasoning goes back as {@code <think>} tags in the content, as it
     * came by default. Nothing is written to request reasoning (M2 always thinks).
     */
    public static final CompatProfile MINIMAX = CompatProfile.builder("minimax")
            .baseUrl("https://api.minimax.io/v1")
            .readsReasoningDetails(true)
            .thinkTags(ThinkTagOptions.DEFAULT)
            .sendBack(ReasoningSendBack.thinkTags())
            .tools(true, CompatProfile.ForcedToolChoice.NOT_WHILE_THINKING)
            .images(false, false)
            .build();

    /**
     * Describes Azure OpenAI's v1 Chat Completions API: give the resource's base URL, such as
     * {@code https://RESOURCE.openai.azure.com/openai/v1}; the key goes in the {@code api-key}
     * header. As OpenAI: no reasoning text, {@code reasoning_effort}, {@code max_completion_tokens};
     * the plain reasoning fields are still read for the other models Azure serves there, and
     * nothing is sent back.
     */
    public static final CompatProfile AZURE = CompatProfile.builder("azure")
            .auth("api-key", "")
            .reasoningFields(List.of("reasoning_content", "reasoning"))
            .reasoningStyle(ReasoningRequestStyle.OPENAI_EFFORT)
            .streamUsage(true)
            .maxTokensField("max_completion_tokens")
            .structuredOutput(true, true)
            .pdfFiles(true, false)
            .promptCache(CompatProfile.PromptCacheStyle.PROMPT_CACHE_KEY)
            .build();

    /**
     * Describes any other OpenAI-compatible server: reads every reasoning carrier
     * ({@code reasoning_content}, {@code reasoning}, {@code reasoning_text} and OpenRouter-style
     * {@code reasoning_details}, one text taken once, signatures and encrypted details kept as
     * seals), writes nothing it might reject, sends no reasoning back. Derive a custom profile from
     * it with {@link CompatProfile#toBuilder()}.
     */
    public static final CompatProfile OPENAI_COMPATIBLE = CompatProfile.builder("openai-compatible")
            .readsReasoningDetails(true)
            .build();

    private static final Map<String, CompatProfile> BY_NAME = index(OPENAI, DEEPSEEK, VLLM, LLAMA_CPP, OLLAMA,
            OPENROUTER, GROQ, XAI, GLM, CHUTES, PERPLEXITY, QWEN, CEREBRAS, SNOWFLAKE, MISTRAL, GEMINI_OPENAI,
            VERCEL_GATEWAY, MOONSHOT, MINIMAX, AZURE, OPENAI_COMPATIBLE);

    private Profiles() {
    }

    /**
     * Finds a known profile by its name.
     *
     * @param name e.g. {@code deepseek}, {@code llamacpp}, {@code openai-compatible}
     * @return the profile
     * @throws IllegalArgumentException if no profile has that name; the message lists the names
     */
    public static CompatProfile byName(String name) {
        CompatProfile profile = BY_NAME.get(Objects.requireNonNull(name, "name"));
        if (profile == null) {
            throw new IllegalArgumentException("no Chat Completions profile named " + name + "; known: " + names());
        }
        return profile;
    }

    /**
     * Lists the names of the known profiles.
     *
     * @return the names, in a stable order
     */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    private static Map<String, CompatProfile> index(CompatProfile... profiles) {
        Map<String, CompatProfile> map = new LinkedHashMap<>();
        for (CompatProfile p : profiles) {
            map.put(p.name(), p);
        }
        return Collections.unmodifiableMap(map);
    }
}
