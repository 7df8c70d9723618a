package dev.ruminate.spring;

/**
 * The names Ruminate's observations and meters use, from the OpenTelemetry semantic conventions for
 * generative AI clients ({@code gen_ai.*}), plus the few of Ruminate's own ({@code ruminate.*}).
 * Names the conventions do not (yet) define with certainty are marked so in {@code docs/observability.md}.
 *
 * <p>Constants only; not instantiable.
 *
 * @since 0.4
 */
public final class GenAiAttributes {

    /** The observation name; with a meter handler also the name of the timer Micrometer derives from it. */
    public static final String OBSERVATION = "gen_ai.client.operation";
    /** Metric: duration of an operation, a timer (seconds in exporters that honour the base unit). */
    public static final String OPERATION_DURATION = "gen_ai.client.operation.duration";
    /** Metric: tokens used, a distribution summary tagged {@link #TOKEN_TYPE}. */
    public static final String TOKEN_USAGE = "gen_ai.client.token.usage";
    /** Metric: time from subscription to the first chunk of the response stream, a timer. */
    public static final String TIME_TO_FIRST_CHUNK = "gen_ai.client.operation.time_to_first_chunk";

    /** The operation, {@code chat} for a chat call. */
    public static final String OPERATION_NAME = "gen_ai.operation.name";
    /** The provider, a well-known value such as {@code openai} or {@code aws.bedrock}, else Ruminate's name. */
    public static final String PROVIDER_NAME = "gen_ai.provider.name";
    /** The model the request asked for. */
    public static final String REQUEST_MODEL = "gen_ai.request.model";
    /** The model the server said answered. */
    public static final String RESPONSE_MODEL = "gen_ai.response.model";
    /** The server's id of the response. */
    public static final String RESPONSE_ID = "gen_ai.response.id";
    /** Why the model stopped. */
    public static final String FINISH_REASONS = "gen_ai.response.finish_reasons";
    /** The request's output token limit, when set. */
    public static final String REQUEST_MAX_TOKENS = "gen_ai.request.max_tokens";
    /** The request's temperature, when set. */
    public static final String REQUEST_TEMPERATURE = "gen_ai.request.temperature";
    /** The request's top-p, when set. */
    public static final String REQUEST_TOP_P = "gen_ai.request.top_p";
    /** Input (prompt) tokens. */
    public static final String USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
    /** Output tokens (reasoning included, as the providers count them). */
    public static final String USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
    /** Reasoning tokens, a part of the output tokens. */
    public static final String USAGE_REASONING_TOKENS = "gen_ai.usage.reasoning.output_tokens";
    /** Input tokens read from the provider's prompt cache. */
    public static final String USAGE_CACHE_READ_TOKENS = "gen_ai.usage.cache_read.input_tokens";
    /** Input tokens written to the provider's prompt cache. */
    public static final String USAGE_CACHE_CREATION_TOKENS = "gen_ai.usage.cache_creation.input_tokens";
    /** The token type of {@link #TOKEN_USAGE}: {@code input} or {@code output}. */
    public static final String TOKEN_TYPE = "gen_ai.token.type";
    /** The error's type, on failure only: Ruminate's error type (e.g. {@code rate_limited}) or the class name. */
    public static final String ERROR_TYPE = "error.type";
    /** Opt-in content: the system instructions, as JSON. */
    public static final String SYSTEM_INSTRUCTIONS = "gen_ai.system_instructions";
    /** Opt-in content: the input messages, as JSON. */
    public static final String INPUT_MESSAGES = "gen_ai.input.messages";
    /** Opt-in content: the output messages, as JSON. */
    public static final String OUTPUT_MESSAGES = "gen_ai.output.messages";

    /** Ruminate's own: the provider's configured name under {@code ruminate.providers}. */
    public static final String RUMINATE_PROVIDER = "ruminate.provider";
    /** Ruminate's own: how the call ended, {@code success}, {@code error} or {@code cancelled}. */
    public static final String RUMINATE_OUTCOME = "ruminate.outcome";

    /** The value of {@link #OPERATION_NAME} for a chat call. */
    public static final String CHAT = "chat";

    private GenAiAttributes() {
    }
}
