package dev.ruminate.providers.chatcompletions;

/**
 * How a server is asked for reasoning: which request fields carry
 * {@link dev.ruminate.core.request.ReasoningOptions}.
 *
 * <p>Nothing is written when the options are {@link dev.ruminate.core.request.ReasoningOptions#DEFAULT}.
 * Options a style has no field for are ignored, as each constant documents, and values it lacks
 * are mapped to the nearest it has; since 0.3 each is reported as a
 * {@link dev.ruminate.core.event.Warning} ({@code option-ignored} or {@code option-coerced}) on the
 * result. A request's {@code extras} can always set any field by hand (they win over what the style
 * writes, and nothing is reported about a field they replace).
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ReasoningRequestStyle {

    /** Writes nothing: the model decides (Perplexity, generic servers). All options are ignored. */
    NONE,

    /**
     * {@code reasoning_effort}: {@code none|minimal|low|medium|high|xhigh} ({@code MAX} → {@code xhigh});
     * {@code enabled=false} without an effort → {@code none}. Ignores the budget and
     * {@code includeReasoning}.
     *
     * @see <a href="https://platform.openai.com/docs/api-reference/chat/create">OpenAI reasoning_effort</a>
     */
    OPENAI_EFFORT,

    /**
     * DeepSeek thinking mode: {@code thinking: {"type": "enabled"|"disabled"}} and, when thinking,
     * {@code reasoning_effort: "high"|"max"} ({@code MINIMAL}..{@code HIGH} → {@code high},
     * {@code MAX} → {@code max}). Ignores the budget and {@code includeReasoning}.
     *
     * @see <a href="https://api-docs.deepseek.com/guides/thinking_mode">DeepSeek thinking mode</a>
     */
    DEEPSEEK_THINKING,

    /**
     * OpenRouter: {@code reasoning: {"max_tokens": budget} or {"effort": …}} (the budget wins; they
     * are exclusive), plus {@code "exclude": !includeReasoning} and {@code "enabled"} when set.
     * Snowflake Cortex accepts the same object.
     *
     * @see <a href="https://openrouter.ai/docs/use-cases/reasoning-tokens">OpenRouter reasoning tokens</a>
     */
    OPENROUTER_REASONING,

    /**
     * Groq: {@code reasoning_effort} ({@code NONE} or {@code enabled=false} → {@code none},
     * {@code MINIMAL}/{@code LOW} → {@code low}, {@code MEDIUM} → {@code medium}, {@code HIGH}/{@code MAX}
     * → {@code high}) and, only when {@code includeReasoning} is set, {@code reasoning_format}
     * {@code parsed} or {@code hidden} (not sent otherwise: gpt-oss models reject it). Ignores the budget.
     *
     * @see <a href="https://console.groq.com/docs/reasoning">Groq reasoning</a>
     */
    GROQ,

    /**
     * xAI: {@code reasoning_effort} {@code low|high} (grok-3-mini): {@code MINIMAL}/{@code LOW}/{@code MEDIUM}
     * → {@code low} (its default), {@code HIGH}/{@code MAX} → {@code high}; {@code NONE} and
     * {@code enabled=false} write nothing (reasoning cannot be turned off). Ignores the budget and
     * {@code includeReasoning}.
     *
     * @see <a href="https://docs.x.ai/docs/guides/reasoning">xAI reasoning</a>
     */
    XAI_EFFORT,

    /**
     * Z.ai GLM: {@code thinking: {"type": "enabled"|"disabled"}}. Ignores the effort level, the budget
     * and {@code includeReasoning}. Preserved thinking ({@code "clear_thinking": false}) is set with
     * an extra {@code thinking} object.
     *
     * @see <a href="https://docs.z.ai/guides/capabilities/thinking-mode">Z.ai thinking mode</a>
     */
    GLM_THINKING,

    /**
     * vLLM, llama.cpp, SGLang: {@code chat_template_kwargs: {"enable_thinking": bool}}, from
     * {@code enabled} (or an effort: {@code NONE} → false, others → true). Ignores the level, the
     * budget and {@code includeReasoning}.
     */
    CHAT_TEMPLATE_KWARGS,

    /**
     * Alibaba DashScope (Qwen): {@code enable_thinking: bool} and {@code thinking_budget: N}.
     * Ignores the level and {@code includeReasoning}.
     *
     * @see <a href="https://www.alibabacloud.com/help/en/model-studio/deep-thinking">DashScope deep thinking</a>
     */
    DASHSCOPE,

    /**
     * Mistral, decided by the model. Magistral models ({@code magistral-*}) always reason; asking for
     * reasoning ({@code enabled}, an effort other than {@code NONE}, or a budget) writes
     * {@code prompt_mode: "reasoning"}, Mistral's default reasoning system prompt, and nothing
     * otherwise. Other models (Mistral Small 4, Medium 3.5, Large 4: adjustable reasoning) get
     * {@code reasoning_effort}: {@code "none"} when reasoning is disabled or the effort is
     * {@code NONE}, else {@code "high"}, the two values Mistral's reasoning guide describes (assumed
     * from the docs; no recording shows them). Ignores the budget's size and {@code includeReasoning}.
     *
     * @see <a href="https://docs.mistral.ai/capabilities/reasoning/">Mistral reasoning</a>
     */
    MISTRAL,

    /**
     * Gemini's OpenAI-compatible endpoint: {@code reasoning_effort}, which Google maps to thinking
     * levels: {@code NONE} or {@code enabled=false} → {@code none} (turns thinking off where the
     * model allows it), {@code MINIMAL} → {@code minimal}, {@code LOW} → {@code low}, {@code MEDIUM}
     * → {@code medium}, {@code HIGH}/{@code XHIGH}/{@code MAX} → {@code high}. Ignores the budget and
     * {@code includeReasoning} (thought summaries are asked for with an extra
     * {@code extra_body.google.thinking_config}).
     *
     * @see <a href="https://ai.google.dev/gemini-api/docs/openai">Gemini OpenAI compatibility</a>
     */
    GEMINI_EFFORT
}
