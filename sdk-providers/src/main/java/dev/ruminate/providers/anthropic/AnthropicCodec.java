package dev.ruminate.providers.anthropic;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.internal.ClaudeOpaqueRules;
import dev.ruminate.providers.internal.OpaqueRejections;
import dev.ruminate.providers.spi.ApiIds;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * Encodes requests for, and decodes responses from, the Anthropic Messages API
 * ({@code POST /v1/messages}). This is the glue an HTTP client needs: {@link #encodeRequest} gives
 * the body, {@link #streamDecoder} turns the SSE events of a streamed answer into
 * {@link ChatEvent}s, {@link #decodeMessage} does the same for a whole body.
 *
 * <p>How blocks become events: content blocks become parts numbered in the order they start (a text
 * block that never holds text makes none). A {@code thinking} block gives
 * {@code ReasoningDelta}s (source {@code thinking}, not a summary) and its {@code signature_delta} a
 * {@code Seal} {@code SIGNATURE} with the signature exactly as sent; a {@code redacted_thinking}
 * block a {@code Seal} {@code REDACTED} with its data, on a part with no text; {@code text}
 * {@code ContentDelta}s ({@code citations_delta} is ignored); {@code tool_use} {@code ToolCallDelta}s
 * (id and name first, then the {@code input_json_delta} fragments; {@code "{}"} for a call without
 * input). Blocks of tools the provider runs ({@code server_tool_use}, {@code mcp_tool_use},
 * {@code web_search_tool_result}, {@code code_execution_tool_result},
 * {@code bash_code_execution_tool_result}, {@code mcp_tool_result}, … and any block type not listed
 * here) give one {@code ServerToolBlock} when they close, with the block's JSON as received (a
 * streamed {@code input} assembled in place), its {@code id} (for a result, the {@code tool_use_id}
 * it answers) and {@code name}. Each part ends with a {@code PartEnded} when its block
 * stops. {@code message_start} gives {@code ResponseStarted} and usage, {@code message_delta} usage
 * and the stop reason, {@code message_stop} the {@code ResponseCompleted}.
 *
 * <p>Usage is as reported: input tokens are {@code input_tokens} (which exclude cached input),
 * cached tokens {@code cache_read_input_tokens}, cache writes {@code cache_creation_input_tokens}
 * (in {@code message_start} and {@code message_delta}, and in a whole body), reasoning tokens
 * {@code output_tokens_details.thinking_tokens} where the API reports it (thinking is otherwise only
 * counted inside {@code output_tokens}).
 *
 * <p>An instance ({@link #of}) is the family's {@link WireCodec}, which {@link AnthropicProvider} runs
 * through the provider skeleton; the static methods serve callers with their own transport.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class AnthropicCodec implements WireCodec<SseEvent> {

    /** The provider name in events and errors. */
    public static final String PROVIDER = "anthropic";
    /** The {@code max_tokens} sent when a request does not set its maximum output. */
    public static final int DEFAULT_MAX_TOKENS = 8192;

    private final int defaultMaxTokens;

    private AnthropicCodec(int defaultMaxTokens) {
        if (defaultMaxTokens < 1) {
            throw new IllegalArgumentException("defaultMaxTokens must be positive, was " + defaultMaxTokens);
        }
        this.defaultMaxTokens = defaultMaxTokens;
    }

    /**
     * Returns the codec, as the provider skeleton uses it.
     *
     * @param defaultMaxTokens the {@code max_tokens} sent when a request sets no maximum output
     * @return the codec
     * @throws IllegalArgumentException if {@code defaultMaxTokens < 1}
     */
    public static AnthropicCodec of(int defaultMaxTokens) {
        return new AnthropicCodec(defaultMaxTokens);
    }

    /**
     * Types Anthropic's 400s about thinking blocks ({@code messages.N.content.M: … signature …},
     * {@code …thinking.signature: Field required}, {@code Expected `thinking` or
     * `redacted_thinking`, but found `tool_use`}); {@code messages.N.content.M} is mapped back to
     * the prepared message and part through the same grouping the encoder writes with.
     */
    @Override
    public @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                    ProviderHttpException error) {
        OpaqueRejections.Found found = OpaqueRejections.anthropic(error);
        if (found == null) {
            return null;
        }
        int[] origin = found.wireMessage() < 0 ? null
                : AnthropicMessagesWriter.origin(prepared.messages(), PROVIDER, found.wireMessage(), found.wireBlock());
        return OpaqueRejections.typed(error, provider, found, origin);
    }

    @Override
    public String api() {
        return ApiIds.ANTHROPIC_MESSAGES;
    }

    @Override
    public StreamFraming<SseEvent> framing() {
        return StreamFraming.SSE;
    }

    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        return base.resolve("/v1/messages");
    }

    /**
     * Returns the family's opaque-value rules: see {@link ClaudeOpaqueRules}.
     *
     * @return the rules
     */
    @Override
    public OpaqueRules opaqueRules() {
        return ClaudeOpaqueRules.INSTANCE;
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        return AnthropicRequestEncoder.encode(prepared, stream, defaultMaxTokens, PROVIDER, warnings);
    }

    /**
     * Returns the structured-output method this codec's encoder writes for the request: native
     * {@code output_config.format} on the models that have it, else the output tool, forced while
     * thinking is off and offered with {@code tool_choice: auto} while it is on
     * ({@link AnthropicStructuredOutput}, the same decision the encoder makes).
     */
    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        return AnthropicStructuredOutput.method(prepared, ClaudeThinking.of(prepared, new RequestWarnings()));
    }

    @Override
    public void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
        AnthropicPlan.explain(prepared, PROVIDER, plan);
    }

    @Override
    public StreamDecoder<SseEvent> newStreamDecoder(ChatRequest request) {
        return new AnthropicStreamDecoder(PROVIDER);
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return AnthropicResponseDecoder.decode(PROVIDER, body);
    }

    /**
     * Returns an operator that decodes one response's SSE events into chat events.
     *
     * <p>The operator is reusable: each subscription gets its own decoder state. <b>Backpressure:</b>
     * honoured. <b>Cancellation:</b> propagates upstream. <b>Errors:</b> {@code ProtocolException}
     * for malformed JSON ({@code MALFORMED_JSON}, with the event's line and byte offset) or a wrong
     * shape ({@code UNEXPECTED_SHAPE}); {@code ProviderStreamException} for an {@code error} event
     * (such as {@code overloaded_error}, which is retryable), with the error's type and message;
     * {@code IncompleteStreamException} when the body ends before {@code message_stop}; upstream
     * errors pass through unchanged. Unknown event types and {@code ping} are ignored. No event
     * repeats the thinking, so a stream has no {@code ReasoningFinal}.
     *
     * @return the operator, for {@code Flux.transform}
     */
    public static Function<Flux<SseEvent>, Flux<ChatEvent>> streamDecoder() {
        return StreamDecoding.operator(StreamFraming.SSE, () -> new AnthropicStreamDecoder(PROVIDER));
    }

    /**
     * Decodes a whole (non-streaming) message body into the events a stream would give, with a
     * {@code ReasoningFinal} per thinking part holding its text: the body is the provider's final
     * view and the deltas are taken from it, so the reasoning check of a non-streaming call is
     * {@code MATCHED} by construction.
     *
     * @param body the response body; not modified
     * @return a cold flux of the events, or of a {@code ProtocolException}, or of a
     *     {@code ProviderStreamException} for an {@code {"type":"error"}} body
     */
    public static Flux<ChatEvent> decodeMessage(byte[] body) {
        return BodyDecoding.flux(body, b -> AnthropicResponseDecoder.decode(PROVIDER, b));
    }

    /**
     * Encodes a request body with {@link #DEFAULT_MAX_TOKENS} as the maximum output when the
     * request sets none.
     *
     * @param request the request
     * @param stream true for a streaming call
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if a tool's schema or a tool call's arguments are not valid
     *     JSON, a tool call has no id, or an extra is not JSON-like
     * @see #encodeRequest(ChatRequest, boolean, int)
     */
    public static byte[] encodeRequest(ChatRequest request, boolean stream) {
        return encodeRequest(request, stream, DEFAULT_MAX_TOKENS);
    }

    /**
     * Encodes a request body: {@code model}, {@code max_tokens} (required by the API), the system
     * messages as {@code system}, the conversation as {@code messages} (earlier thinking sent back
     * with its signature, see below), {@code tools} as {@code {name, description, input_schema}},
     * {@code "stream": true} when streaming, {@code thinking}, {@code temperature}, {@code top_p},
     * {@code stop_sequences}, then the request's extras, which replace any field of the same name.
     * A seed is not sent: the API has none.
     *
     * <p>An output schema goes as {@link #structuredOutputMethod} decides: {@code output_config.format}
     * {@code {"type":"json_schema","schema":…}} (beside any {@code output_config.effort}) on Claude
     * Sonnet 4.5, Haiku 4.5, Opus 4.1, Opus 4.5 and later (UNVERIFIED: the generally available form;
     * the November 2025 beta took a top-level {@code output_format} with the header
     * {@code anthropic-beta: structured-outputs-2025-11-13}); else the output tool with
     * {@code tool_choice: {"type":"tool","name":…}}, or, while thinking is on, {@code {"type":"auto"}}
     * and an instruction as a last system block. Images and documents of user messages and tool
     * results go as {@code image} and {@code document} blocks before the text; what the API does not
     * take is refused with an {@code UnsupportedInput} before anything is written. Cache breakpoints
     * put {@code cache_control} on the last tool, the last system block and the last block of each
     * marked message, at most four. With thinking on, a {@code temperature} other than 1, a
     * {@code top_p} below 0.95 and a {@code top_k} extra are left out; a budget below 1024 is raised,
     * and a budget on Opus 4.7 and later becomes adaptive thinking. {@link #encode(ChatRequest, boolean,
     * RequestWarnings)} reports each such change as a warning; this method drops them.
     *
     * <p>{@code thinking} follows the request's reasoning options: a token budget gives
     * {@code {"type":"enabled","budget_tokens":N}} (Claude Sonnet 3.7 and Claude 4 models; the
     * budget must be at least 1024 and, without interleaved thinking, below {@code max_tokens};
     * deprecated on Opus 4.6 and Sonnet 4.6, rejected by Opus 4.7); an effort without a budget gives
     * {@code {"type":"adaptive"}} and {@code output_config: {"effort": …}} ({@code low},
     * {@code medium}, {@code high}, {@code max}; for Opus 4.6, Sonnet 4.6, Opus 4.7 and later), and
     * so does reasoning turned on with neither; reasoning turned off (or effort {@code NONE}) gives
     * {@code {"type":"disabled"}}; {@code includeReasoning} sets {@code thinking.display}
     * ({@code summarized} or {@code omitted}). Default options send no {@code thinking}.
     *
     * <p>Earlier assistant messages go back as their parts in order: thinking with its signature as a
     * {@code thinking} block, redacted thinking as {@code redacted_thinking}, text, tool calls as
     * {@code tool_use}, server-tool parts as their JSON verbatim; reasoning without a signature or
     * redacted data, and the reasoning and server-tool parts of another provider's message, are
     * dropped. Tool results become {@code tool_result} blocks in a user message, consecutive ones
     * merged.
     *
     * @param request the request
     * @param stream true for a streaming call
     * @param defaultMaxTokens the {@code max_tokens} sent when the request sets no maximum output
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if a tool's schema or a tool call's arguments are not valid
     *     JSON, a tool call has no id, an extra is not JSON-like, or {@code defaultMaxTokens < 1}
     */
    public static byte[] encodeRequest(ChatRequest request, boolean stream, int defaultMaxTokens) {
        Objects.requireNonNull(request, "request");
        return of(defaultMaxTokens).encode(request, stream);
    }
}
