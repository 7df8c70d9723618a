package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.StructuredOutputMethod;
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
 * Encodes requests for, and decodes responses from, any Chat Completions server described by a
 * {@link CompatProfile}. This is the glue an HTTP client needs: {@link #encodeRequest} gives the
 * body to {@code POST} to {@link CompatProfile#chatUri}, {@link #streamDecoder} turns the SSE events
 * of a streamed answer into {@link ChatEvent}s, {@link #decodeCompletion} does the same for a
 * whole body.
 *
 * <p>Think tags are not split here: when {@link CompatProfile#thinkTags()} is set, the caller
 * applies the think-tag splitter to the decoded events.
 *
 * <p>An instance ({@link #of}) is the family's {@link WireCodec}, which {@link ChatCompletionsProvider}
 * runs through the provider skeleton; the static methods serve callers with their own transport.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class ChatCompletionsCodec implements WireCodec<SseEvent> {

    private final CompatProfile profile;

    private ChatCompletionsCodec(CompatProfile profile) {
        this.profile = Objects.requireNonNull(profile, "profile");
    }

    /**
     * Returns the codec of a profile, as the provider skeleton uses it.
     *
     * @param profile the server's profile
     * @return the codec
     */
    public static ChatCompletionsCodec of(CompatProfile profile) {
        return new ChatCompletionsCodec(profile);
    }

    /**
     * Types DeepSeek's refusal of a tool-call turn sent back without its {@code reasoning_content}
     * (thinking mode). "message index N" is the prepared message N: this encoder writes one wire
     * message per conversation message, system messages included, plus a structured-output
     * instruction, which is accounted for. Never recoverable by stripping.
     */
    @Override
    public @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                    ProviderHttpException error) {
        OpaqueRejections.Found found = OpaqueRejections.deepSeek(error);
        if (found == null) {
            return null;
        }
        // a structured-output instruction is one wire message more, after the leading system messages
        int wire = found.wireMessage();
        int at = ChatCompletionsStructuredOutput.instructionAt(prepared, ChatCompletionsStructuredOutput.method(profile, prepared));
        int message = at >= 0 && wire >= at ? (wire == at ? -1 : wire - 1) : wire;
        boolean resolvable = message >= 0 && message < prepared.messages().size();
        return OpaqueRejections.typed(error, provider, found, resolvable ? new int[] {message, -1} : null);
    }

    @Override
    public String api() {
        return ApiIds.CHAT_COMPLETIONS;
    }

    @Override
    public StreamFraming<SseEvent> framing() {
        return StreamFraming.SSE;
    }

    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        return base.resolve(profile.chatPath());
    }

    /**
     * Returns the family's opaque-value rules: see {@link ChatCompletionsOpaqueRules}.
     *
     * @return the rules
     */
    @Override
    public OpaqueRules opaqueRules() {
        return ChatCompletionsOpaqueRules.INSTANCE;
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        return ChatCompletionsRequestEncoder.encode(profile, prepared, stream, warnings);
    }

    /**
     * Decides how the profile carries the request's output schema, with the code the encoder uses:
     * {@code response_format} {@code json_schema} where the profile has it; else the output tool,
     * forced unless the profile refuses a forced tool choice (while thinking, at DeepSeek and Qwen);
     * where only an unforced tool would remain, JSON mode ({@code json_object}) when the profile has
     * it; else the tool with {@code tool_choice: "auto"}; else an instruction.
     */
    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        return ChatCompletionsStructuredOutput.method(profile, prepared);
    }

    @Override
    public void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
        ChatCompletionsPlan.explain(profile, prepared, plan);
    }

    @Override
    public StreamDecoder<SseEvent> newStreamDecoder(ChatRequest request) {
        return new ChatCompletionsStreamDecoder(profile);
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return ChatCompletionsResponseDecoder.decode(profile, body);
    }

    /**
     * Returns an operator that decodes one response's SSE events into chat events.
     *
     * <p>The operator is reusable: each subscription gets its own decoder state. <b>Backpressure:</b>
     * honoured; SSE events are requested in bounded batches (Reactor's default prefetch) as chat
     * events are requested. <b>Cancellation:</b> propagates upstream (which
     * closes the HTTP exchange). <b>Errors:</b> {@code ProtocolException} for malformed JSON (with
     * the event's line and byte offset) or a wrong shape, {@code ProviderStreamException} for an
     * error reported in the stream, {@code IncompleteStreamException} when the body ends without
     * {@code [DONE]} or a finish reason; upstream errors pass through unchanged.
     *
     * @param profile the server's profile
     * @return the operator, for {@code Flux.transform}
     */
    public static Function<Flux<SseEvent>, Flux<ChatEvent>> streamDecoder(CompatProfile profile) {
        Objects.requireNonNull(profile, "profile");
        return StreamDecoding.operator(StreamFraming.SSE, () -> new ChatCompletionsStreamDecoder(profile));
    }

    /**
     * Decodes a whole (non-streaming) {@code chat.completion} body into the events a stream would
     * give, with a {@code ReasoningFinal} per reasoning part. The body is the provider's final view,
     * and the deltas are taken from it, so the reasoning check of a non-streaming call is
     * {@code MATCHED} by construction: it says the provider reported its final reasoning and the
     * message holds exactly it, not that two independent copies were compared.
     *
     * @param profile the server's profile
     * @param body the response body; not modified
     * @return a cold flux of the events, or of a {@code ProtocolException} or
     *     {@code ProviderStreamException} (an {@code error} object in a 200 body)
     */
    public static Flux<ChatEvent> decodeCompletion(CompatProfile profile, byte[] body) {
        Objects.requireNonNull(profile, "profile");
        return BodyDecoding.flux(body, b -> ChatCompletionsResponseDecoder.decode(profile, b));
    }

    /**
     * Encodes a request body: model, messages (earlier reasoning sent back as the profile's rule
     * for the model says; images and documents as content parts; a structured-output instruction as
     * a system message), tools (the output tool among them for a tool method), {@code tool_choice}
     * and {@code response_format} for the output schema, streaming flags, sampling, the profile's
     * reasoning fields, prompt-cache fields, then the request's extras, which replace any field of
     * the same name. What the profile ignores or maps is discarded here; see the four-argument form.
     *
     * @param profile the server's profile
     * @param request the request
     * @param stream true for a streaming call ({@code "stream": true}, plus {@code stream_options}
     *     when the profile asks for usage)
     * @return the UTF-8 JSON body
     * @throws dev.ruminate.providers.spi.UnsupportedInput for media or an output-schema strategy the
     *     profile does not take
     * @throws IllegalArgumentException if a tool's schema is not valid JSON or an extra's value is
     *     not a string, number, boolean, null, list or string-keyed map
     */
    public static byte[] encodeRequest(CompatProfile profile, ChatRequest request, boolean stream) {
        return encodeRequest(profile, request, stream, new RequestWarnings());
    }

    /**
     * Encodes a request body as {@link #encodeRequest(CompatProfile, ChatRequest, boolean)} does,
     * reporting every option the profile ignores or maps to another value.
     *
     * @param profile the server's profile
     * @param request the request
     * @param stream true for a streaming call
     * @param warnings where what was ignored or coerced is reported; used by the calling thread only
     * @return the UTF-8 JSON body
     * @throws dev.ruminate.providers.spi.UnsupportedInput for media or an output-schema strategy the
     *     profile does not take
     * @throws IllegalArgumentException if a tool's schema is not valid JSON or an extra's value is
     *     not a string, number, boolean, null, list or string-keyed map
     * @since 0.3
     */
    public static byte[] encodeRequest(CompatProfile profile, ChatRequest request, boolean stream, RequestWarnings warnings) {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(warnings, "warnings");
        return ChatCompletionsRequestEncoder.encode(profile, request, stream, warnings);
    }
}
